/**
 * Recordings: the list (start, duration, clients, calls, errors, size; a replay's own recording
 * under the recording it replayed), search across them by tool, URL or error text, open one
 * read-only in the Log panel, delete, and open a recording from elsewhere (file picker, or drop it
 * anywhere on the panel). Everything from a recording is client or page text, shown inert.
 */
import {useState} from 'react';
import type {RecordingSearchHit} from '../../../../shared/replies.js';
import {EmptyState} from '../../ui/EmptyState.js';
import {formatCount, formatDateTime, formatDuration} from '../../ui/format.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {RecordingActions} from './RecordingActions.js';
import {recordingRows, recordingState, type RecordingRowModel} from './recordingsModel.js';
import {type RecordingsModel, useRecordingsModel} from './useRecordingsModel.js';
import './recordings.css';
import {DismissibleNotice} from '../../ui/DismissibleNotice.js';
import {OpenFileButton} from '../../ui/OpenFileButton.js';
import {skippedLinesNotes, UnreadRecordings} from './UnreadRecordings.js';

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

const DAY_MS = 24 * 60 * 60 * 1000;

/** The age limit in days (or hours below a day). */
function formatRetentionAge(ms: number): string {
  if (ms >= DAY_MS) {
    const days = Math.round(ms / DAY_MS);
    return `${formatCount(days)} day${days === 1 ? '' : 's'}`;
  }
  const hours = Math.max(1, Math.round(ms / (60 * 60 * 1000)));
  return `${formatCount(hours)} hour${hours === 1 ? '' : 's'}`;
}

function starredCount(recordings: readonly {starred: boolean}[]): number {
  return recordings.filter(recording => recording.starred).length;
}

function formatStart(time: number): string {
  return formatDateTime(time);
}

export function RecordingsPanel(): React.JSX.Element {
  const model = useRecordingsModel();
  const [dropping, setDropping] = useState(false);
  return (
    <div
      className={`recordings-panel${dropping ? ' recordings-panel--drop' : ''}`}
      data-testid="recordings-panel"
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
      <RecordingsToolbar model={model} />
      <RetentionLine model={model} />
      <UnreadRecordings
        label="Not listed"
        unread={model.list?.notListed}
        testId="recordings-not-listed"
      />
      <UnreadRecordings
        label="Partly read"
        unread={skippedLinesNotes(model.list?.recordings ?? [])}
        testId="recordings-partly-read"
      />
      <DismissibleNotice text={model.notice} onDismiss={model.dismissNotice} />
      {model.listError ? (
        <div className="notice" role="alert">
          {model.listError}
        </div>
      ) : null}
      {model.hits ? <SearchHits model={model} /> : null}
      <RecordingsTable model={model} />
      <p className="muted recordings-panel__drop-hint">
        Drop a recording (.jsonl) anywhere here to open it read-only.
      </p>
    </div>
  );
}

function RecordingsToolbar(props: {model: RecordingsModel}): React.JSX.Element {
  const {model} = props;
  const [query, setQuery] = useState('');
  return (
    <div className="toolbar recordings-toolbar" role="toolbar" aria-label="Recordings actions">
      <form
        role="search"
        className="recordings-toolbar__search"
        onSubmit={event => {
          event.preventDefault();
          model.search(query);
        }}
      >
        <label className="field field--grow">
          <span className="field__label">Search recordings</span>
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
      <OpenFileButton testId="open-recording-file" onFile={file => model.openFile(file)} />
    </div>
  );
}

function RetentionLine(props: {model: RecordingsModel}): React.JSX.Element | null {
  const {list} = props.model;
  if (!list) {
    return null;
  }
  const {retention} = list;
  return (
    <p className="muted recordings-panel__retention" data-testid="recordings-retention">
      {recordingState(list)} Kept: {formatRetentionAge(retention.maxAgeMs)} since the last write, at
      most {formatBytes(retention.maxBytes)} and {formatCount(retention.maxRecordings)} recordings
      in all (oldest removed first); a starred one (★) always — now{' '}
      {formatCount(list.recordings.length)} ({formatBytes(retention.totalBytes)}
      {starredCount(list.recordings) > 0
        ? `, ${formatCount(starredCount(list.recordings))} starred`
        : ''}
      )
      {retention.removed > 0
        ? `; ${formatCount(retention.removed)} removed since the server started`
        : ''}
      .
    </p>
  );
}

const FIELD_LABELS: Record<RecordingSearchHit['field'], string> = {
  tool: 'tool',
  url: 'URL',
  error: 'error',
};

