/**
 * Live page titles. A page's script may set document.title at any time, and Chromium tells
 * (Target.targetInfoChanged) only now and then: a title set by a script, or the one a page
 * gets after navigate_page read it, can go unreported for good. So titles are read again, with
 * one Target.getTargets for every page: once a second while pages are open (the inspector's
 * Pages and WebMCP panels follow), and at once before a page list is rendered for an agent
 * (list_pages and every reply that lists pages). A title or URL that differs from what the
 * inspector was last told (a title set straight on the page's state, too) makes the registry
 * announce a change.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {withTimeout} from '../lock.js';
import type {PageState} from './PageState.js';

/** How often titles are read again while pages are open. */
export const TITLE_POLL_MS = 1_000;
/** One read is bounded well below any lock wait: a reply's page list never waits longer. */
const TITLE_READ_TIMEOUT_MS = 1_000;

export interface PageTitlesDeps {
  /** The browser-level cdp (one round trip for all pages), when the browser offers one. */
  browserCdp: () => CDPSession | undefined;
  pages: () => PageState[];
  /** Titles or URLs changed: the registry announces it. */
  changed: () => void;
}

export class PageTitles {
  #timer: NodeJS.Timeout | undefined;
  #polling = false;
  /** What the inspector was last told of each page (title and URL). */
  readonly #told = new WeakMap<PageState, string>();

  constructor(private readonly deps: PageTitlesDeps) {}

  start(): void {
    if (this.#timer) {
      return;
    }
    this.#timer = setInterval(() => {
      if (this.#polling || this.deps.pages().length === 0) {
        return;
      }
      this.#polling = true;
      void this.refresh().finally(() => {
        this.#polling = false;
      });
    }, TITLE_POLL_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The pages' titles and URLs as announced now (the registry calls this when it announces). */
  told(pages: readonly PageState[]): void {
    for (const page of pages) {
      this.#told.set(page, shownKey(page));
    }
  }

  /** Reads every page's title and URL again (bounded; a failed read leaves them as they were). */
  async refresh(): Promise<void> {
    const pages = this.deps.pages();
    if (pages.length === 0) {
      return;
    }
    const infos = await withTimeout(
      this.#read(pages),
      TITLE_READ_TIMEOUT_MS,
      'Reading the page titles timed out.',
    ).catch(() => undefined);
    if (!infos) {
      return;
    }
    let changed = false;
    for (const page of pages) {
      const info = infos.get(page.targetId);
      // The URL follows navigations (framenavigated); a target's URL can run ahead of them.
      if (!page.closed && info) {
        page.title = info.title;
      }
      changed ||= !page.closed && this.#told.get(page) !== shownKey(page);
    }
    if (changed) {
      this.deps.changed();
    }
  }

  async #read(pages: readonly PageState[]): Promise<Map<string, Protocol.Target.TargetInfo>> {
    const cdp = this.deps.browserCdp();
    // Without a browser-level cdp that answers (some embedders), page by page over their own.
    const infos =
      (cdp
        ? await cdp.send('Target.getTargets').then(
            reply => reply.targetInfos,
            () => undefined,
          )
        : undefined) ??
      (await Promise.all(
        pages.map(async page => (await page.cdp.send('Target.getTargetInfo')).targetInfo),
      ));
    return new Map(
      infos.filter(info => info.type === 'page').map(info => [info.targetId, info] as const),
    );
  }
}

function shownKey(page: PageState): string {
  return `${page.title}\n${page.url}`;
}
