/**
 * Retention of recordings: keep the newest MAX_RECORDINGS and at most MAX_TOTAL_BYTES (files
 * and images together), removing the oldest first. The recording being written is never removed,
 * nor one being read or replayed (`kept`).
 */
import {listStoredRecordings, removeStoredRecording} from './recordingFiles.js';

export const MAX_RECORDINGS = 50;
export const MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;

export interface RetentionLimits {
  maxRecordings: number;
  maxBytes: number;
}

export const DEFAULT_RETENTION: RetentionLimits = {
  maxRecordings: MAX_RECORDINGS,
  maxBytes: MAX_TOTAL_BYTES,
};

/** Removes what is over the limits but never an id in `kept`; returns the ids removed, oldest first. */
export function applyRetention(
  dir: string,
  kept: ReadonlySet<string>,
  limits: RetentionLimits = DEFAULT_RETENTION,
): string[] {
  const recordings = listStoredRecordings(dir);
  let total = recordings.reduce((sum, recording) => sum + recording.bytes, 0);
  let count = recordings.length;
  const removed: string[] = [];
  // Oldest first.
  for (const recording of [...recordings].reverse()) {
    if (count <= limits.maxRecordings && total <= limits.maxBytes) {
      break;
    }
    if (kept.has(recording.id)) {
      continue;
    }
    removeStoredRecording(dir, recording.id);
    removed.push(recording.id);
    total -= recording.bytes;
    count--;
  }
  return removed;
}
