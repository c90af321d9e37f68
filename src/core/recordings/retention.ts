/**
 * Retention of recordings, by age and size: a recording last written more than MAX_AGE_MS ago
 * goes, and the oldest go first while the folder holds more than MAX_TOTAL_BYTES (files and images
 * together) or more than MAX_RECORDINGS (a bound on the folder's listing, far above what short
 * runs make in a day, so a morning of one-shot runs never evicts yesterday's long session). A
 * recording the user starred is never removed, nor the one being written, nor one being read or
 * replayed (`kept`).
 */
import {listStoredRecordings, removeStoredRecording} from './recordingFiles.js';

export const MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;
export const MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;
export const MAX_RECORDINGS = 1000;

export interface RetentionLimits {
  /** A recording whose last write is older than this is removed. */
  maxAgeMs: number;
  maxBytes: number;
  maxRecordings: number;
}

export const DEFAULT_RETENTION: RetentionLimits = {
  maxAgeMs: MAX_AGE_MS,
  maxBytes: MAX_TOTAL_BYTES,
  maxRecordings: MAX_RECORDINGS,
};

/**
 * Removes what is too old or over the limits but never a starred recording nor an id in `kept`;
 * returns the ids removed, oldest first.
 */
export function applyRetention(
  dir: string,
  kept: ReadonlySet<string>,
  limits: RetentionLimits = DEFAULT_RETENTION,
  now: number = Date.now(),
): string[] {
  const recordings = listStoredRecordings(dir);
  let total = recordings.reduce((sum, recording) => sum + recording.bytes, 0);
  let count = recordings.length;
  const removed: string[] = [];
  // Oldest first.
  for (const recording of [...recordings].reverse()) {
    const tooOld = now - recording.mtimeMs > limits.maxAgeMs;
    // No early stop: a recording that started later may have ended earlier (age is the last write).
    if (!tooOld && count <= limits.maxRecordings && total <= limits.maxBytes) {
      continue;
    }
    if (recording.starred || kept.has(recording.id)) {
      continue;
    }
    removeStoredRecording(dir, recording.id);
    removed.push(recording.id);
    total -= recording.bytes;
    count--;
  }
  return removed;
}
