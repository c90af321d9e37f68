/**
 * Recorded sessions: the list (start, duration, clients, calls, errors, size), search across them
 * by tool, URL or error text, open one read-only in the Log panel, delete, and open a session file
 * from elsewhere (file picker, or drop it anywhere on the panel). Everything from a session is
 * client or page text, shown inert.
 */
import {useState} from 'react';
import type {SessionSearchHit, SessionSummary} from '../../../../shared/replies.js';
import {EmptyState} from '../../ui/EmptyState.js';
import {formatCount, formatDuration} from '../../ui/format.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {SessionActionsSlot} from './SessionActionsSlot.js';
import './sessionActionsRegistration.js';
import {type SessionsModel, useSessionsModel} from './useSessionsModel.js';
import './sessions.css';
import {DismissibleNotice} from '../../ui/DismissibleNotice.js';
import {OpenFileButton} from '../../ui/OpenFileButton.js';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? 'TB'}`;
}

function formatStart(time: number): string {
  return new Date(time).toLocaleString();
}

export function SessionsPanel(): React.JSX.Element {
  const model = useSessionsModel();
  const [dropping, setDropping] = useState(false);
  return (
    <div
      className={`sessions-panel${dropping ? ' sessions-panel--drop' : ''}`}
      data-testid="sessions-panel"
      onDragOver={event => {
        if (event.dataTransfer.types.includes('Files')) {
          event.preventDefault();
          setDropping(true);
        }
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={event => {
        event.preventDefault();
        setDropping(false);
        const file = event.dataTransfer.files[0];
        if (file) {
          model.openFile(file);
        }
      }}
    >
      <SessionsToolbar model={model} />
      <RetentionLine model={model} />
      <DismissibleNotice text={model.notice} onDismiss={model.dismissNotice} />
      {model.listError ? (
        <div className="notice" role="alert">
          {model.listError}
        </div>
      ) : null}
      {model.hits ? <SearchHits model={model} /> : null}
      <SessionsTable model={model} />
      <p className="muted sessions-panel__drop-hint">
        Drop a session file (.jsonl) anywhere here to open it read-only.
      </p>
    </div>
  );
}

function SessionsToolbar(props: {model: SessionsModel}): React.JSX.Element {
  const {model} = props;
  const [query, setQuery] = useState('');
  return (
    <div className="toolbar sessions-toolbar" role="toolbar" aria-label="Sessions actions">
      <form
        role="search"
        className="sessions-toolbar__search"
        onSubmit={event => {
          event.preventDefault();
          model.search(query);
        }}
      >
        <label className="field field--grow">
          <span className="field__label">Search sessions</span>
          <input
            type="search"
            placeholder="Tool, URL or error text…"
            value={query}
            maxLength={200}
            onChange={event => setQuery(event.target.value)}
          />
        </label>
        <button type="submit" disabled={!model.connected || model.searching}>
          {model.searching ? 'Searching…' : 'Search'}
        </button>
      </form>
      <span className="toolbar__spacer" />
      <button type="button" onClick={model.refresh} disabled={!model.connected || model.refreshing}>
        Refresh
      </button>
      <OpenFileButton testId="open-session-file" onFile={file => model.openFile(file)} />
    </div>
  );
}

function RetentionLine(props: {model: SessionsModel}): React.JSX.Element | null {
  const {list} = props.model;
  if (!list) {
    return null;
  }
  const {retention} = list;
  return (
    <p className="muted sessions-panel__retention" data-testid="sessions-retention">
      {list.recording
        ? 'This run is being recorded.'
        : 'Recording is off for this run (--no-record).'}{' '}
      Kept: the newest {formatCount(retention.maxSessions)} sessions, at most{' '}
      {formatBytes(retention.maxBytes)} in all, oldest removed first — now{' '}
      {formatCount(list.sessions.length)} ({formatBytes(retention.totalBytes)})
      {retention.removed > 0
        ? `; ${formatCount(retention.removed)} removed since the server started`
        : ''}
      .
    </p>
  );
}

const FIELD_LABELS: Record<SessionSearchHit['field'], string> = {
  tool: 'tool',
  url: 'URL',
  error: 'error',
};

function SearchHits(props: {model: SessionsModel}): React.JSX.Element | null {
  const {model} = props;
  const {hits} = model;
  if (!hits) {
    return null;
  }
  return (
    <section className="sessions-hits" aria-label="Search results" data-testid="sessions-hits">
      <h3>
        {hits.hits.length === 0
          ? `No call matches “${revealInvisible(hits.query)}”.`
          : `${formatCount(hits.hits.length)}${hits.truncated ? '+' : ''} calls match “${revealInvisible(hits.query)}”`}{' '}
        <button type="button" className="link-button" onClick={model.clearSearch}>
          Clear
        </button>
      </h3>
      <ul className="sessions-hits__list">
        {hits.hits.map(hit => (
          <li key={`${hit.sessionId}:${hit.callId}:${hit.field}`}>
            <button
              type="button"
              className="sessions-hits__open"
              onClick={() => model.open(hit.sessionId, hit.callId)}
              aria-label={`Open ${hit.tool} in the session of ${formatStart(hit.sessionStartedAt)}`}
            >
              <span className="mono">{revealInvisible(hit.tool)}</span>{' '}
              <span className="badge">{FIELD_LABELS[hit.field]}</span>{' '}
              <span className="mono sessions-hits__text">{revealInvisible(hit.text)}</span>{' '}
              <span className="muted">{formatStart(hit.sessionStartedAt)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SessionsTable(props: {model: SessionsModel}): React.JSX.Element {
  const {model} = props;
  const sessions = model.list?.sessions;
  if (!sessions) {
    return (
      <p className="muted sessions-panel__loading">
        {model.connected ? 'Loading…' : 'Not connected.'}
      </p>
    );
  }
  if (sessions.length === 0) {
    return (
      <EmptyState title="No recorded sessions">
        Sessions are recorded unless the server runs with --no-record. Open a file from elsewhere
        with “Open file…”.
      </EmptyState>
    );
  }
  return (
    <div className="sessions-table__scroll">
      <table className="sessions-table" data-testid="sessions-table">
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Duration</th>
            <th scope="col">Clients</th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num">
              Errors
            </th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map(session => (
            <SessionRow key={session.id} session={session} model={model} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SessionRow(props: {session: SessionSummary; model: SessionsModel}): React.JSX.Element {
  const {session, model} = props;
  const started = formatStart(session.startedAt);
  const confirming = model.confirmingDelete === session.id;
  return (
    <tr data-testid="session-row" data-session-id={session.id}>
      <td>
        {started}
        {session.current ? <span className="badge sessions-table__current">recording</span> : null}
      </td>
      <td className="mono">{formatDuration(session.durationMs)}</td>
      <td>
        {session.clients.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          revealInvisible(session.clients.join(', '))
        )}
      </td>
      <td className="num mono">{formatCount(session.calls)}</td>
      <td className={`num mono${session.errors > 0 ? ' sessions-table__errors' : ''}`}>
        {formatCount(session.errors)}
      </td>
      <td className="num mono">{formatBytes(session.bytes)}</td>
      <td className="sessions-table__actions">
        <button
          type="button"
          onClick={() => model.open(session.id)}
          disabled={model.opening !== undefined}
          aria-label={`Open the session of ${started}`}
        >
          {model.opening === session.id ? 'Opening…' : 'Open'}
        </button>
        {confirming ? (
          <>
            <button
              type="button"
              className="danger"
              onClick={() => model.remove(session.id)}
              aria-label={`Confirm: delete the session of ${started}`}
            >
              Delete for good
            </button>
            <button type="button" onClick={() => model.askDelete(undefined)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            onClick={() => model.askDelete(session.id)}
            disabled={session.current}
            title={session.current ? 'The session being recorded cannot be deleted.' : undefined}
            aria-label={`Delete the session of ${started}`}
          >
            Delete…
          </button>
        )}
        <SessionActionsSlot placement="session" session={{id: session.id, fileName: session.id}} />
      </td>
    </tr>
  );
}
