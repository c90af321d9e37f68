/**
 * Telemetry preview: every usage record as it would be sent (already sanitized), what each field
 * means, and the plain fact that nothing is sent.
 */
import {EmptyState} from '../../ui/EmptyState.js';
import {formatClock, formatCount} from '../../ui/format.js';
import {formatJson} from '../../ui/JsonView.js';
import {useTelemetryModel} from './useTelemetryModel.js';
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
      {model.records.length === 0 ? (
        <EmptyState title="No records yet">
          Each finished tool call produces one record. Run a tool (from your agent or the Run panel)
          and it shows up here.
        </EmptyState>
      ) : (
        <>
          <p className="muted" role="status">
            {formatCount(model.total)} {model.total === 1 ? 'record' : 'records'}
            {model.total > model.shownAtMost ? `; the newest ${model.shownAtMost} are shown` : ''}.
          </p>
          <ol className="telemetry-list" aria-label="Telemetry records, newest first">
            {model.records.map(entry => (
              <li key={entry.seq} className="telemetry-record">
                <div className="telemetry-record__meta muted">
                  <span className="mono">{formatClock(entry.time)}</span>{' '}
                  <span className="mono">{entry.record.tool_invocation.tool_name}</span>
                </div>
                {entry.note === undefined ? null : (
                  <p className="telemetry-record__note" data-testid="telemetry-success-note">
                    {entry.note}
                  </p>
                )}
                <pre className="code-block" tabIndex={0} aria-label="Telemetry record">
                  {formatJson(entry.record)}
                </pre>
              </li>
            ))}
          </ol>
        </>
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
