/**
 * The secret parts of URLs: credentials (`scheme://user:password@host`, a username alone, a
 * password holding a raw `@`), plain or percent-encoded inside longer text, and the query values
 * of endpoint flags (hosted browsers carry their token there). Found by a linear scan, never a
 * backtracking pattern, so no text can stall it.
 */

export const REDACTED = '[redacted]';

/** Longest scheme looked for before `://`, and longest authority scanned after it. */
const MAX_SCHEME_CHARS = 32;
const MAX_AUTHORITY_CHARS = 4096;

/** Where an authority starts: `://` as written, or percent-encoded (a URL inside a URL). */
interface Separator {
  /** Found case-insensitively. */
  pattern: RegExp;
  length: number;
  /** The `@` that ends the user info. */
  at: string;
  /** What ends the authority besides whitespace, quotes and the like. */
  ends: readonly string[];
}

const PLAIN: Separator = {pattern: /:\/\//g, length: 3, at: '@', ends: ['/', '?', '#']};
const ENCODED: Separator = {
  pattern: /%3a%2f%2f/gi,
  length: 9,
  at: '%40',
  ends: ['%2f', '%3f', '%23', '&', '='],
};

/** Characters no authority holds unescaped: the URL (or the text around it) ends there. */
const TEXT_END = /[\s"'`<>\\]/;

function isSchemeChar(char: string): boolean {
  return /[A-Za-z0-9+.-]/.test(char);
}

/** A scheme (letter first) ends right before `index`. */
function schemeBefore(text: string, index: number): boolean {
  let start = index;
  while (start > 0 && index - start < MAX_SCHEME_CHARS && isSchemeChar(text[start - 1] ?? '')) {
    start--;
  }
  return start < index && /[A-Za-z]/.test(text[start] ?? '');
}

function startsWithCaseless(text: string, word: string, index: number): boolean {
  return text.slice(index, index + word.length).toLowerCase() === word;
}

/** The index of the last user-info `@` of the authority starting at `from`, or -1. */
function lastAt(text: string, from: number, separator: Separator): number {
  let found = -1;
  const limit = Math.min(text.length, from + MAX_AUTHORITY_CHARS);
  for (let index = from; index < limit; index++) {
    if (
      TEXT_END.test(text[index] ?? '') ||
      separator.ends.some(end => startsWithCaseless(text, end, index))
    ) {
      break;
    }
    if (startsWithCaseless(text, separator.at, index)) {
      found = index;
    }
  }
  return found;
}

function scrubWith(text: string, separator: Separator): string {
  const pattern = new RegExp(separator.pattern);
  let out = '';
  let copied = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const start = match.index + separator.length;
    if (start < copied || !schemeBefore(text, match.index)) {
      continue;
    }
    const at = lastAt(text, start, separator);
    if (at > start) {
      out += `${text.slice(copied, start)}${REDACTED}`;
      copied = at;
      pattern.lastIndex = at;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** The text with the user info of every URL in it (plain or percent-encoded) redacted. */
export function scrubUrlCredentials(text: string): string {
  let out = text.includes('://') ? scrubWith(text, PLAIN) : text;
  if (/%3a%2f%2f/i.test(out)) {
    out = scrubWith(out, ENCODED);
  }
  return out;
}

function parsed(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** A URL flag as it may be shown: no credentials, every query value redacted, no fragment. */
export function withoutUrlSecrets(raw: string): string {
  const url = parsed(raw);
  if (url === undefined) {
    return scrubUrlCredentials(raw);
  }
  if (url.username === '' && url.password === '' && url.search === '' && url.hash === '') {
    // Nothing to hide: shown as given (no normalising slash added).
    return raw;
  }
  url.username = '';
  url.password = '';
  const keys = [...new Set(url.searchParams.keys())];
  url.search = '';
  url.hash = '';
  const query = keys.map(key => `${encodeURIComponent(key)}=${REDACTED}`).join('&');
  return query === '' ? url.toString() : `${url.toString()}?${query}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The secrets a URL flag carries: its user name, password and query values, as given and decoded. */
export function urlSecrets(raw: string): string[] {
  const url = parsed(raw);
  if (url === undefined) {
    return [];
  }
  const out = [url.username, url.password, decoded(url.username), decoded(url.password)];
  // Each query value as written in the flag, as the URL parser normalised it, and decoded.
  const query = raw.includes('?') ? (raw.slice(raw.indexOf('?') + 1).split('#')[0] ?? '') : '';
  for (const pair of [...query.split('&'), ...url.search.slice(1).split('&')]) {
    const value = pair.slice(pair.indexOf('=') + 1 || pair.length);
    out.push(value, decoded(value.replace(/\+/g, ' ')));
  }
  return out.filter(secret => secret !== '');
}

/** `text` without URL credentials and without any of `secrets` (each at least 4 characters). */
export function withoutSecretsOf(text: string, secrets: readonly string[]): string {
  let out = scrubUrlCredentials(text);
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) {
      out = out.split(secret).join(REDACTED);
    }
  }
  return out;
}
