/**
 * Servers: every MCP Browser Inspector running for you on this machine — the desktop app,
 * headless servers, and the ones agents started over stdio (whose inspector is on a free port
 * when 7624 is taken, printed only on the agent's hidden stderr) — with their clients, and a link
 * that opens each one's inspector. The same list as `mcp-browser-inspector list`.
 */
import {EmptyState} from '../../ui/EmptyState.js';
import {formatDateTime} from '../../ui/format.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {serverRows, serversSummary, type ServerRow} from './serversModel.js';
import {useServersModel} from './useServersModel.js';
import './servers.css';

export function ServersPanel(): React.JSX.Element {
  const model = useServersModel();
  const rows = model.servers ? serverRows(model.servers) : undefined;
  return (
    <div className="servers-panel" data-testid="servers-panel">
      <div className="toolbar" role="toolbar" aria-label="Servers actions">
        <span className="servers-panel__summary">
          {rows ? serversSummary(rows.length) : 'Looking for running servers…'}
        </span>
        <span className="toolbar__spacer" />
        <button type="button" onClick={model.refresh} disabled={!model.connected}>
          Refresh
        </button>
      </div>
      {model.error ? (
        <div className="notice" role="alert">
          {model.error}
        </div>
      ) : null}
      {rows && rows.length > 0 ? <ServersTable rows={rows} /> : null}
      {rows?.length === 0 ? (
        <EmptyState title="No other server is running">
          Start one with mcp-browser-inspector, or let an agent start it over stdio.
        </EmptyState>
      ) : null}
    </div>
  );
}

function ServersTable(props: {rows: ServerRow[]}): React.JSX.Element {
  return (
    <div className="data-table__scroll">
      <table className="data-table servers-table" data-testid="servers-table">
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Started</th>
            <th scope="col">Clients</th>
            <th scope="col">Inspector</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map(row => (
            <tr key={row.pid} data-pid={row.pid} className={row.self ? 'servers-table__self' : ''}>
              <td>
                <div className="servers-table__title">{row.title}</div>
                <div className="muted servers-table__detail">
                  {row.self ? `${row.kind} · ` : ''}PID {row.pid} · {revealInvisible(row.cwd)}
                </div>
              </td>
              <td className="servers-table__started">{formatDateTime(row.startedAt)}</td>
              <td className="servers-table__clients">{revealInvisible(row.clients)}</td>
              <td>
                <div className="servers-table__url">{row.inspectorUrl}</div>
                {row.self ? (
                  <span className="muted">open here</span>
                ) : (
                  <a
                    className="button servers-table__open"
                    href={row.openUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`Open the inspector of PID ${row.pid}`}
                  >
                    Open
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
