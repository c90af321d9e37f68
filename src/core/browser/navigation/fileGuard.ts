/**
 * Keeps the browser from loading file: URLs outside the allowed roots, whoever asks: a tool, a
 * link the page follows, a redirect, a popup, a frame, view-source:. The tools check the URLs they
 * are given themselves (with a message naming --workspace); this is the browser-side net under
 * them. Requests for file: URLs are paused at the browser target (Fetch domain, one pattern, so
 * other traffic is not touched) and failed with ERR_ACCESS_DENIED unless they are inside a root.
 * Embedders without browser-level Fetch get it per page instead.
 */
import type {Browser, CDPSession, Protocol} from 'puppeteer-core';
import {onEvent} from '../cdp.js';
import {withTimeout} from '../lock.js';
import type {PageRegistry} from '../pages/PageRegistry.js';
import type {PageState} from '../pages/PageState.js';

export interface FileUrlPolicy {
  allowsUrl(url: string): Promise<boolean>;
}

const FILE_PATTERNS: Protocol.Fetch.RequestPattern[] = [{urlPattern: 'file:*'}];

export class FileNavigationGuard {
  #browserCdp: CDPSession | undefined;
  #perPage = false;
  #stopPageWatch: (() => void) | undefined;

  constructor(
    private readonly policy: FileUrlPolicy,
    private readonly log: (line: string) => void,
  ) {}

  #listen(cdp: CDPSession): void {
    onEvent(cdp, 'Fetch.requestPaused', event => {
      void this.#decide(cdp, event);
    });
  }

  async #decide(cdp: CDPSession, event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    const allowed = await this.policy.allowsUrl(event.request.url).catch(() => false);
    if (allowed) {
      await cdp.send('Fetch.continueRequest', {requestId: event.requestId}).catch(() => undefined);
      return;
    }
    this.log(
      `Blocked ${event.request.url}: it is outside the allowed roots (start the server with --workspace <dir> to allow a folder).`,
    );
    await cdp
      .send('Fetch.failRequest', {requestId: event.requestId, errorReason: 'AccessDenied'})
      .catch(() => undefined);
  }

  /** Starts guarding a newly attached browser, before its pages are registered. */
  async attach(browser: Browser, pages: PageRegistry): Promise<void> {
    this.detach();
    try {
      const cdp = await browser.target().createCDPSession();
      this.#listen(cdp);
      await withTimeout(
        cdp.send('Fetch.enable', {patterns: FILE_PATTERNS}),
        5_000,
        'Fetch.enable timed out',
      );
      this.#browserCdp = cdp;
    } catch {
      // No browser-level Fetch (some embedders): guard each page instead.
      this.#perPage = true;
      const onPage = (page: PageState): void => void this.#guardPage(page);
      pages.on('pageAdded', onPage);
      this.#stopPageWatch = () => pages.off('pageAdded', onPage);
    }
  }

  async #guardPage(page: PageState): Promise<void> {
    this.#listen(page.cdp);
    await page.cdp.send('Fetch.enable', {patterns: FILE_PATTERNS}).catch(() => undefined);
  }

  /**
   * Pages that already show a file outside the roots (an initial URL passed to Chromium, a tab
   * of an attached browser) are moved to about:blank, so their text cannot be read through tools.
   */
  async clearForbidden(pages: readonly PageState[]): Promise<void> {
    await Promise.all(
      pages.map(async page => {
        if (this.#perPage) {
          await this.#guardPage(page);
        }
        const url = page.page.url();
        if (!/^(view-source:)?file:/i.test(url)) {
          return;
        }
        const target = url.replace(/^view-source:/i, '');
        if (await this.policy.allowsUrl(target).catch(() => false)) {
          return;
        }
        this.log(
          `Closed ${url} in page ${page.id}: it is outside the allowed roots (start the server with --workspace <dir> to allow a folder).`,
        );
        await withTimeout(page.page.goto('about:blank'), 5_000, 'about:blank timed out').catch(
          () => undefined,
        );
      }),
    );
  }

  detach(): void {
    this.#stopPageWatch?.();
    this.#stopPageWatch = undefined;
    this.#perPage = false;
    void this.#browserCdp?.detach().catch(() => undefined);
    this.#browserCdp = undefined;
  }
}
