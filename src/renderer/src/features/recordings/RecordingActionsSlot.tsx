/**
 * Where actions on a recording go: in each row of the Recordings panel (`placement="recording"`)
 * and in the detail of a call of an opened recording (`placement="call"`). Replay and export live in
 * their own feature; they plug in here without this panel knowing them:
 *
 *   registerRecordingActions({recording: ctx => <ReplayButton id={ctx.recording.id} />, call: ctx => …});
 *
 * or pass children to one slot. Nothing renders when no action is registered.
 */
import type {ReactNode} from 'react';
import type {CallRecord} from '../../store/CallLog.js';

export interface RecordingRef {
  /** The recording's id on the server; undefined for a file opened from elsewhere. */
  id: string | undefined;
  fileName: string;
}

export interface RecordingActionsContext {
  recording: RecordingRef;
  /** For `placement="call"`: the call, and its 0-based position among the recording's calls. */
  call?: CallRecord;
}

export type RecordingActionsRenderer = (context: RecordingActionsContext) => ReactNode;

const renderers: {recording?: RecordingActionsRenderer; call?: RecordingActionsRenderer} = {};

/** Registers the actions shown in the slots (a later call replaces the earlier one). */
export function registerRecordingActions(actions: {
  recording?: RecordingActionsRenderer;
  call?: RecordingActionsRenderer;
}): void {
  if (actions.recording) {
    renderers.recording = actions.recording;
  }
  if (actions.call) {
    renderers.call = actions.call;
  }
}

export function RecordingActionsSlot(props: {
  placement: 'recording' | 'call';
  recording: RecordingRef;
  call?: CallRecord | undefined;
  children?: ReactNode;
}): React.JSX.Element | null {
  const render = renderers[props.placement];
  const content =
    props.children ??
    render?.({recording: props.recording, ...(props.call ? {call: props.call} : {})});
  if (content === undefined || content === null || content === false) {
    return null;
  }
  return (
    <span
      className="recording-actions"
      data-testid={`recording-actions-${props.placement}`}
      role="group"
      aria-label="Recording actions"
    >
      {content}
    </span>
  );
}
