/**
 * Every tool the engine knows. Each family lives in its own file; the catalog decides at run time
 * which of them clients see.
 */
import {consoleTools} from './console.js';
import {cssTools} from './css.js';
import type {Tool} from './definition.js';
import {emulationTools} from './emulation.js';
import {extensionTools} from './extensions.js';
import {inputTools} from './input.js';
import {heapAnalysisTools} from './heapAnalysis.js';
import {lighthouseTools} from './lighthouse.js';
import {memoryTools} from './memory.js';
import {networkTools} from './network.js';
import {pageTools} from './pages.js';
import {performanceTools} from './performance.js';
import {pwaTools} from './pwa.js';
import {screencastTools} from './screencast.js';
import {screenshotTools} from './screenshot.js';
import {scriptTools} from './script.js';
import {slimTools} from './slim/tools.js';
import {snapshotTools} from './snapshot.js';
import {thirdPartyTools} from './thirdParty.js';
import {waitForTools} from './waitFor.js';
import {webmcpTools} from './webmcp.js';

export function allTools(): Tool[] {
  return [
    ...pageTools,
    ...snapshotTools,
    ...screenshotTools,
    ...scriptTools,
    ...inputTools,
    ...waitForTools,
    ...consoleTools,
    ...networkTools,
    ...emulationTools,
    ...cssTools,
    ...performanceTools,
    ...lighthouseTools,
    ...memoryTools,
    ...heapAnalysisTools,
    ...screencastTools,
    ...webmcpTools,
    ...thirdPartyTools,
    ...extensionTools,
    ...pwaTools,
    ...slimTools,
  ];
}
