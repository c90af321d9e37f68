/**
 * The app frame: header (connection state), the tab strip from the panel registry, and the open
 * panel. Panels mount on first visit and stay mounted (hidden) so filters and scroll survive a
 * tab switch; most load their code on first visit (see panels.tsx).
 */
import {useState} from 'react';
import {APP_NAME} from '../../../shared/constants.js';
import {UnauthorizedScreen} from './UnauthorizedScreen.js';
import {PanelSlotsContext} from '../context/panelSlots.js';
import {PANEL_SLOT_FILLS, PANELS} from './panels.js';
import {Tabs} from './Tabs.js';
import type {PanelId} from '../ui/panelIds.js';
import {type FrameModel, useFrameModel} from './useFrameModel.js';
import {ClientStylesContext} from '../ui/ClientBadge.js';

export function App(): React.JSX.Element {
  const model = useFrameModel();
  if (model.connection.state === 'unauthorized') {
    return <UnauthorizedScreen message={model.connection.message} />;
  }
  return <Workspace model={model} />;
}

function Workspace(props: {model: FrameModel}): React.JSX.Element {
  const {model} = props;
  const {panel} = model;
  const [visited, setVisited] = useState<ReadonlySet<PanelId>>(() => new Set([panel]));
  if (!visited.has(panel)) {
    setVisited(new Set([...visited, panel]));
  }
  return (
    <PanelSlotsContext.Provider value={PANEL_SLOT_FILLS}>
      <ClientStylesContext.Provider value={model.clientStyles}>
        <div className="app">
          <header className="app__header">
            <h1 className="app__title">{APP_NAME}</h1>
            <ConnectionBadge model={model} />
          </header>
          <Tabs panels={PANELS} active={panel} onSelect={model.openPanel} />
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
      </ClientStylesContext.Provider>
    </PanelSlotsContext.Provider>
  );
}

function ConnectionBadge(props: {model: FrameModel}): React.JSX.Element {
  const {connection, connectionLabel, serverVersion} = props.model;
  return (
    <div className="app__status">
      {serverVersion ? <span className="muted">v{serverVersion}</span> : null}
      <span
        className={`status-pill status-pill--${connection.state}`}
        role="status"
        aria-live="polite"
        data-testid="connection-status"
      >
        {connectionLabel}
      </span>
    </div>
  );
}
