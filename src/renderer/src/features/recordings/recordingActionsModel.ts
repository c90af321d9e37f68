/**
 * The panel model of a recording's actions (replay, replay up to a call, export as a test with a
 * preview): a reducer over what the engine answered, joined with the replay's progress the store
 * keeps from the event stream. Pure, so it is tested without React or a server.
 */
import type {ExportFormat, ReplayCallReport, ReplaySummary} from '../../../../shared/protocol.js';
import type {CommandResult} from '../../../../shared/replies.js';
import type {ReplayProgress} from '../../store/replays.js';

/** What this view asked for and what the engine answered; the replay's progress is the store's. */
export type ReplayRequest =
  | {status: 'idle'}
  | {status: 'starting'; untilCall?: number}
  | {status: 'started'; replayId: string; total: number}
  | {status: 'error'; error: string};

/** The replay as shown: the request joined with the progress the store keeps for it. */
export type ReplayState =
  | {status: 'idle'}
  | {status: 'starting'; untilCall?: number}
  | {
      status: 'running' | 'done';
      replayId: string;
      total: number;
      calls: readonly ReplayCallReport[];
      summary?: ReplaySummary;
      error?: string;
    }
  | {status: 'error'; error: string};

export type PreviewState =
  | {status: 'closed'}
  | {status: 'loading'}
  | {status: 'ready'; text: string; fileName: string; format: ExportFormat}
  | {status: 'error'; error: string};

/** The reducer's state. */
export interface RecordingActionsRequests {
  replay: ReplayRequest;
  preview: PreviewState;
}

/** What the view shows. */
export interface RecordingActionsState {
  replay: ReplayState;
  preview: PreviewState;
}

export const INITIAL_RECORDING_ACTIONS: RecordingActionsRequests = {
  replay: {status: 'idle'},
  preview: {status: 'closed'},
};

export type RecordingActionsAction =
  | {type: 'replayRequested'; untilCall?: number}
  | {type: 'replayAnswered'; result: CommandResult<'replayRecording'>}
  | {type: 'exportRequested'}
  | {type: 'exportAnswered'; result: CommandResult<'exportRecording'>}
  | {type: 'previewClosed'};

export function reduceRecordingActions(
  state: RecordingActionsRequests,
  action: RecordingActionsAction,
): RecordingActionsRequests {
  switch (action.type) {
    case 'replayRequested':
      return {
        ...state,
        replay: {
          status: 'starting',
          ...(action.untilCall === undefined ? {} : {untilCall: action.untilCall}),
        },
      };
    case 'replayAnswered':
      return {
        ...state,
        replay: action.result.ok
          ? {status: 'started', ...action.result.value}
          : {status: 'error', error: action.result.error},
      };
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

/** The id of the replay this view started, once the engine named it. */
export function requestedReplayId(request: ReplayRequest): string | undefined {
  return request.status === 'started' ? request.replayId : undefined;
}

/** The request joined with the replay's progress (undefined until its first event arrived). */
export function replayState(
  request: ReplayRequest,
  progress: ReplayProgress | undefined,
): ReplayState {
  if (request.status !== 'started') {
    return request;
  }
  return {
    status: progress?.finished === true ? 'done' : 'running',
    replayId: request.replayId,
    total: progress && progress.total > 0 ? progress.total : request.total,
    calls: progress?.calls ?? [],
    ...(progress?.summary === undefined ? {} : {summary: progress.summary}),
    ...(progress?.error === undefined ? {} : {error: progress.error}),
  };
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
        ? `Replayed ${summary.total} call(s): ${summary.same} same, ${summary.different} different, ${summary.failed} failed.${summary.stopped === undefined ? '' : ` ${summary.stopped}`}`
        : `Replayed ${replay.calls.length} call(s).`;
    }
  }
}
