/**
 * The view model of a recording's actions (replay, replay up to a call, export as a test with a
 * preview): a reducer over what the engine answered and the replay events it streamed. Pure, so it
 * is tested without React or a server.
 */
import type {
  ExportFormat,
  InspectorEvent,
  ReplayCallReportView,
  ReplaySummaryView,
} from '../../../../shared/protocol.js';
import type {CommandResult} from '../../../../shared/replies.js';

export type ReplayState =
  | {status: 'idle'}
  /** `early`: replay events that arrived before the command's answer named the replay. */
  | {status: 'starting'; untilCall?: number; early: InspectorEvent[]}
  | {
      status: 'running' | 'done';
      replayId: string;
      total: number;
      calls: ReplayCallReportView[];
      summary?: ReplaySummaryView;
      error?: string;
    }
  | {status: 'error'; error: string};

export type PreviewState =
  | {status: 'closed'}
  | {status: 'loading'}
  | {status: 'ready'; text: string; fileName: string; format: ExportFormat}
  | {status: 'error'; error: string};

export interface RecordingActionsState {
  replay: ReplayState;
  preview: PreviewState;
}

export const INITIAL_RECORDING_ACTIONS: RecordingActionsState = {
  replay: {status: 'idle'},
  preview: {status: 'closed'},
};

export type RecordingActionsAction =
  | {type: 'replayRequested'; untilCall?: number}
  | {type: 'replayAnswered'; result: CommandResult<'replayRecording'>}
  | {type: 'replayEvent'; event: InspectorEvent}
  | {type: 'exportRequested'}
  | {type: 'exportAnswered'; result: CommandResult<'exportRecording'>}
  | {type: 'previewClosed'};

function onReplayEvent(replay: ReplayState, event: InspectorEvent): ReplayState {
  if (replay.status === 'starting') {
    return {...replay, early: [...replay.early, event]};
  }
  if (replay.status !== 'running') {
    return replay;
  }
  if (event.type === 'replayProgress' && event.replayId === replay.replayId) {
    return {...replay, total: event.total, calls: [...replay.calls, event.call]};
  }
  if (event.type === 'replayFinished' && event.replayId === replay.replayId) {
    return {
      ...replay,
      status: 'done',
      summary: event.summary,
      ...(event.error === undefined ? {} : {error: event.error}),
    };
  }
  return replay;
}

export function reduceRecordingActions(
  state: RecordingActionsState,
  action: RecordingActionsAction,
): RecordingActionsState {
  switch (action.type) {
    case 'replayRequested':
      return {
        ...state,
        replay: {
          status: 'starting',
          early: [],
          ...(action.untilCall === undefined ? {} : {untilCall: action.untilCall}),
        },
      };
    case 'replayAnswered': {
      if (!action.result.ok) {
        return {...state, replay: {status: 'error', error: action.result.error}};
      }
      const early = state.replay.status === 'starting' ? state.replay.early : [];
      const running: ReplayState = {status: 'running', ...action.result.value, calls: []};
      return {...state, replay: early.reduce(onReplayEvent, running)};
    }
    case 'replayEvent':
      return {...state, replay: onReplayEvent(state.replay, action.event)};
    case 'exportRequested':
      return {...state, preview: {status: 'loading'}};
    case 'exportAnswered':
      return {
        ...state,
        preview: action.result.ok
          ? {status: 'ready', ...action.result.value}
          : {status: 'error', error: action.result.error},
      };
    case 'previewClosed':
      return {...state, preview: {status: 'closed'}};
  }
}

/** Whether a replay is under way (the buttons wait for it). */
export function isReplaying(replay: ReplayState): boolean {
  return replay.status === 'starting' || replay.status === 'running';
}

/** "3 of 11 calls" while running; the summary line once done. */
export function replayHeadline(replay: ReplayState): string | undefined {
  switch (replay.status) {
    case 'idle':
      return undefined;
    case 'starting':
      return 'Starting the replay…';
    case 'error':
      return undefined;
    case 'running':
      return `Replaying: ${replay.calls.length} of ${replay.total} calls`;
    case 'done': {
      const summary = replay.summary;
      return summary
        ? `Replayed ${summary.total} call(s): ${summary.same} same, ${summary.different} different, ${summary.failed} failed.`
        : `Replayed ${replay.calls.length} call(s).`;
    }
  }
}
