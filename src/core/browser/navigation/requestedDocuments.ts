/**
 * The documents a page has asked for (a script setting location, a link, a form, window.open)
 * whose request has not been paused yet. A call that sets a navigation in motion can return
 * before the browser starts its request (a page's WebMCP tool calls window.open and answers at
 * once); the navigation guard waits for those requests, bounded, before it stops watching.
 */
import {onEvent} from '../cdp.js';
import type {PageState} from '../pages/PageState.js';

/** Requests remembered at most (a page that asks for more is waited for no longer). */
const MAX_PENDING = 100;

/** A request's URL as the network sees it: without its fragment. */
function requestUrl(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

export class RequestedDocuments {
  /** Request URLs asked for and not seen yet, with how many times each. */
  readonly #pending = new Map<string, number>();
  readonly #off: (() => void)[];
  #wake: (() => void) | undefined;

  constructor(page: PageState) {
    const {cdp} = page;
    this.#off = [
      onEvent(cdp, 'Page.windowOpen', event => this.#add(event.url)),
      onEvent(cdp, 'Page.frameRequestedNavigation', event => {
        if (event.frameId === page.mainFrameId && event.disposition !== 'download') {
          this.#add(event.url);
        }
      }),
      onEvent(cdp, 'Page.navigatedWithinDocument', event => {
        if (event.frameId === page.mainFrameId) {
          this.seen(event.url);
        }
      }),
    ];
  }

  #add(url: string): void {
    // Only network documents are paused (about:blank, data: and javascript: never are).
    if (!/^https?:/i.test(url) || this.#pending.size >= MAX_PENDING) {
      return;
    }
    const key = requestUrl(url);
    this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
  }

  /** A document request for `url` was paused (or the navigation stayed in the document). */
  seen(url: string): void {
    const key = requestUrl(url);
    const count = this.#pending.get(key);
    if (count === undefined) {
      return;
    }
    if (count > 1) {
      this.#pending.set(key, count - 1);
    } else {
      this.#pending.delete(key);
    }
    if (this.#pending.size === 0) {
      this.#wake?.();
    }
  }

  /** Resolves once every document asked for was seen, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0) {
      return Promise.resolve();
    }
    return new Promise<void>(resolve => {
      const timer = setTimeout(done, timeoutMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  dispose(): void {
    for (const off of this.#off) {
      off();
    }
    this.#wake?.();
  }
}
