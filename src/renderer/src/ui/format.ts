/** Formatting helpers shared by panels. Times are local and 24-hour everywhere. */

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** A time of day as the Log shows it: `14:05:09.123`. */
export function formatClock(time: number): string {
  const date = new Date(time);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** A date and time in the same 24-hour clock: `2026-12-02 14:05:09`. */
export function formatDateTime(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) {
    return '';
  }
  if (ms < 1_000) {
    return `${Math.round(ms)} ms`;
  }
  if (ms < 60_000) {
    return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  }
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
