/**
 * Every tool the engine knows. Each family lives in its own file; the catalog decides at run time
 * which of them clients see.
 */
import type {PLAYWRIGHT_STEPS} from '../recordings/export/steps.js';
import {consoleTools} from './console.js';
import {cssTools} from './css.js';
import {emulationStateSection, emulationTools} from './emulation.js';
import {extensionTools} from './extensions.js';
import {inputTools} from './input.js';
import {heapAnalysisTools} from './heapAnalysis/tools.js';
import {lighthouseTools} from './lighthouse.js';
import {memoryTools} from './memory.js';
import {networkTools} from './network.js';
import {pagesTools} from './pages.js';
import {performanceTools} from './performance.js';
import {pwaTools} from './pwa.js';
import {screencastTools} from './screencast.js';
import {screenshotTools} from './screenshot.js';
import {scriptTools} from './script.js';
import type {ToolSet} from './base/sections.js';
import {slimTools} from './slim/tools.js';
import {snapshotTools} from './snapshot.js';
import {thirdPartyToolsSection, thirdPartyTools} from './thirdParty.js';
import {waitForTools} from './waitFor.js';
import {webmcpToolsSection, webmcpTools} from './webmcp.js';

/** Every tool, in the order they are listed. */
function everyTool() {
  return [
    ...pagesTools,
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

/** The name of every tool the engine has (not the WebMCP tools a page offers while it runs). */
export type ToolName = ReturnType<typeof everyTool>[number]['name'];

type ExportedName = keyof typeof PLAYWRIGHT_STEPS;
/**
 * The Playwright export has an entry for every tool (a step writer, or why it has none) and none
 * for a tool that is gone: otherwise this line fails to compile and names the tools.
 */
export const EXPORT_COVERS_EVERY_TOOL: [Exclude<ToolName, ExportedName>] extends [never]
  ? [Exclude<ExportedName, ToolName>] extends [never]
    ? true
    : {staleExportEntries: Exclude<ExportedName, ToolName>}
  : {toolsWithoutExportEntry: Exclude<ToolName, ExportedName>} = true;

/** Every tool, and the sections features add to responses, in the order they render. */
export function allTools(): ToolSet {
  return {
    tools: everyTool(),
    pageStateSections: [emulationStateSection],
    pageOfferedToolSections: [webmcpToolsSection, thirdPartyToolsSection],
  };
}
