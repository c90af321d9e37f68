/**
 * The panel registry: one entry per tab. A panel is a component with no props; it reads the store
 * through hooks (see src/renderer/README.md). Order here is the tab order.
 */
import type {ComponentType} from 'react';
import {ConnectionPanel} from '../features/connection/ConnectionPanel.js';
import {LogPanel} from '../features/log/LogPanel.js';
import {PagesPanel} from '../features/pages/PagesPanel.js';
import {RunPanel} from '../features/run/RunPanel.js';
import {TelemetryPanel} from '../features/telemetry/TelemetryPanel.js';
import {ToolsPanel} from '../features/tools/ToolsPanel.js';
import {WebMcpPanel} from '../features/webmcp/WebMcpPanel.js';
import type {InspectorSnapshot} from '../store/InspectorStore.js';
import type {PanelId} from './panelIds.js';

export interface PanelDefinition {
  id: PanelId;
  label: string;
  component: ComponentType;
  /** A short count shown on the tab (must be cheap and return a primitive). */
  badge?: (snapshot: InspectorSnapshot) => string | undefined;
}

export const PANELS: readonly PanelDefinition[] = [
  {
    id: 'log',
    label: 'Log',
    component: LogPanel,
    badge: snapshot => (snapshot.log.size > 0 ? String(snapshot.log.size) : undefined),
  },
  {
    id: 'tools',
    label: 'Tools',
    component: ToolsPanel,
    badge: snapshot => {
      const enabled = snapshot.tools.tools.filter(tool => tool.enabled).length;
      return snapshot.tools.tools.length > 0 ? String(enabled) : undefined;
    },
  },
  {id: 'run', label: 'Run', component: RunPanel},
  {
    id: 'pages',
    label: 'Pages',
    component: PagesPanel,
    badge: snapshot => (snapshot.pages.length > 0 ? String(snapshot.pages.length) : undefined),
  },
  {id: 'telemetry', label: 'Telemetry', component: TelemetryPanel},
  {
    id: 'connection',
    label: 'Connection',
    component: ConnectionPanel,
    badge: snapshot => (snapshot.clients.length > 0 ? String(snapshot.clients.length) : undefined),
  },
  {id: 'webmcp', label: 'WebMCP', component: WebMcpPanel},
];
