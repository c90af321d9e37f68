/**
 * The panel registry: one entry per panel id (ui/panelIds.ts, whose order is the tab order; an id
 * without an entry fails to compile). A panel is a component with no props; it reads the store
 * through hooks (see src/renderer/README.md). What a panel puts into another panel's slots
 * (context/panelSlots.tsx) is declared here too, so no module registers anything on import.
 *
 * Only the Log panel (the one that opens first) is in the first-paint bundle. Every other panel is
 * its own chunk, fetched when its tab is first pointed at, focused or opened; the schema form
 * (rjsf, the biggest chunk) follows the panels that show forms.
 */
import type {ComponentType} from 'react';
import type {PanelSlotFills} from '../context/panelSlots.js';
import {LogPanel} from '../features/log/LogPanel.js';
import type {InspectorSnapshot} from '../store/InspectorStore.js';
import {lazyComponent} from '../ui/lazyComponent.js';
import {PANEL_IDS, type PanelId} from '../ui/panelIds.js';
import {preloadSchemaForm} from '../ui/SchemaForm.js';
import {panelPlaceholder} from './PanelPlaceholder.js';
import {liveClients} from '../store/clients.js';

export interface PanelDefinition {
  id: PanelId;
  label: string;
  component: ComponentType;
  /** Starts fetching the panel's code (a no-op once loaded, or for a panel in the main bundle). */
  preload: () => void;
  /** A short count shown on the tab (must be cheap and return a primitive). */
  badge?: (snapshot: InspectorSnapshot) => string | undefined;
  /** Something in the panel waits for the person: the tab asks for attention while not open. */
  attention?: (snapshot: InspectorSnapshot) => boolean;
  /** The slots of other panels this panel fills (each loads its code on first render). */
  fills?: PanelSlotFills;
}

type PanelCode = Pick<PanelDefinition, 'component' | 'preload'>;

/** A panel whose code is its own chunk, fetched on first open (or when its tab is headed for). */
function lazyPanel(label: string, load: () => Promise<ComponentType>): PanelCode {
  const lazy = lazyComponent(load, panelPlaceholder(label));
  return {component: lazy.Component, preload: lazy.preload};
}

const inMainBundle = (component: ComponentType): PanelCode => ({
  component,
  preload: () => undefined,
});

/** A slot filler whose code is fetched when it first renders (nothing shows until then). */
function lazyFill<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  return lazyComponent(load, () => null).Component;
}

const REGISTRY: Readonly<Record<PanelId, Omit<PanelDefinition, 'id'>>> = {
  log: {
    label: 'Log',
    ...inMainBundle(LogPanel),
    badge: snapshot => (snapshot.log.size > 0 ? String(snapshot.log.size) : undefined),
  },
  tools: {
    label: 'Tools',
    ...lazyPanel('Tools', () => import('../features/tools/ToolsPanel.js').then(m => m.ToolsPanel)),
    badge: snapshot => {
      const enabled = snapshot.tools.tools.filter(tool => tool.enabled).length;
      return snapshot.tools.tools.length > 0 ? String(enabled) : undefined;
    },
  },
  run: {
    label: 'Run',
    // Its form shows at once: fetch the schema form alongside.
    ...lazyPanel('Run', () => {
      preloadSchemaForm();
      return import('../features/run/RunPanel.js').then(m => m.RunPanel);
    }),
  },
  pages: {
    label: 'Pages',
    ...lazyPanel('Pages', () => import('../features/pages/PagesPanel.js').then(m => m.PagesPanel)),
    badge: snapshot => (snapshot.pages.length > 0 ? String(snapshot.pages.length) : undefined),
  },
  telemetry: {
    label: 'Telemetry',
    ...lazyPanel('Telemetry', () =>
      import('../features/telemetry/TelemetryPanel.js').then(m => m.TelemetryPanel),
    ),
  },
  connection: {
    label: 'Connection',
    ...lazyPanel('Connection', () =>
      import('../features/connection/ConnectionPanel.js').then(m => m.ConnectionPanel),
    ),
    // Live clients only: a finished run whose session has not expired yet does not count.
    badge: snapshot => {
      const live = liveClients(snapshot.clients).length;
      return live > 0 ? String(live) : undefined;
    },
  },
  webmcp: {
    label: 'WebMCP',
    // Forms show only when a tool is opened: fetch the schema form once the list can render.
    ...lazyPanel('WebMCP', () =>
      import('../features/webmcp/WebMcpPanel.js').then(m => {
        preloadSchemaForm();
        return m.WebMcpPanel;
      }),
    ),
  },
  hold: {
    label: 'Hold',
    // Editing a held call shows the schema form: fetch it alongside.
    ...lazyPanel('Hold', () => {
      preloadSchemaForm();
      return import('../features/hold/HoldPanel.js').then(m => m.HoldPanel);
    }),
    badge: snapshot => {
      const held = snapshot.hold?.queue.length ?? 0;
      return held > 0 ? `${held} held` : undefined;
    },
    // A held call waits for the person, and denies itself when its time is up.
    attention: snapshot => (snapshot.hold?.queue.length ?? 0) > 0,
  },
  recordings: {
    label: 'Recordings',
    ...lazyPanel('Recordings', () =>
      import('../features/recordings/RecordingsPanel.js').then(m => m.RecordingsPanel),
    ),
    fills: {
      recordedCall: lazyFill(() =>
        import('../features/recordings/RecordingActions.js').then(m => m.RecordedCallActions),
      ),
    },
  },
  servers: {
    label: 'Servers',
    ...lazyPanel('Servers', () =>
      import('../features/servers/ServersPanel.js').then(m => m.ServersPanel),
    ),
  },
};

/** The panels in tab order. */
export const PANELS: readonly PanelDefinition[] = PANEL_IDS.map(id => ({id, ...REGISTRY[id]}));

/** Every slot fill the panels declare, for the app frame to provide. */
export const PANEL_SLOT_FILLS: PanelSlotFills = PANELS.reduce<PanelSlotFills>(
  (fills, panel) => ({...fills, ...panel.fills}),
  {},
);
