/**
 * What happens on each page, timestamped, so a call's record can say what it did: navigations of
 * the main frame, dialogs, console messages and uncaught errors, network requests (their status is
 * read when a call ends, so a response that came later in the call counts). A small ring per page:
 * items older than the ring are only ever needed by calls that ran longer than it covers, and those
 * say how many were dropped.
 */
import type {ConsoleMessage, Frame, HTTPRequest} from 'puppeteer-core';
import type {CallActivityItem} from '../../shared/protocol.js';
import {requestStatus} from '../browser/collectors/NetworkCollector.js';
import {PageFeature, type PageState} from '../browser/pages/PageState.js';

/** Items kept per page. */
const RING_SIZE = 1_000;
const MAX_TEXT = 500;
const MAX_URL = 2_000;

interface Entry {
  time: number;
  item: () => CallActivityItem;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export class PageActivity {
  #entries: Entry[] = [];
  /** Entries pushed out of the ring so far (for the dropped count of long calls). */
  #evicted = 0;
  #evictedUntil = 0;
  readonly #unsubscribe: (() => void)[] = [];

  constructor(state: PageState) {
    const page = state.page;
    const onRequest = (request: HTTPRequest): void => {
      const time = Date.now();
      const method = request.method();
      const url = clip(request.url(), MAX_URL);
      this.#push(time, () => ({
        kind: 'request',
        time,
        method,
        url,
        status: requestStatus(request),
      }));
    };
    const onConsole = (message: ConsoleMessage): void => {
      const time = Date.now();
      const level = message.type();
      const text = clip(message.text(), MAX_TEXT);
      this.#push(time, () => ({kind: 'console', time, level, text}));
    };
    const onPageError = (error: unknown): void => {
      const time = Date.now();
      const text = clip(error instanceof Error ? error.message : String(error), MAX_TEXT);
      this.#push(time, () => ({kind: 'console', time, level: 'error', text}));
    };
    const onNavigated = (frame: Frame): void => {
      if (frame.parentFrame() !== null) {
        return;
      }
      const time = Date.now();
      const url = clip(frame.url(), MAX_URL);
      this.#push(time, () => ({kind: 'navigation', time, url}));
    };
    page.on('request', onRequest);
    page.on('console', onConsole);
    page.on('pageerror', onPageError);
    page.on('framenavigated', onNavigated);
    this.#unsubscribe.push(
      () => page.off('request', onRequest),
      () => page.off('console', onConsole),
      () => page.off('pageerror', onPageError),
      () => page.off('framenavigated', onNavigated),
      state.onDialog(dialog => {
        const time = Date.now();
        const item: CallActivityItem = {
          kind: 'dialog',
          time,
          dialogType: dialog.type,
          message: clip(dialog.message, MAX_TEXT),
        };
        this.#push(time, () => item);
      }),
    );
  }

  #push(time: number, item: () => CallActivityItem): void {
    this.#entries.push({time, item});
    if (this.#entries.length > RING_SIZE * 2) {
      const cut = this.#entries.length - RING_SIZE;
      this.#evicted += cut;
      this.#evictedUntil = this.#entries[cut - 1]?.time ?? this.#evictedUntil;
      this.#entries = this.#entries.slice(cut);
    }
  }

  /** The items from `from` to `to` (epoch ms), at most `limit`, and how many were left out. */
  between(from: number, to: number, limit: number): {items: CallActivityItem[]; dropped: number} {
    const items: CallActivityItem[] = [];
    let dropped = 0;
    for (const entry of this.#entries) {
      if (entry.time < from || entry.time > to) {
        continue;
      }
      if (items.length < limit) {
        items.push(entry.item());
      } else {
        dropped++;
      }
    }
    // The ring moved past the call's start: say that some of its items are gone.
    if (this.#evictedUntil >= from && this.#evicted > 0) {
      dropped++;
    }
    return {items, dropped};
  }

  dispose(): void {
    for (const unsubscribe of this.#unsubscribe) {
      unsubscribe();
    }
  }
}

export const pageActivityFeature = new PageFeature('callActivity', page => new PageActivity(page), {
  eager: true,
  dispose: activity => activity.dispose(),
});
