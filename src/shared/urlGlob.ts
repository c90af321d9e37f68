/**
 * URL globs of hold rules (`url:*://*.example.com/*`): `*` is any run of characters (slashes too),
 * `?` one character, everything else literal; the whole URL must match, ignoring case.
 *
 * Matched without a regular expression: a page chooses its URL (pushState takes megabytes), and a
 * backtracking regex on a long URL blocks the server for everyone. The glob splits at its stars;
 * the first part must start the URL, the last must end it, and each part between is taken at its
 * leftmost place after the one before (leftmost is always the best choice, so there is no
 * backtracking): time grows with the URL's length times the glob's, never worse.
 *
 * The URL considered is bounded too. One longer than LONG_URL_CHARS is compared on its first and
 * last URL_WINDOW_CHARS only; a part of the glob that is not found in the first window could be in
 * the unseen middle, so the answer is then `maybe`, which a hold treats as a match: an over-long
 * URL is held rather than let through.
 */

/** URLs up to this long are compared whole. */
export const LONG_URL_CHARS = 64 * 1024;
/** How much of the start and of the end of a longer URL is compared. */
export const URL_WINDOW_CHARS = 32 * 1024;
/** A URL glob is at most this long (the windows above must hold its first and last parts). */
export const URL_GLOB_MAX_CHARS = 2_000;

export type GlobAnswer = 'yes' | 'no' | 'maybe';

export interface UrlGlob {
  readonly glob: string;
  match(url: string): GlobAnswer;
}

/** Whether `part` (with `?` for any one character) matches `text` at `at`. */
function partAt(part: string, text: string, at: number): boolean {
  if (at < 0 || at + part.length > text.length) {
    return false;
  }
  for (let index = 0; index < part.length; index++) {
    const char = part.charCodeAt(index);
    if (char !== 63 /* ? */ && char !== text.charCodeAt(at + index)) {
      return false;
    }
  }
  return true;
}

/** The leftmost place of `part` in `text` from `from`, ending by `end`; -1 if none. */
function findPart(part: string, text: string, from: number, end: number): number {
  if (!part.includes('?')) {
    const found = text.indexOf(part, from);
    return found !== -1 && found + part.length <= end ? found : -1;
  }
  for (let at = from; at + part.length <= end; at++) {
    if (partAt(part, text, at)) {
      return at;
    }
  }
  return -1;
}

/** Whether the middle parts fit in order between `from` and `end`, each at its leftmost place. */
function placeMiddle(parts: readonly string[], text: string, from: number, end: number): boolean {
  let at = from;
  for (const part of parts) {
    if (part === '') {
      continue;
    }
    const found = findPart(part, text, at, end);
    if (found === -1) {
      return false;
    }
    at = found + part.length;
  }
  return true;
}

export function compileUrlGlob(glob: string): UrlGlob {
  const parts = glob.toLowerCase().split('*');
  const first = parts[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1] ?? '') : '';
  const middle = parts.slice(1, -1);
  const starred = parts.length > 1;

  function matchWhole(url: string): GlobAnswer {
    const text = url.toLowerCase();
    if (!starred) {
      return text.length === first.length && partAt(first, text, 0) ? 'yes' : 'no';
    }
    if (text.length < first.length + last.length) {
      return 'no';
    }
    const end = text.length - last.length;
    return partAt(first, text, 0) &&
      partAt(last, text, end) &&
      placeMiddle(middle, text, first.length, end)
      ? 'yes'
      : 'no';
  }

  function matchLong(url: string): GlobAnswer {
    if (!starred) {
      // Without a star the glob matches URLs of its own length only.
      return 'no';
    }
    const head = url.slice(0, URL_WINDOW_CHARS).toLowerCase();
    const tail = url.slice(-URL_WINDOW_CHARS).toLowerCase();
    if (!partAt(first, head, 0) || !partAt(last, tail, tail.length - last.length)) {
      return 'no';
    }
    // Parts not found in the head may be in the unseen middle: not a "no".
    return placeMiddle(middle, head, first.length, head.length) ? 'yes' : 'maybe';
  }

  return {
    glob,
    match: url => (url.length > LONG_URL_CHARS ? matchLong(url) : matchWhole(url)),
  };
}
