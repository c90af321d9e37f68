const PANEL_IDS = [
  'log',
  'tools',
  'run',
  'pages',
  'telemetry',
  'connection',
  'webmcp',
] as const;
export type PanelId = (typeof PANEL_IDS)[number];
