/**
 * The tabs a page opens while a call runs (a link with target=_blank, window.open, a form with a
 * target), checked before their first document loads. A new tab is its own target, so the page's
 * own interception never sees its requests; they are paused at the browser target instead
 * (Fetch on a browser-level cdp of its own, documents only), and a document of a tab whose
 * opener is the watched page (its first navigation and every redirect hop) goes to the check.
 * Every other document request (other pages, frames) is let go at once.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {onEvent} from '../cdp.js';
import {withTimeout} from '../lock.js';
import type {PageState} from '../pages/PageState.js';

/** The refusal of a navigation of a new tab, or undefined to let it go. */
export type TabNavigationCheck = (
  url: string,
  redirectedFrom: string | undefined,
) => string | undefined;

const DOCUMENTS: Protocol.Fetch.RequestPattern[] = [
  {urlPattern: '*', resourceType: 'Document', requestStage: 'Request'},
];

/** Asking the browser who opened a tab is one round trip; bounded all the same. */
const OPENER_LOOKUP_MS = 2_000;
/** Frames looked up per call at most (each document request of another frame is one). */
const MAX_KNOWN_FRAMES = 1_000;

export class OpenedTabs {
  /** Per frame id: whether it is the main frame of a tab the watched page opened. */
  readonly #opened = new Map<string, Promise<boolean>>();
  /** The URL of each paused request of an opened tab, to name where a redirect came from. */
  readonly #urls = new Map<string, string>();
  readonly #off: () => void;

  private constructor(
    private readonly page: PageState,
    private readonly cdp: CDPSession,
    private readonly check: TabNavigationCheck,
  ) {
    this.#off = onEvent(cdp, 'Fetch.requestPaused', event => void this.#paused(event));
  }

  /** Starts watching; rejects (the caller fails closed) if the browser target cannot pause. */
  static async watch(
    page: PageState,
    check: TabNavigationCheck,
    setupMs: number,
  ): Promise<OpenedTabs> {
    const cdp = await withTimeout(
      page.page.browser().target().createCDPSession(),
      setupMs,
      'opening a cdp for the browser timed out',
    );
    const tabs = new OpenedTabs(page, cdp, check);
    try {
      await withTimeout(
        cdp.send('Fetch.enable', {patterns: DOCUMENTS}),
        setupMs,
        'Fetch.enable at the browser timed out',
      );
    } catch (error) {
      await tabs.release();
      throw error;
    }
    return tabs;
  }

  async #paused(event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    const {requestId} = event;
    let refusal: string | undefined;
    if (event.resourceType === 'Document' && (await this.#openedByPage(event.frameId))) {
      const redirectedFrom =
        event.redirectedRequestId === undefined
          ? undefined
          : this.#urls.get(event.redirectedRequestId);
      if (this.#urls.size >= MAX_KNOWN_FRAMES) {
        this.#urls.clear();
      }
      this.#urls.set(requestId, event.request.url);
      refusal = this.check(event.request.url, redirectedFrom);
    }
    const answer =
      refusal === undefined
        ? this.cdp.send('Fetch.continueRequest', {requestId})
        : this.cdp.send('Fetch.failRequest', {requestId, errorReason: 'Aborted'});
    await answer.catch(() => undefined);
  }

  /** Whether `frameId` is the main frame of a tab the watched page opened (asked once each). */
  #openedByPage(frameId: string): Promise<boolean> {
    if (frameId === this.page.mainFrameId) {
      return Promise.resolve(false);
    }
    let known = this.#opened.get(frameId);
    if (known === undefined) {
      // A tab's main frame has its target's id; another frame is no target (the lookup fails).
      known = withTimeout(
        this.cdp.send('Target.getTargetInfo', {targetId: frameId}),
        OPENER_LOOKUP_MS,
        'Target.getTargetInfo timed out',
      ).then(
        ({targetInfo}) => targetInfo.type === 'page' && targetInfo.openerId === this.page.targetId,
        () => false,
      );
      if (this.#opened.size < MAX_KNOWN_FRAMES) {
        this.#opened.set(frameId, known);
      }
    }
    return known;
  }

  async release(): Promise<void> {
    const {cdp} = this;
    // Still answering until interception is off: a request paused now must not hang.
    await withTimeout(cdp.send('Fetch.disable'), OPENER_LOOKUP_MS, 'Fetch.disable').catch(
      () => undefined,
    );
    this.#off();
    await withTimeout(cdp.detach(), OPENER_LOOKUP_MS, 'detach').catch(() => undefined);
  }
}
