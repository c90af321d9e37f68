/**
 * The app frame: header (connection state), the tab strip from the panel registry, and the open
 * panel. Panels mount on first visit and stay mounted (hidden) so filters and scroll survive a
 * tab switch; most load their code on first visit (see panels.tsx).
 */
import {useState} from 'react';
import {APP_NAME} from '../../../shared/constants.js';
import {UnauthorizedScreen} from './UnauthorizedScreen.js';
import {useInspector, useSnapshot, useUi} from './InspectorContext.js';
import {PANELS} from './panels.js';
import {Tabs} from './Tabs.js';
import type {PanelId} from './panelIds.js';

export function App(): React.JSX.Element {
  const connection = useSnapshot(snapshot => snapshot.connection);
  if (connection.state === 'unauthorized') {
    return <UnauthorizedScreen message={connection.message} />;
  }
  return <Workspace />;
}

function Workspace(): React.JSX.Element {
  const {ui} = useInspector();
  const panel = useUi(snapshot => snapshot.panel);
  const [visited, setVisited] = useState<ReadonlySet<PanelId>>(() => new Set([panel]));
  if (!visited.has(panel)) {
    setVisited(new Set([...visited, panel]));
  }
  return (
    <div className="app">
      <header className="app__header">
        <h1 className="app__title">{APP_NAME}</h1>
        <ConnectionBadge />
      </header>
      <Tabs panels={PANELS} active={panel} onSelect={id => ui.openPanel(id)} />
      {PANELS.map(definition =>
        visited.has(definition.id) ? (
          <section
            key={definition.id}
            id={`panel-${definition.id}`}
            role="tabpanel"
            aria-labelledby={`tab-${definition.id}`}
            className="app__panel"
            hidden={definition.id !== panel}
          >
            <definition.component />
          </section>
        ) : null,
      )}
    </div>
  );
}

function ConnectionBadge(): React.JSX.Element {
  const connection = useSnapshot(snapshot => snapshot.connection);
  const version = useSnapshot(snapshot => snapshot.server?.serverVersion);
  const text =
    connection.state === 'open'
      ? 'Connected'
      : connection.state === 'reconnecting'
        ? `Reconnecting (attempt ${connection.attempt})…`
        : connection.state === 'connecting'
          ? 'Connecting…'
          : 'Disconnected';
  return (
    <div className="app__status">
      {version ? <span className="muted">v{version}</span> : null}
      <span
        className={`status-pill status-pill--${connection.state}`}
        role="status"
        aria-live="polite"
        data-testid="connection-status"
      >
        {text}
      </span>
    </div>
  );
}
