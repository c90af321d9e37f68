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

interface ConditionRow {
  label: string;
  /** The inspector may switch it at run time, like a category. */
  switchable: boolean;
  /** On by default: the flag that matters is the one that turns it off (`--no-…`). */
  onByDefault?: true;
  /** What a flag that gates no tool changes (shown by its switch in the Tools panel). */
  effect?: string;
}

/**
 * One row per condition: everything the catalog, the Tools panel and the errors say about it.
 * --no-javascript-evaluation is a safety setting chosen at start, so it stays as started.
 */
export const CONDITIONS: Record<ToolCondition, ConditionRow> = {
  experimentalVision: {label: 'Vision (coordinates)', switchable: true},
  memoryDebugging: {label: 'Memory debugging', switchable: true},
  javascriptEvaluation: {label: 'JavaScript evaluation', switchable: false, onByDefault: true},
  webmcpTools: {label: 'Page WebMCP tools as MCP tools', switchable: true},
  snapshotDiffs: {
    label: 'Snapshot diffs',
    switchable: true,
    effect:
      "A repeat take_snapshot of a page (and a snapshot appended to an action's reply) answers with only the lines that changed since that client's last snapshot of it. The first snapshot per page and client, and the first after a navigation, stay whole; full=true asks for the whole tree.",
  },
};

/** The flag that changes a condition from its default: `--experimentalVision`, `--no-javascript-evaluation`. */
export function conditionFlag(condition: ToolCondition): string {
  const kebab = condition.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);
  return CONDITIONS[condition].onByDefault ? `--no-${kebab}` : `--${condition}`;
}
