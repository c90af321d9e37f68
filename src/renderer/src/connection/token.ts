/**
 * The inspector token in web mode: it arrives in the URL fragment (`#token=…`, never sent to the
 * server), is kept in sessionStorage for reloads of this tab, and is removed from the address bar
 * so it does not end up in screenshots, history or a copied link.
 */
import {TOKEN_PATTERN} from '../../../shared/constants.js';

const STORAGE_KEY = 'mcp-browser-inspector.token';

export interface TokenLocation {
  hash: string;
  pathname: string;
  search: string;
}

export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Whether a token can be a server token at all (and be sent as a WebSocket sub-protocol). */
export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function tokenFromFragment(hash: string): string | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token')?.trim();
  if (!token) {
    return undefined;
  }
  return token;
}

/**
 * Reads the token (fragment first, then this tab's storage), stores it, and strips it from the
 * address bar. Returns undefined when there is none.
 */
export function takeToken(
  location: TokenLocation,
  storage: TokenStorage,
  replaceUrl: (url: string) => void,
): string | undefined {
  const fromFragment = tokenFromFragment(location.hash);
  if (fromFragment !== undefined) {
    try {
      // A malformed one (e.g. the "<token>" placeholder copied as printed) is not kept.
      if (isWellFormedToken(fromFragment)) {
        storage.setItem(STORAGE_KEY, fromFragment);
      } else {
        storage.removeItem(STORAGE_KEY);
      }
    } catch {
      // Storage can be disabled; the token still works for this page load.
    }
    replaceUrl(`${location.pathname}${location.search}`);
    return fromFragment;
  }
  try {
    return storage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a token the person pasted for this tab (read back by takeToken after a reload). */
export function keepToken(storage: TokenStorage, token: string): boolean {
  try {
    storage.setItem(STORAGE_KEY, token);
    return true;
  } catch {
    return false;
  }
}

export interface TokenWindow {
  location: TokenLocation;
  addEventListener(type: 'hashchange', listener: () => void): void;
}

/**
 * A `#token=` URL pasted into this tab's address bar is a hash-only navigation: the page does not
 * load again, so the token read at load would be the only one. On `hashchange` with a token the
 * page connects again (`connect`: it starts over). A well-formed token is kept for this tab and
 * leaves the address bar at once; any other (or where the tab cannot keep it) stays for the new
 * start, which takes it as every first load does (and says what is wrong with it).
 */
export function connectOnTokenFragment(
  target: TokenWindow,
  storage: TokenStorage,
  replaceUrl: (url: string) => void,
  connect: () => void,
): void {
  target.addEventListener('hashchange', () => {
    const token = tokenFromFragment(target.location.hash);
    if (token === undefined) {
      return;
    }
    if (isWellFormedToken(token) && keepToken(storage, token)) {
      replaceUrl(`${target.location.pathname}${target.location.search}`);
    }
    connect();
  });
}
