/**
 * Replays of recordings as their events report them (replayProgress per call, then
 * replayFinished), by replay id: the store keeps the newest few, so a view that started a replay
 * finds its progress there, including what arrived before the command's answer named the replay.
 */
import type {InspectorEvent, ReplayCallReport, ReplaySummary} from '../../../shared/protocol.js';

export interface ReplayProgress {
  replayId: string;
  recordingId: string;
  /** How many calls the replay runs (0 until its first progress event). */
  total: number;
  /** The report of each call replayed so far, in order. */
  calls: readonly ReplayCallReport[];
  finished: boolean;
  /** Once finished. */
  summary?: ReplaySummary;
  /** Why it stopped early, when it did. */
  error?: string;
}

/** Replays kept (newest last): only one runs at a time, so a few cover every open view. */
export const REPLAY_CAPACITY = 10;

type ReplayEvent = Extract<InspectorEvent, {type: 'replayProgress' | 'replayFinished'}>;

/** Applies one replay event to a working copy of the list (replaced, never mutated, entries). */
export function applyReplayEvent(replays: ReplayProgress[], event: ReplayEvent): void {
  const index = replays.findIndex(replay => replay.replayId === event.replayId);
  const current: ReplayProgress = replays[index] ?? {
    replayId: event.replayId,
    recordingId: event.recordingId,
    total: 0,
    calls: [],
    finished: false,
  };
  const next: ReplayProgress =
    event.type === 'replayProgress'
      ? {...current, total: event.total, calls: [...current.calls, event.call]}
      : {
          ...current,
          finished: true,
          summary: event.summary,
          ...(event.error === undefined ? {} : {error: event.error}),
        };
  if (index === -1) {
    replays.push(next);
    replays.splice(0, replays.length - REPLAY_CAPACITY);
  } else {
    replays[index] = next;
  }
}
