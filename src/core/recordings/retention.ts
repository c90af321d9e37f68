/**
 * Retention of recorded sessions: keep the newest MAX_SESSIONS and at most MAX_TOTAL_BYTES (files
 * and images together), removing the oldest first. The session being recorded is never removed.
 */
import {listStoredSessions, removeStoredSession} from './sessionFiles.js';

export const MAX_SESSIONS = 50;
export const MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;

export interface RetentionLimits {
  maxSessions: number;
  maxBytes: number;
}

export const DEFAULT_RETENTION: RetentionLimits = {
  maxSessions: MAX_SESSIONS,
  maxBytes: MAX_TOTAL_BYTES,
};

/** Removes what is over the limits; returns the ids removed, oldest first. */
export function applyRetention(
  dir: string,
  currentId: string | undefined,
  limits: RetentionLimits = DEFAULT_RETENTION,
): string[] {
  const sessions = listStoredSessions(dir);
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
    removeStoredSession(dir, session.id);
    removed.push(session.id);
    total -= session.bytes;
    count--;
  }
  return removed;
}
