/**
 * The Recordings panel's panel model, pure: the rows of the recordings table in the order they are
 * shown (newest first, each replay's own recording right under the recording it replayed), and
 * what the retention line says about this run.
 */
import type {RecordingList, RecordingSummary} from '../../../../shared/replies.js';

export interface RecordingRowModel {
  recording: RecordingSummary;
  /** The id of the recording this one replayed, when it is a replay's own recording. */
  replayOf?: string;
  /** Shown under its source (false: the source is not in the list any more). */
  nested: boolean;
}

/** Newest first; a replay's recording follows the recording it replayed (newest replay first). */
export function recordingRows(recordings: readonly RecordingSummary[]): RecordingRowModel[] {
  const ids = new Set(recordings.map(recording => recording.id));
  const replays = new Map<string, RecordingSummary[]>();
  for (const recording of recordings) {
    const source = recording.replayOf;
    if (source !== undefined && source !== recording.id && ids.has(source)) {
      replays.set(source, [...(replays.get(source) ?? []), recording]);
    }
  }
  const rows: RecordingRowModel[] = [];
  const placed = new Set<string>();
  const place = (recording: RecordingSummary, nested: boolean): void => {
    if (placed.has(recording.id)) {
      return;
    }
    placed.add(recording.id);
    rows.push({
      recording,
      ...(recording.replayOf === undefined ? {} : {replayOf: recording.replayOf}),
      nested,
    });
    for (const replay of replays.get(recording.id) ?? []) {
      place(replay, true);
    }
  };
  for (const recording of recordings) {
    const source = recording.replayOf;
    const underSource = source !== undefined && source !== recording.id && ids.has(source);
    if (!underSource) {
      place(recording, false);
    }
  }
  // Replays of replays whose chain loops back (hand-made headers) still get a row.
  for (const recording of recordings) {
    place(recording, false);
  }
  return rows;
}

/** What the panel says about this run's recording. */
export function recordingState(list: RecordingList): string {
  if (!list.recording) {
    return 'Recording is off for this run (--no-record).';
  }
  return list.recordings.some(recording => recording.current)
    ? 'This run is being recorded.'
    : 'This run is recorded from its first tool call (a start with no call leaves no recording).';
}
