/**
 * One recorded call → the lines of a Playwright Test step. Every tool of the engine is here, by
 * name: a writer of its action (navigationSteps, inputSteps, emulationSteps…), a writer of what it
 * read (`reads`: it changes nothing, so what it saw is compared, not acted), or the reason its
 * calls have no code in a test. The tool list checks this table against every tool's name
 * (src/core/tools/index.ts), so a new tool without an entry, or an entry for a tool that is gone,
 * fails to compile.
 */
import {emulationSteps} from './emulationSteps.js';
import {inputSteps} from './inputSteps.js';
import {navigationSteps} from './navigationSteps.js';
import {scriptSteps} from './scriptSteps.js';
import type {StepWriter} from './stepKit.js';

export {MalformedRecordingError, type StepContext} from './stepKit.js';

/** A tool whose calls have no code in a test, and why (shown under the step's comment). */
interface NotExported {
  readonly notExported: string;
}

/** A tool that only reads: its lines check what it saw; it is not an action on the page. */
interface Reads {
  readonly reads: StepWriter;
}

export type StepExport = StepWriter | Reads | NotExported;

const READS = 'reads what the agent looks at; the steps around it check what matters';
const TRACES = 'a performance trace is a measurement, not a step a test repeats';
const HEAP = 'heap snapshot analysis works on files, not on the page';
const EXTENSIONS = "extensions are set up in the test's browser, not installed by a step";
const PWA = "an installed web app is the browser's state, not a step on the page";
const WEBMCP = "the page's own tools have no Playwright API";
const IMAGE = 'an image; the test checks what the snapshots showed instead';
const SCREENCAST = 'a screencast films the page; Playwright records video itself';

/** The tools that have no step, each with the reason: one place to look. */
const notExported = {
  list_pages: {notExported: READS},
  take_screenshot: {notExported: IMAGE},
  screenshot: {notExported: IMAGE},
  list_console_messages: {notExported: READS},
  get_console_message: {notExported: READS},
  list_network_requests: {notExported: READS},
  get_network_request: {notExported: READS},
  get_css_styles: {notExported: READS},
  performance_start_trace: {notExported: TRACES},
  performance_stop_trace: {notExported: TRACES},
  performance_analyze_insight: {notExported: TRACES},
  lighthouse_audit: {notExported: 'an audit is a report, not a step a test repeats'},
  take_heapsnapshot: {notExported: HEAP},
  get_heapsnapshot_summary: {notExported: HEAP},
  get_heapsnapshot_details: {notExported: HEAP},
  get_heapsnapshot_class_nodes: {notExported: HEAP},
  get_heapsnapshot_retainers: {notExported: HEAP},
  get_heapsnapshot_edges: {notExported: HEAP},
  get_heapsnapshot_retaining_paths: {notExported: HEAP},
  get_heapsnapshot_dominators: {notExported: HEAP},
  get_heapsnapshot_object_details: {notExported: HEAP},
  get_heapsnapshot_duplicate_strings: {notExported: HEAP},
  query_heapsnapshot_objects: {notExported: HEAP},
  compare_heapsnapshots: {notExported: HEAP},
  analyze_heapsnapshot_contexts: {notExported: HEAP},
  close_heapsnapshot: {notExported: HEAP},
  screencast_start: {notExported: SCREENCAST},
  screencast_stop: {notExported: SCREENCAST},
  list_webmcp_tools: {notExported: WEBMCP},
  execute_webmcp_tool: {notExported: WEBMCP},
  list_3p_developer_tools: {notExported: WEBMCP},
  execute_3p_developer_tool: {notExported: WEBMCP},
  install_extension: {notExported: EXTENSIONS},
  uninstall_extension: {notExported: EXTENSIONS},
  list_extensions: {notExported: EXTENSIONS},
  reload_extension: {notExported: EXTENSIONS},
  trigger_extension_action: {notExported: EXTENSIONS},
  install_pwa: {notExported: PWA},
  uninstall_pwa: {notExported: PWA},
  launch_pwa: {notExported: PWA},
  get_os_app_state: {notExported: PWA},
} satisfies Record<string, NotExported>;

/** Every tool of the engine by name: its step writer, or why it has none. */
export const PLAYWRIGHT_STEPS = {
  ...navigationSteps,
  ...inputSteps,
  ...scriptSteps,
  ...emulationSteps,
  ...notExported,
} satisfies Record<string, StepExport>;

/** Looked up by own name only: a recorded tool called `constructor` or `__proto__` has none. */
const STEPS = new Map<string, StepExport>(Object.entries(PLAYWRIGHT_STEPS));

/** Why a step has no code, or its writer. */
export function stepExportOf(tool: string): StepExport | undefined {
  return STEPS.get(tool);
}
