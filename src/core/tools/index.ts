/**
 * Every tool the engine knows. Each family lives in its own file; the catalog decides at run time
 * which of them clients see.
 */
import {consoleTools} from './console.js';
import {cssTools} from './css.js';
import {emulationStateSection, emulationTools} from './emulation.js';
import {extensionTools} from './extensions.js';
import {inputTools} from './input.js';
import {heapAnalysisTools} from './heapAnalysis/tools.js';
import {lighthouseTools} from './lighthouse.js';
import {memoryTools} from './memory.js';
import {networkTools} from './network.js';
import {pageTools} from './pages.js';
import {performanceTools} from './performance.js';
import {pwaTools} from './pwa.js';
import {screencastTools} from './screencast.js';
import {screenshotTools} from './screenshot.js';
import {scriptTools} from './script.js';
import type {ToolSet} from './sections.js';
import {slimTools} from './slim/tools.js';
import {snapshotTools} from './snapshot.js';
import {thirdPartyToolsSection, thirdPartyTools} from './thirdParty.js';
import {waitForTools} from './waitFor.js';
import {webmcpToolsSection, webmcpTools} from './webmcp.js';

/** Every tool, and the sections features add to responses, in the order they render. */
export function allTools(): ToolSet {
  const tools = [
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
  return {
    tools,
    pageStateSections: [emulationStateSection],
    pageToolSections: [webmcpToolsSection, thirdPartyToolsSection],
  };
}