function SearchHits(props: {model: RecordingsModel}): React.JSX.Element | null {
  const {model} = props;
  const {hits} = model;
  if (!hits) {
    return null;
  }
  return (
    <section className="recordings-hits" aria-label="Search results" data-testid="recordings-hits">
      <h3>
        {hits.hits.length === 0
          ? `No call matches “${revealInvisible(hits.query)}”.`
          : `${formatCount(hits.hits.length)}${hits.truncated ? '+' : ''} calls match “${revealInvisible(hits.query)}”`}{' '}
        <button type="button" className="link-button" onClick={model.clearSearch}>
          Clear
        </button>
      </h3>
      <UnreadRecordings
        label="Not searched"
        unread={hits.notSearched}
        testId="recordings-not-searched"
      />
      <ul className="recordings-hits__list">
        {hits.hits.map(hit => (
          <li key={`${hit.recordingId}:${hit.callId}:${hit.field}`}>
            <button
              type="button"
              className="recordings-hits__open"
              onClick={() => model.open(hit.recordingId, hit.callId)}
              aria-label={`Open ${hit.tool} in the recording of ${formatStart(hit.recordingStartedAt)}`}
            >
              <span className="mono">{revealInvisible(hit.tool)}</span>{' '}
              <span className="badge">{FIELD_LABELS[hit.field]}</span>{' '}
              <span className="mono recordings-hits__text">{revealInvisible(hit.text)}</span>{' '}
              <span className="muted">{formatStart(hit.recordingStartedAt)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RecordingsTable(props: {model: RecordingsModel}): React.JSX.Element {
  const {model} = props;
  const recordings = model.list?.recordings;
  if (!recordings) {
    return (
      <p className="muted recordings-panel__loading">
        {model.connected ? 'Loading…' : 'Not connected.'}
      </p>
    );
  }
  if (recordings.length === 0) {
    return (
      <EmptyState title="No recordings">
        Every run is recorded from its first tool call unless the server runs with --no-record. Open
        a file from elsewhere with “Open file…”.
      </EmptyState>
    );
  }
  return (
    <div className="data-table__scroll">
      <table className="data-table recordings-table" data-testid="recordings-table">
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
          {recordingRows(recordings).map(row => (
            <RecordingRow key={row.recording.id} row={row} model={model} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StartedCell(props: {row: RecordingRowModel; started: string}): React.JSX.Element {
  const {row, started} = props;
  return (
    <td className={`mono${row.nested ? ' recordings-table__replay' : ''}`}>
      <span className="recordings-table__nowrap">
        {row.nested ? (
          <span className="recordings-table__replay-mark" aria-hidden="true">
            ↳{' '}
          </span>
        ) : null}
        {started}
      </span>
      {row.replayOf === undefined ? null : (
        <span
          className="badge recordings-table__badge"
          title={`A replay of ${revealInvisible(row.replayOf)}`}
        >
          replay
        </span>
      )}
      {row.recording.current ? (
        <span className="badge recordings-table__badge">recording</span>
      ) : null}
    </td>
  );
}

function StarButton(props: {
  recording: {id: string; starred: boolean};
  started: string;
  model: RecordingsModel;
}): React.JSX.Element {
  const {recording, started, model} = props;
  return (
    <button
      type="button"
      className={`recordings-table__star${recording.starred ? ' recordings-table__star--on' : ''}`}
      aria-pressed={recording.starred}
      aria-label={`Star the recording of ${started} (kept from retention)`}
      title={
        recording.starred
          ? 'Starred: never removed by retention. Click to take the star off.'
          : 'Star it to keep it past the retention limits.'
      }
      disabled={!model.connected}
      onClick={() => model.star(recording.id, !recording.starred)}
    >
      {recording.starred ? '★' : '☆'}
    </button>
  );
}

function RecordingRow(props: {row: RecordingRowModel; model: RecordingsModel}): React.JSX.Element {
  const {row, model} = props;
  const {recording} = row;
  const started = formatStart(recording.startedAt);
  const confirming = model.confirmingDelete === recording.id;
  return (
    <tr
      data-testid="recording-row"
      data-recording-id={recording.id}
      {...(row.replayOf === undefined ? {} : {'data-replay-of': row.replayOf})}
    >
      <StartedCell row={row} started={started} />
      <td className="mono recordings-table__nowrap">{formatDuration(recording.durationMs)}</td>
      <td>
        {recording.clients.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          revealInvisible(recording.clients.join(', '))
        )}
      </td>
      <td className="num mono">{formatCount(recording.calls)}</td>
      <td className={`num mono${recording.errors > 0 ? ' recordings-table__errors' : ''}`}>
        {formatCount(recording.errors)}
      </td>
      <td className="num mono recordings-table__nowrap">{formatBytes(recording.bytes)}</td>
      <td className="recordings-table__actions">
        <div className="recordings-table__action-list">
          <StarButton recording={recording} started={started} model={model} />
          <button
            type="button"
            onClick={() => model.open(recording.id)}
            disabled={model.opening !== undefined}
            aria-label={`Open the recording of ${started}`}
          >
            {model.opening === recording.id ? 'Opening…' : 'Open'}
          </button>
          {confirming ? (
            <>
              <button
                type="button"
                className="danger"
                onClick={() => model.remove(recording.id)}
                aria-label={`Confirm: delete the recording of ${started}`}
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
              onClick={() => model.askDelete(recording.id)}
              disabled={recording.current}
              title={
                recording.current ? 'The recording being written cannot be deleted.' : undefined
              }
              aria-label={`Delete the recording of ${started}`}
            >
              Delete…
            </button>
          )}
          <span className="recording-actions" data-testid="recording-actions-recording">
            <RecordingActions recordingId={recording.id} compact live={recording.current} />
          </span>
        </div>
      </td>
    </tr>
  );
}
