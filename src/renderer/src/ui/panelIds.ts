/** The panels, by id (their order is the tab order in panels.tsx). */
export type PanelId =
  'log' | 'tools' | 'run' | 'pages' | 'telemetry' | 'connection' | 'webmcp' | 'hold' | 'recordings';
