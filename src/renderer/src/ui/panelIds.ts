/**
 * The panels, by id, in tab order. The one list of them: the registry (app/panels.tsx) must have
 * an entry for each (it fails to compile without), and the UI state (store/UiStore.ts) and panels
 * that open another panel name them by these ids.
 */
export const PANEL_IDS = [
  'log',
  'tools',
  'run',
  'pages',
  'telemetry',
  'connection',
  'webmcp',
  'hold',
  'recordings',
  'servers',
] as const;

export type PanelId = (typeof PANEL_IDS)[number];
