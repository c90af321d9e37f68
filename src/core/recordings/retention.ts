/**
 * Retention of recorded sessions: keep the newest MAX_RECORDINGS and at most MAX_TOTAL_BYTES (files
 * and images together), removing the oldest first. The session being recorded is never removed.
 */
import {listStoredRecordings, removeStoredRecording} from './recordingFiles.js';

export const MAX_RECORDINGS = 50;
export const MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;

export interface RetentionLimits {
  maxSessions: number;
  maxBytes: number;
}

export const DEFAULT_RETENTION: RetentionLimits = {
  maxSessions: MAX_RECORDINGS,
  maxBytes: MAX_TOTAL_BYTES,
};

/** Removes what is over the limits; returns the ids removed, oldest first. */
export function applyRetention(
  dir: string,
  currentId: string | undefined,
  limits: RetentionLimits = DEFAULT_RETENTION,
): string[] {
  const sessions = listStoredRecordings(dir);
  let total = sessions.reduce((sum, session) => sum + session.bytes, 0);
  let count = sessions.length;
  const removed: string[] = [];
  // Oldest first.
  for (const session of [...sessions].reverse()) {
    if (count <= limits.maxSessions && total <= limits.maxBytes) {
      break;
    }
    if (session.id === currentId) {
      continue;
    }
    removeStoredRecording(dir, session.id);
    removed.push(session.id);
    total -= session.bytes;
    count--;
  }
  return removed;
}
