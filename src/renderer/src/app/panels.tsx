/**
 * The panel registry: one entry per tab. A panel is a component with no props; it reads the store
 * through hooks (see src/renderer/README.md). Order here is the tab order.
 *
 * Only the Log panel (the one that opens first) is in the first-paint bundle. Every other panel is
 * its own chunk, fetched when its tab is first pointed at, focused or opened; the schema form
 * (Run, WebMCP) comes with them.
 */
import {lazy, type ComponentType} from 'react';
import {LogPanel} from '../features/log/LogPanel.js';
import type {InspectorSnapshot} from '../store/InspectorStore.js';
import type {PanelId} from './panelIds.js';

export interface PanelDefinition {
  id: PanelId;
  label: string;
  component: ComponentType;
  /** Starts fetching the panel's code (a no-op once loaded, or for a panel in the main bundle). */
  preload: () => void;
  /** A short count shown on the tab (must be cheap and return a primitive). */
  badge?: (snapshot: InspectorSnapshot) => string | undefined;
}

type Loader = () => Promise<ComponentType>;

/** A panel loaded on first use: one fetch however often it is preloaded or rendered. */
function lazyPanel(load: Loader): Pick<PanelDefinition, 'component' | 'preload'> {
  let loading: Promise<{default: ComponentType}> | undefined;
  const fetchPanel = (): Promise<{default: ComponentType}> => {
    loading ??= load().then(
      component => ({default: component}),
      (error: unknown) => {
        // A failed fetch (server restarted mid-load) may be retried on the next open.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    component: lazy(fetchPanel),
    preload: () => {
      fetchPanel().catch(() => undefined);
    },
  };
}

const inMainBundle = (
  component: ComponentType,
): Pick<PanelDefinition, 'component' | 'preload'> => ({
  component,
  preload: () => undefined,
});

export const PANELS: readonly PanelDefinition[] = [
  {
    id: 'log',
    label: 'Log',
    ...inMainBundle(LogPanel),
    badge: snapshot => (snapshot.log.size > 0 ? String(snapshot.log.size) : undefined),
  },
  {
    id: 'tools',
    label: 'Tools',
    ...lazyPanel(() => import('../features/tools/ToolsPanel.js').then(m => m.ToolsPanel)),
    badge: snapshot => {
      const enabled = snapshot.tools.tools.filter(tool => tool.enabled).length;
      return snapshot.tools.tools.length > 0 ? String(enabled) : undefined;
    },
  },
  {
    id: 'run',
    label: 'Run',
    ...lazyPanel(() => import('../features/run/RunPanel.js').then(m => m.RunPanel)),
  },
  {
    id: 'pages',
    label: 'Pages',
    ...lazyPanel(() => import('../features/pages/PagesPanel.js').then(m => m.PagesPanel)),
    badge: snapshot => (snapshot.pages.length > 0 ? String(snapshot.pages.length) : undefined),
  },
  {
    id: 'telemetry',
    label: 'Telemetry',
    ...lazyPanel(() =>
      import('../features/telemetry/TelemetryPanel.js').then(m => m.TelemetryPanel),
    ),
  },
  {
    id: 'connection',
    label: 'Connection',
    ...lazyPanel(() =>
      import('../features/connection/ConnectionPanel.js').then(m => m.ConnectionPanel),
    ),
    badge: snapshot => (snapshot.clients.length > 0 ? String(snapshot.clients.length) : undefined),
  },
  {
    id: 'webmcp',
    label: 'WebMCP',
    ...lazyPanel(() => import('../features/webmcp/WebMcpPanel.js').then(m => m.WebMcpPanel)),
  },
];
