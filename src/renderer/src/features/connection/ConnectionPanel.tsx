/**
 * Connect an agent in one step: the MCP endpoint, the token (hidden until revealed), setup for
 * common clients, who is connected, and the browser's state.
 */
import {CopyButton} from '../../ui/CopyButton.js';
import {EmptyState} from '../../ui/EmptyState.js';
import {formatClock, formatDuration} from '../../ui/format.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {type ConnectionModel, useConnectionModel} from './useConnectionModel.js';
import './connection.css';

export function ConnectionPanel(): React.JSX.Element {
  const model = useConnectionModel();
  return (
    <div className="panel-body connection-panel">
      <h2>Endpoint</h2>
      <Endpoint model={model} />
      <h2>Set up your client</h2>
      {model.setups.length === 0 ? (
        <p className="muted">Waiting for the server to report its MCP URL…</p>
      ) : (
        model.setups.map(setup => (
          <section key={setup.id} className="card setup" aria-labelledby={`setup-${setup.id}`}>
            <header className="setup__header">
              <h3 id={`setup-${setup.id}`}>{setup.client}</h3>
              <span className="muted">{setup.where}</span>
              <span className="toolbar__spacer" />
              <CopyButton
                label="Copy"
                ariaLabel={`Copy ${setup.client} setup`}
                text={() => model.setupText(setup.id)}
              />
            </header>
            <pre className="code-block" tabIndex={0} aria-label={`${setup.client} setup`}>
              {setup.text}
            </pre>
          </section>
        ))
      )}
      <h2>Connected clients</h2>
      <Clients model={model} />
      <ExpiredClientSessions model={model} />
      <h2>Browser</h2>
      <Browser model={model} />
    </div>
  );
}

function Endpoint(props: {model: ConnectionModel}): React.JSX.Element {
  const {model} = props;
  return (
    <dl className="endpoint">
      <dt>MCP URL</dt>
      <dd>
        <code data-testid="mcp-url">{model.mcpUrl ?? '…'}</code>
        {model.mcpUrl ? (
          <CopyButton label="Copy" ariaLabel="Copy MCP URL" text={model.mcpUrl} />
        ) : null}
      </dd>
      <dt>Token</dt>
      <dd>
        <code data-testid="token">
          {model.revealed && model.token ? model.token : '••••••••••••••••'}
        </code>
        {model.revealed ? (
          <button type="button" onClick={model.hide}>
            Hide token
          </button>
        ) : (
          <button type="button" onClick={model.reveal}>
            Reveal token
          </button>
        )}
        <CopyButton label="Copy" ariaLabel="Copy token" text={model.fetchToken} />
        {model.tokenError ? <span className="status--error">{model.tokenError}</span> : null}
      </dd>
      <dt>Header</dt>
      <dd>
        <code>Authorization: Bearer &lt;token&gt;</code>
      </dd>
    </dl>
  );
}

/** Client sessions the server closed itself, so a vanished client is explained. */
function ExpiredClientSessions(props: {model: ConnectionModel}): React.JSX.Element | null {
  const {expiredClientSessions} = props.model;
  if (expiredClientSessions.length === 0) {
    return null;
  }
  return (
    <section className="expired-client-sessions" aria-label="Client sessions closed by the server">
      <h3>Client sessions closed by the server</h3>
      <ul>
        {[...expiredClientSessions].reverse().map(expired => (
          <li key={`${expired.client.id}-${expired.at}`} data-client-id={expired.client.id}>
            <span className="mono">{formatClock(expired.at)}</span>{' '}
            {revealInvisible(expired.client.name)}
            {expired.client.version ? ` ${revealInvisible(expired.client.version)}` : ''}:{' '}
            {expired.reason === 'idle'
              ? `idle for ${formatDuration(expired.idleMs)}`
              : `closed to make room (client session limit), idle for ${formatDuration(expired.idleMs)}`}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Clients(props: {model: ConnectionModel}): React.JSX.Element {
  const {clients} = props.model;
  if (clients.length === 0) {
    return (
      <EmptyState title="No client connected">
        Add the setup above to your MCP client and start it; it shows up here when it connects.
      </EmptyState>
    );
  }
  return (
    <table className="clients">
      <thead>
        <tr>
          <th scope="col">Client</th>
          <th scope="col">Version</th>
          <th scope="col">Transport</th>
          <th scope="col">Calls</th>
          <th scope="col">Connected at</th>
        </tr>
      </thead>
      <tbody>
        {clients.map(client => (
          <tr key={client.id} data-client-id={client.id}>
            <td>{revealInvisible(client.name)}</td>
            <td className="mono">{revealInvisible(client.version)}</td>
            <td>{client.transport}</td>
            <td className="mono">{client.calls}</td>
            <td className="mono">{formatClock(client.connectedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Browser(props: {model: ConnectionModel}): React.JSX.Element {
  const {browser} = props.model;
  if (!browser) {
    return <p className="muted">Waiting for the server…</p>;
  }
  const state =
    browser.state === 'idle'
      ? 'Not started yet (it starts with the first tool call)'
      : browser.state === 'running'
        ? browser.mode === 'launch'
          ? 'Launched'
          : 'Connected'
        : browser.state;
  return (
    <dl className="endpoint" data-testid="browser-status">
      <dt>State</dt>
      <dd>{state}</dd>
      <dt>Mode</dt>
      <dd>
        {browser.mode === 'launch' ? 'Launches its own browser' : 'Connects to a running browser'}
        {browser.headless === undefined ? '' : browser.headless ? ' (headless)' : ' (headed)'}
      </dd>
      {browser.version ? (
        <>
          <dt>Version</dt>
          <dd className="mono">{revealInvisible(browser.version)}</dd>
        </>
      ) : null}
      {browser.note ? (
        <>
          <dt>Note</dt>
          <dd>{browser.note}</dd>
        </>
      ) : null}
      {browser.error ? (
        <>
          <dt>Error</dt>
          <dd className="status--error">{browser.error}</dd>
        </>
      ) : null}
      <dt>WebMCP</dt>
      <dd>
        {browser.webmcp === undefined
          ? 'Unknown until the browser runs'
          : browser.webmcp.available
            ? 'Available'
            : `Not available${browser.webmcp.reason ? `: ${browser.webmcp.reason}` : ''}`}
      </dd>
    </dl>
  );
}
