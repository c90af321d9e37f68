/**
 * Tool categories, their labels and default state: the same as chrome-devtools-mcp 1.11, so the
 * `--category<Name>` flags mean the same thing here.
 */
export const TOOL_CATEGORIES = [
  'input',
  'navigation',
  'emulation',
  'performance',
  'network',
  'debugging',
  'extensions',
  'experimentalThirdParty',
  'memory',
  'experimentalWebmcp',
  'pwa',
] as const;

export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<ToolCategory, string> = {
  input: 'Input automation',
  navigation: 'Navigation automation',
  emulation: 'Emulation',
  performance: 'Performance',
  network: 'Network',
  debugging: 'Debugging',
  extensions: 'Extensions',
  experimentalThirdParty: 'Third-party',
  memory: 'Memory',
  experimentalWebmcp: 'WebMCP',
  pwa: 'Progressive Web Apps',
};

export const CATEGORIES_OFF_BY_DEFAULT: readonly ToolCategory[] = [
  'extensions',
  'experimentalThirdParty',
  'experimentalWebmcp',
  'pwa',
];

/** `experimentalWebmcp` → `categoryExperimentalWebmcp`. */
export function categoryFlagName(category: ToolCategory): string {
  return `category${category.charAt(0).toUpperCase()}${category.slice(1)}`;
}

/**
 * Feature flags that gate single tools (chrome-devtools-mcp calls them conditions), or a
 * parameter and what tools answer (snapshotDiffs).
 */
export const TOOL_CONDITIONS = [
  'experimentalVision',
  'memoryDebugging',
  'javascriptEvaluation',
  'webmcpTools',
  'snapshotDiffs',
] as const;
export type ToolCondition = (typeof TOOL_CONDITIONS)[number];

export const CONDITION_LABELS: Record<ToolCondition, string> = {
  experimentalVision: 'Vision (coordinates)',
  memoryDebugging: 'Memory debugging',
  javascriptEvaluation: 'JavaScript evaluation',
  webmcpTools: 'Page WebMCP tools as MCP tools',
  snapshotDiffs: 'Snapshot diffs',
};

/** What a flag that gates no tool changes (shown by its switch in the Tools panel). */
export const CONDITION_EFFECTS: Partial<Record<ToolCondition, string>> = {
  snapshotDiffs:
    "A repeat take_snapshot of a page (and a snapshot appended to an action's reply) answers with only the lines that changed since that client's last snapshot of it. The first snapshot per page and client, and the first after a navigation, stay whole; full=true asks for the whole tree.",
};

/**
 * Conditions the inspector may switch at run time, like categories. --no-javascript-evaluation is
 * a safety setting chosen at start, so it stays as started.
 */
export const SWITCHABLE_CONDITIONS: readonly ToolCondition[] = [
  'experimentalVision',
  'memoryDebugging',
  'webmcpTools',
  'snapshotDiffs',
];
