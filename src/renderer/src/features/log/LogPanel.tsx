/** The live call log: filters, the virtualized grid, and the detail pane of the selected call. */
import {CALL_STATUSES} from '../../store/LogQuery.js';
import {EmptyState} from '../../ui/EmptyState.js';
import {formatCount, formatDateTime} from '../../ui/format.js';
import {CallDetail} from './CallDetail.js';
import {LogTable} from './LogTable.js';
import {type LogModel, useLogModel} from './useLogModel.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import './log.css';
import {DismissibleNotice} from '../../ui/DismissibleNotice.js';
import {OpenFileButton} from '../../ui/OpenFileButton.js';

export function LogPanel(): React.JSX.Element {
  const model = useLogModel();
  return (
    <div className="log-panel">
      <LogToolbar model={model} />
      {model.offline ? (
        <div className="notice log-panel__offline" role="status">
          Viewing <strong>{model.offline.fileName}</strong>{' '}
          {model.offline.recorded ? 'read-only' : 'offline'}
          {model.offline.exportedAt
            ? ` (exported ${formatDateTime(model.offline.exportedAt)})`
            : ''}{' '}
          — {formatCount(model.total)} calls
          {model.offline.loading ? ', still reading…' : '.'}{' '}
          <button type="button" onClick={model.closeOffline}>
            Back to the live log
          </button>
        </div>
      ) : null}
      <DismissibleNotice text={model.notice} onDismiss={model.dismissNotice} />
      <div className={`log-panel__body${model.selected ? '' : ' log-panel__body--no-call'}`}>
        <div className="log-panel__list">
          {model.total === 0 ? (
            <LogEmpty model={model} />
          ) : model.rows.length === 0 ? (
            <EmptyState title="No call matches these filters">
              <button type="button" onClick={model.resetFilter}>
                Clear the filters
              </button>
            </EmptyState>
          ) : (
            <LogTable
              // Another log (a recording opened, or back to the live one) starts afresh: at its
              // newest call, following.
              key={model.offline ? `recording:${model.offline.fileName}` : 'live'}
              rows={model.rows}
              rowAt={model.rowAt}
              selectedOrdinal={model.selected?.ordinal}
              onSelect={record => model.select(record.callId)}
              onMove={model.moveSelection}
              version={model.version}
            />
          )}
        </div>
        <CallDetail
          record={model.selected}
          canRunAgain={model.canRunAgain}
          onRunAgain={model.runAgain}
          recordedCall={model.recordedCall}
          loadImage={model.offline?.loadImage}
        />
      </div>
    </div>
  );
}

function LogEmpty(props: {model: LogModel}): React.JSX.Element {
  const {model} = props;
  if (model.offline) {
    return <EmptyState title="This recording has no calls">Open another file.</EmptyState>;
  }
  return (
    <EmptyState title="No tool calls yet">
      Connect an MCP client with the setup in{' '}
      <button type="button" className="link-button" onClick={() => model.openPanel('connection')}>
        Connection
      </button>{' '}
      and ask it to use the browser, or{' '}
      <button type="button" className="link-button" onClick={() => model.openPanel('run')}>
        run a tool by hand
      </button>
      . Calls show up here as they happen.
    </EmptyState>
  );
}

function LogToolbar(props: {model: LogModel}): React.JSX.Element {
  const {model} = props;
  return (
    <div className="toolbar log-toolbar" role="toolbar" aria-label="Log filters and actions">
      <LogFilters model={model} />
      <span className="log-toolbar__counts muted" role="status" aria-live="off">
        {model.filtered
          ? `${formatCount(model.rows.length)} of ${formatCount(model.total)}`
          : `${formatCount(model.total)} ${model.total === 1 ? 'call' : 'calls'}`}
        {model.serverDropped > 0 ? ` · ${formatCount(model.serverDropped)} events dropped` : ''}
        {model.uiDropped > 0 ? ` · ${formatCount(model.uiDropped)} old calls trimmed` : ''}
        {model.serverOmitted > 0 ? ` · ${formatCount(model.serverOmitted)} events left out` : ''}
      </span>
      <span className="toolbar__spacer" />
      <LogFileActions model={model} />
    </div>
  );
}

function LogFilters(props: {model: LogModel}): React.JSX.Element {
  const {model} = props;
  const {filter} = model;
  return (
    <>
      <label className="field">
        <span className="field__label">Tool</span>
        <select value={filter.tool} onChange={event => model.setFilter({tool: event.target.value})}>
          <option value="">All tools</option>
          {model.toolNames.map(name => (
            <option key={name} value={name}>
              {revealInvisible(name)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">Status</span>
        <select
          value={filter.status}
          onChange={event => {
            const status = CALL_STATUSES.find(value => value === event.target.value) ?? '';
            model.setFilter({status});
          }}
        >
          <option value="">All statuses</option>
          {CALL_STATUSES.map(status => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">Client</span>
        <select
          value={filter.clientId}
          onChange={event => model.setFilter({clientId: event.target.value})}
        >
          <option value="">All clients</option>
          {model.clients.map(client => (
            <option key={client.id} value={client.id}>
              {revealInvisible(client.label)}
            </option>
          ))}
        </select>
      </label>
      <label className="field field--grow">
        <span className="field__label">Search</span>
        <input
          type="search"
          placeholder="Calls, elements, arguments, results…"
          value={filter.text}
          onChange={event => model.setFilter({text: event.target.value})}
        />
      </label>
    </>
  );
}

function LogFileActions(props: {model: LogModel}): React.JSX.Element {
  const {model} = props;
  return (
    <>
      <button type="button" onClick={model.clear} disabled={model.total === 0 && !model.offline}>
        {model.offline ? 'Close file' : 'Clear'}
      </button>
      <button type="button" onClick={model.exportRecording} disabled={model.total === 0}>
        Export…
      </button>
      <OpenFileButton testId="import-recording" onFile={file => void model.importFile(file)} />
    </>
  );
}
