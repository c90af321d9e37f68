/**
 * Who is connected (and who is not, with why) first, then client isolation; then how to connect
 * one in one step — the MCP endpoint, the token (hidden until revealed), setup for common
 * clients — in a section open while no client is connected; and the browser's state.
 */
import {CopyButton} from '../../ui/CopyButton.js';
import {EmptyState} from '../../ui/EmptyState.js';
import {ClientBadge} from '../../ui/ClientBadge.js';
import {formatClock} from '../../ui/format.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {type ConnectionModel, useConnectionModel} from './useConnectionModel.js';
import './connection.css';

export function ConnectionPanel(): React.JSX.Element {
  const model = useConnectionModel();
  return (
    <div className="panel-body connection-panel">
      <h2>
        Connected clients <span className="muted">({model.clients.live.length})</span>
      </h2>
      <Clients model={model} />
      <NotConnected model={model} />
      <Isolation model={model} />
      <Setup model={model} />
      <h2>Browser</h2>
      <Browser model={model} />
    </div>
  );
}

/** How to connect a client: the endpoint, the token and a snippet per client, collapsible. */
function Setup(props: {model: ConnectionModel}): React.JSX.Element {
  const {model} = props;
  return (
    <details
      className="connection-setup"
      open={model.setupsOpen}
      onToggle={event => model.toggleSetups(event.currentTarget.open)}
      data-testid="connection-setup"
    >
      <summary>
        <h2>Connect a client</h2>
        <span className="muted">
          MCP URL, token and setup for Claude Code, Cursor, VS Code, Gemini CLI and others
        </span>
      </summary>
      <h3>Endpoint</h3>
      <Endpoint model={model} />
      <h3>Set up your client</h3>
      {model.setups.length === 0 ? (
        <p className="muted">Waiting for the server to report its MCP URL…</p>
      ) : (
        model.setups.map(setup => (
          <section key={setup.id} className="card setup" aria-labelledby={`setup-${setup.id}`}>
            <header className="setup__header">
              <h4 id={`setup-${setup.id}`}>{setup.client}</h4>
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
    </details>
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

/** Several agents on one browser: new client sessions get a browser context of their own. */
function Isolation(props: {model: ConnectionModel}): React.JSX.Element {
  const {model} = props;
  return (
    <div className="isolation">
      <label className="isolation__switch">
        <input
          type="checkbox"
          checked={model.isolateClients}
          onChange={event => model.setIsolateClients(event.currentTarget.checked)}
        />
        Isolate clients <span className="muted mono">--isolateClients</span>
      </label>
      <p className="muted isolation__hint">
        Each client session that starts from now on gets its own browser context (cookies, storage,
        cache) and sees only its own pages; it closes with the session. Sessions open now keep what
        they have.
      </p>
      {model.isolateError ? <p className="status--error">{model.isolateError}</p> : null}
    </div>
  );
}

function Clients(props: {model: ConnectionModel}): React.JSX.Element {
  const {live} = props.model.clients;
  if (live.length === 0) {
    return (
      <EmptyState title="No client connected">
        Add the setup below (Connect a client) to your MCP client and start it; it shows up here
        while it is connected.
      </EmptyState>
    );
  }
  return (
    <table className="clients" aria-label="Connected clients">
      <thead>
        <tr>
          <th scope="col">Client</th>
          <th scope="col">Version</th>
          <th scope="col">Transport</th>
          <th scope="col">Calls</th>
          <th scope="col">Connected at</th>
          <th scope="col">Last activity</th>
        </tr>
      </thead>
      <tbody>
        {live.map(client => (
          <tr key={client.id} data-client-id={client.id}>
            <td>
              <ClientBadge client={client} note={client.isolated ? 'own context' : undefined} />
            </td>
            <td className="mono">{revealInvisible(client.version)}</td>
            <td>{client.transport}</td>
            <td className="mono">{client.calls}</td>
            <td className="mono">{formatClock(client.connectedAt)}</td>
            <td className="mono">
              {client.lastActivityAt === undefined ? '—' : formatClock(client.lastActivityAt)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Clients that are not connected: quiet ones (session still open) and ended ones, with why. */
function NotConnected(props: {model: ConnectionModel}): React.JSX.Element | null {
  const rows = props.model.clients.notConnected;
  if (rows.length === 0) {
    return null;
  }
  return (
    <section className="not-connected" aria-labelledby="not-connected-heading">
      <h3 id="not-connected-heading">
        Not connected <span className="muted">({rows.length}, newest first)</span>
      </h3>
      <ul className="not-connected__list">
        {rows.map(row => (
          <li
            key={`${row.client.id}-${row.open ? 'open' : 'ended'}`}
            data-client-id={row.client.id}
            data-ended={!row.open}
          >
            <span className="mono">{row.at === undefined ? '—' : formatClock(row.at)}</span>
            <ClientBadge client={row.client} />
            <span className="muted">
              {row.client.version ? `${revealInvisible(row.client.version)} · ` : ''}
              {row.client.calls} call{row.client.calls === 1 ? '' : 's'} · {row.why}
            </span>
          </li>
        ))}
      </ul>
    </section>
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
      <dd data-testid="webmcp-line">{props.model.webmcp}</dd>
    </dl>
  );
}
