/**
 * A recording's actions: "Replay" (every call, into the live browser), "Replay up to here"
 * (when given a call's index), and "Export as test" with a preview of the Playwright file to copy
 * or save. The per-call outcome of a replay streams in as it runs. Rendered by the Recordings panel
 * and a call's detail pane; everything recorded (tool names, reasons, diffs, the test text) is
 * shown as text, never as HTML.
 */
import type {PanelSlotProps} from '../../context/panelSlots.js';
import {CopyButton} from '../../ui/CopyButton.js';
import type {ReplayCallReport} from '../../../../shared/protocol.js';
import {isReplaying, replayHeadline, type PreviewState} from './recordingActionsModel.js';
import {useRecordingActions, type RecordingActionsModel} from './useRecordingActions.js';
import './recordings.css';

export interface RecordingActionsProps {
  recordingId: string;
  /** 1-based index of the call the user is looking at: offers "Replay up to here". */
  callIndex?: number;
  /** In a list row: the buttons alone, the explanation as their tooltip. */
  compact?: boolean;
  /**
   * The recording still being written (this server's own): replaying it is not what one opens it
   * for, so Replay is an ordinary button that says it replays the calls so far.
   */
  live?: boolean;
}

export function RecordingActions(props: RecordingActionsProps): React.JSX.Element {
  const model = useRecordingActions(props.recordingId);
  return <RecordingActionsView {...props} model={model} />;
}

/**
 * What this panel puts in the Log's call detail for a call of a recording on the server (the
 * recordedCall slot, wired in the panel registry): replay up to that call, export.
 */
export function RecordedCallActions(props: PanelSlotProps['recordedCall']): React.JSX.Element {
  return <RecordingActions recordingId={props.recordingId} callIndex={props.call.ordinal + 1} />;
}

const REPLAY_HINT =
  'Replay runs the recorded calls again in the live browser, in new pages, and compares each result with the recording.';
const LIVE_REPLAY_HINT =
  'This recording is still being written. Replay so far runs the calls recorded until now again in the live browser, in new pages, and compares each result with the recording.';

/** The view alone, for tests and screenshots with a model made by hand. */
export function RecordingActionsView(
  props: RecordingActionsProps & {model: RecordingActionsModel},
): React.JSX.Element {
  const {model, callIndex, compact = false, live = false} = props;
  const hint = live ? LIVE_REPLAY_HINT : REPLAY_HINT;
  const {replay, preview} = model.state;
  const busy = isReplaying(replay) || !model.connected;
  const headline = replayHeadline(replay);
  return (
    <section className="recording-actions" aria-label="Recording actions">
      <div className="recording-actions__buttons">
        <button
          type="button"
          className={live ? undefined : 'primary'}
          disabled={busy}
          title={compact ? hint : undefined}
          onClick={() => model.replay()}
        >
          {live ? 'Replay so far' : 'Replay'}
        </button>
        {callIndex === undefined ? null : (
          <button type="button" disabled={busy} onClick={() => model.replay(callIndex)}>
            Replay up to here (call {callIndex})
          </button>
        )}
        <button
          type="button"
          disabled={!model.connected || preview.status === 'loading'}
          onClick={() => model.exportTest()}
        >
          Export as test
        </button>
      </div>
      {compact ? null : <p className="muted recording-actions__hint">{hint}</p>}
      {replay.status === 'error' ? (
        <p className="notice notice--error" role="alert">
          {replay.error}
        </p>
      ) : null}
      {headline === undefined ? null : (
        <p className="recording-actions__headline" aria-live="polite">
          {headline}
        </p>
      )}
      {(replay.status === 'running' || replay.status === 'done') && replay.error !== undefined ? (
        <p className="notice notice--error">{replay.error}</p>
      ) : null}
      {replay.status === 'running' || replay.status === 'done' ? (
        <ReplayCalls calls={replay.calls} />
      ) : null}
      <Preview preview={preview} onClose={model.closePreview} />
    </section>
  );
}

const OUTCOME_LABEL: Record<ReplayCallReport['outcome'], string> = {
  same: 'same',
  different: 'different',
  failed: 'failed',
};

function ReplayCalls(props: {calls: readonly ReplayCallReport[]}): React.JSX.Element | null {
  if (props.calls.length === 0) {
    return null;
  }
  return (
    <ol className="replay-calls">
      {props.calls.map(call => (
        <li key={call.index} className={`replay-call replay-call--${call.outcome}`}>
          <div className="replay-call__line">
            <span className="replay-call__index">#{call.index}</span>
            <span className="mono">{call.tool}</span>
            <span className={`replay-call__outcome replay-call__outcome--${call.outcome}`}>
              {OUTCOME_LABEL[call.outcome]}
            </span>
            <span className="muted replay-call__time">
              {Math.round(call.replayMs)} ms
              {call.recordedMs === undefined ? '' : ` (recorded ${Math.round(call.recordedMs)} ms)`}
            </span>
          </div>
          {call.reason === undefined ? null : <p className="replay-call__reason">{call.reason}</p>}
          {call.diff === undefined ? null : (
            <pre className="code-block replay-call__diff">{call.diff}</pre>
          )}
        </li>
      ))}
    </ol>
  );
}

/** Saves text as a file through a temporary object URL (no server round trip). */
function saveText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], {type: 'text/plain'}));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

function Preview(props: {preview: PreviewState; onClose: () => void}): React.JSX.Element | null {
  const {preview} = props;
  switch (preview.status) {
    case 'closed':
      return null;
    case 'loading':
      return <p className="muted">Writing the test…</p>;
    case 'error':
      return (
        <p className="notice notice--error" role="alert">
          {preview.error}
        </p>
      );
    case 'ready':
      return (
        <div className="card export-preview" aria-label="Exported test">
          <div className="export-preview__bar">
            <strong className="mono">{preview.fileName}</strong>
            <span className="toolbar__spacer" />
            <CopyButton text={preview.text} label="Copy" ariaLabel="Copy the test" />
            <button type="button" onClick={() => saveText(preview.text, preview.fileName)}>
              Save…
            </button>
            <button type="button" onClick={props.onClose}>
              Close
            </button>
          </div>
          <p className="muted">
            Run it with <code>npx playwright test {preview.fileName}</code> against the same pages.
          </p>
          <pre className="code-block export-preview__text">{preview.text}</pre>
        </div>
      );
  }
}
