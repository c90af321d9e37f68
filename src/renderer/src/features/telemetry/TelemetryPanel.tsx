/**
 * Telemetry preview: every usage record as it would be sent (already sanitized), as a table in the
 * Log's order and clock — tool, success, latency bucket, parameters as sent, client family — each
 * row linked to its call in the Log; the fields every record repeats with what their codes mean;
 * what each field means; and the plain fact that nothing is sent.
 */
import {EmptyState} from '../../ui/EmptyState.js';
import {formatClock, formatCount} from '../../ui/format.js';
import {formatJson} from '../../ui/JsonTree.js';
import type {TelemetryRow} from './telemetryModel.js';
import {type TelemetryModel, useTelemetryModel} from './useTelemetryModel.js';
import './telemetry.css';

export function TelemetryPanel(): React.JSX.Element {
  const model = useTelemetryModel();
  return (
    <div className="panel-body telemetry-panel">
      <div className="notice telemetry-panel__statement" role="note">
        <strong>Nothing is sent.</strong> This app never sends usage data anywhere. Below is each
        record chrome-devtools-mcp&apos;s usage telemetry would produce for a call, already
        sanitized, exactly as it would go out — so you can see what it contains.{' '}
        {model.telemetryLogPath ? (
          <>
            The records are also appended to <code>{model.telemetryLogPath}</code> (
            <code>--telemetryLog</code>).
          </>
        ) : (
          <>
            To keep them in a local file, start the server with <code>--telemetryLog PATH</code>{' '}
            (one JSON record per line).
          </>
        )}
      </div>

      <h2>Records</h2>
      {model.rows.length === 0 ? (
        <EmptyState title="No records yet">
          Each finished tool call produces one record. Run a tool (from your agent or the Run panel)
          and it shows up here.
        </EmptyState>
      ) : (
        <Records model={model} />
      )}

      <h2>What each field means</h2>
      <dl className="field-help">
        {model.fieldHelp.map(item => (
          <div key={item.field} className="field-help__item">
            <dt className="mono">{item.field}</dt>
            <dd>{item.help}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Records(props: {model: TelemetryModel}): React.JSX.Element {
  const {model} = props;
  return (
    <>
      <p className="muted" role="status">
        {formatCount(model.total)} {model.total === 1 ? 'record' : 'records'}
        {model.total > model.shownAtMost ? `; the newest ${model.shownAtMost} are shown` : ''}, in
        the Log&apos;s order (each at the time its call started).
      </p>
      <dl className="telemetry-common" aria-label="In every record of this run">
        {model.common.map(item => (
          <div key={item.field}>
            <dt className="mono">{item.field}</dt>
            <dd className="mono">{item.value}</dd>
          </div>
        ))}
      </dl>
      <div className="telemetry-table__scroll">
        <table className="telemetry-table" aria-label="Telemetry records, oldest first">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Tool</th>
              <th scope="col">Success</th>
              <th scope="col">Latency</th>
              <th scope="col">Parameters as sent</th>
              <th scope="col">Client (mcp_client)</th>
              <th scope="col">Record</th>
            </tr>
          </thead>
          <tbody>
            {model.rows.map(row => (
              <Row key={row.seq} row={row} model={model} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Row(props: {row: TelemetryRow; model: TelemetryModel}): React.JSX.Element {
  const {row, model} = props;
  const {callId} = row;
  return (
    <>
      <tr data-call-id={callId} data-testid="telemetry-row">
        <td className="mono telemetry-table__nowrap">
          {callId !== undefined && row.inLog ? (
            <button
              type="button"
              className="link-button mono"
              onClick={() => model.showInLog(callId)}
              aria-label={`Show the ${row.tool} call of ${formatClock(row.time)} in the Log`}
            >
              {formatClock(row.time)}
            </button>
          ) : (
            formatClock(row.time)
          )}
        </td>
        <td className="mono telemetry-table__nowrap">{row.tool}</td>
        <td className="mono">{String(row.success)}</td>
        <td className="mono telemetry-table__nowrap">{row.latency}</td>
        <td className="mono">
          {row.params.length === 0 ? <span className="muted">none</span> : row.params.join(', ')}
        </td>
        <td className="mono">{row.client}</td>
        <td>
          <details className="telemetry-record">
            <summary>JSON</summary>
            <pre className="code-block" tabIndex={0} aria-label={`Telemetry record of ${row.tool}`}>
              {formatJson(row.record)}
            </pre>
          </details>
        </td>
      </tr>
      {row.note === undefined ? null : (
        // Its own line under the row, so the Success column stays as narrow as its value.
        <tr className="telemetry-table__note-row">
          <td />
          <td colSpan={6}>
            <p className="telemetry-record__note" data-testid="telemetry-success-note">
              {row.note}
            </p>
          </td>
        </tr>
      )}
    </>
  );
}
