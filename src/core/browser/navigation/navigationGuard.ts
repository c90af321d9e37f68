/**
 * Stops a page's main-frame navigations that a check refuses, before they commit: each document
 * request of the main frame, and each hop of its redirects, is paused (Fetch domain, on a
 * cdp of its own so the page's other Fetch users keep theirs) and either continued or
 * aborted. An aborted navigation commits nothing: the page stays where it was. The tabs the page
 * opens meanwhile (a link with target=_blank, window.open) are checked the same way: their first
 * document and its redirects are paused at the browser target (openedTabs.ts), and a refused one
 * leaves the new tab blank. Used while one tool call runs; requests of frames inside the page go
 * on untouched.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {onEvent} from '../cdp.js';
import {withTimeout} from '../lock.js';
import {OpenedTabs} from '../settle/openedTabs.js';
import {RequestedDocuments} from './requestedDocuments.js';
import type {PageState} from '../pages/PageState.js';

/** Setting the guard up and taking it down are each bounded by this. */
const GUARD_SETUP_MS = 5_000;
/**
 * How long the guard, when the call is done, waits for the request of a document the page asked
 * for meanwhile (it may come a moment after the call answered).
 */
const REQUESTED_WAIT_MS = 1_000;

const DOCUMENTS: Protocol.Fetch.RequestPattern[] = [
  {urlPattern: '*', resourceType: 'Document', requestStage: 'Request'},
];

export interface Navigation {
  url: string;
  /** The URL that redirected here, when this is a redirect's hop. */
  redirectedFrom: string | undefined;
  /** Set when a new tab the page opened navigates (its id in the browser, not a page id yet). */
  newTab?: true;
}

/** The refusal (what the agent is told) of a navigation, or undefined to let it go. */
export type NavigationCheck = (navigation: Navigation) => string | undefined;

export interface NavigationGuard {
  /** False for the guard that lets everything go. */
  readonly active: boolean;
  /** The refusal of a navigation to `url` (a history entry, before going there), if any. */
  check(url: string): string | undefined;
  /** The refusal of the first navigation this guard stopped. */
  readonly stopped: string | undefined;
  release(): Promise<void>;
}

/** A guard that lets everything go (no rule looks at navigations). */
export const OPEN_GUARD: NavigationGuard = {
  active: false,
  check: () => undefined,
  stopped: undefined,
  release: () => Promise.resolve(),
};

export async function guardNavigations(
  page: PageState,
  check: NavigationCheck,
): Promise<NavigationGuard> {
  let cdp: CDPSession | undefined;
  let tabs: OpenedTabs | undefined;
  try {
    cdp = await withTimeout(
      page.page.createCDPSession(),
      GUARD_SETUP_MS,
      'opening a cdp for the page timed out',
    );
    const guard = new PausedNavigations(page, cdp, check);
    await withTimeout(
      cdp.send('Fetch.enable', {patterns: DOCUMENTS}),
      GUARD_SETUP_MS,
      'Fetch.enable timed out',
    );
    tabs = await OpenedTabs.watch(
      page,
      (url, redirectedFrom) => {
        guard.requested.seen(url);
        return guard.decide({url, redirectedFrom, newTab: true});
      },
      GUARD_SETUP_MS,
    );
    guard.tabs = tabs;
    return guard;
  } catch (error) {
    void cdp?.detach().catch(() => undefined);
    void tabs?.release();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `This call's navigations cannot be checked against the hold's URL rules (${reason}), so it did not run. Retry; if it keeps failing, ask the user to change the url: rules in the inspector's Hold tab.`,
      {cause: error},
    );
  }
}

class PausedNavigations implements NavigationGuard {
  readonly active = true;
  stopped: string | undefined;
  /** The tabs the page opens, watched alongside. */
  tabs: OpenedTabs | undefined;
  readonly requested: RequestedDocuments;
  /** The URL of each paused request, to name where a redirect came from. */
  readonly #urls = new Map<string, string>();
  readonly #off: () => void;

  constructor(
    private readonly page: PageState,
    private readonly cdp: CDPSession,
    private readonly navigationCheck: NavigationCheck,
  ) {
    this.#off = onEvent(cdp, 'Fetch.requestPaused', event => this.#paused(event));
    this.requested = new RequestedDocuments(page);
  }

  check(url: string): string | undefined {
    return this.decide({url, redirectedFrom: undefined});
  }

  /** The refusal of a navigation (remembered as the first stopped); a failing check refuses. */
  decide(navigation: Navigation): string | undefined {
    let refusal: string | undefined;
    try {
      refusal = this.navigationCheck(navigation);
    } catch {
      refusal = `The navigation to ${navigation.url} could not be checked against the hold rules, so it was stopped.`;
    }
    this.stopped ??= refusal;
    return refusal;
  }

  #paused(event: Protocol.Fetch.RequestPausedEvent): void {
    const {requestId} = event;
    let refusal: string | undefined;
    if (event.frameId === this.page.mainFrameId && event.resourceType === 'Document') {
      const redirectedFrom =
        event.redirectedRequestId === undefined
          ? undefined
          : this.#urls.get(event.redirectedRequestId);
      // Bounded: a redirect chain names its previous hop only.
      this.#urls.clear();
      this.#urls.set(requestId, event.request.url);
      this.requested.seen(event.request.url);
      refusal = this.decide({url: event.request.url, redirectedFrom});
    }
    if (refusal === undefined) {
      void this.cdp.send('Fetch.continueRequest', {requestId}).catch(() => undefined);
      return;
    }
    void this.cdp
      .send('Fetch.failRequest', {requestId, errorReason: 'Aborted'})
      .catch(() => undefined);
  }

  async release(): Promise<void> {
    await this.requested.settled(REQUESTED_WAIT_MS);
    this.requested.dispose();
    await this.tabs?.release();
    const {cdp} = this;
    // Still answering until interception is off: a request paused now must not hang.
    await withTimeout(cdp.send('Fetch.disable'), GUARD_SETUP_MS, 'Fetch.disable').catch(
      () => undefined,
    );
    this.#off();
    await withTimeout(cdp.detach(), GUARD_SETUP_MS, 'detach').catch(() => undefined);
  }
}
