/**
 * Network requests of one page, per navigation, from puppeteer's request events (its Network
 * domain is already on). At most 1,000 requests per navigation are kept, oldest dropped first;
 * the request that loads a new document (and its redirect hops) moves to that new navigation.
 * Collecting costs one small object per request; listing never calls the browser.
 */
import type {HTTPRequest, Protocol} from 'puppeteer-core';
import type {PageState} from '../pages/PageState.js';
import {NavigationLog, PRESERVED_NAVIGATIONS} from './NavigationLog.js';

/** chrome-devtools-mcp's cap. */
export const MAX_REQUESTS_PER_NAVIGATION = 1_000;

/** `200`, the failure text, or `pending`. */
export function requestStatus(request: HTTPRequest): string {
  const response = request.response();
  if (response) {
    return String(response.status());
  }
  return request.failure()?.errorText ?? 'pending';
}

export class NetworkEntry {
  /** Loading finished or failed: the body (if any) can be fetched without waiting. */
  settled = false;

  constructor(
    readonly id: number,
    readonly request: HTTPRequest,
  ) {}

  status(): string {
    return requestStatus(this.request);
  }
}

function isMainFrameNavigation(request: HTTPRequest): boolean {
  if (!request.isNavigationRequest()) {
    return false;
  }
  const frame = request.frame();
  return frame !== null && frame.parentFrame() === null;
}

export class NetworkCollector {
  readonly log: NavigationLog<NetworkEntry>;
  readonly #byRequest = new WeakMap<HTTPRequest, NetworkEntry>();
  readonly #unsubscribe: (() => void)[] = [];

  constructor(state: PageState) {
    this.log = new NavigationLog<NetworkEntry>({
      perNavigationLimit: MAX_REQUESTS_PER_NAVIGATION,
      preservedNavigations: PRESERVED_NAVIGATIONS,
    });
    const page = state.page;
    const onRequest = (request: HTTPRequest): void => {
      const entry = new NetworkEntry(this.log.allocateId(), request);
      this.#byRequest.set(request, entry);
      this.log.add(entry);
    };
    // A request's status shows in listings: its response and its end change them.
    const onResponse = (): void => {
      this.log.touch();
    };
    const onSettled = (request: HTTPRequest): void => {
      this.log.touch();
      const entry = this.#byRequest.get(request);
      if (entry) {
        entry.settled = true;
      }
    };
    page.on('request', onRequest);
    page.on('response', onResponse);
    page.on('requestfinished', onSettled);
    page.on('requestfailed', onSettled);
    this.#unsubscribe.push(() => {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfinished', onSettled);
      page.off('requestfailed', onSettled);
    });

    const onNavigated = (event: Protocol.Page.FrameNavigatedEvent): void => {
      if (event.frame.parentId === undefined) {
        this.log.startNavigation(entries => this.#navigationStart(entries));
      }
    };
    state.cdp.on('Page.frameNavigated', onNavigated);
    this.#unsubscribe.push(() => state.cdp.off('Page.frameNavigated', onNavigated));
  }

  /** Index of the first request of the committed document: its navigation request, or its first redirect hop. */
  #navigationStart(entries: readonly NetworkEntry[]): number {
    let index = -1;
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i];
      if (entry && isMainFrameNavigation(entry.request)) {
        index = i;
        break;
      }
    }
    const navigation = entries[index];
    if (!navigation) {
      return -1;
    }
    const firstHop = navigation.request.redirectChain()[0];
    if (firstHop) {
      for (let i = index - 1; i >= 0; i--) {
        if (entries[i]?.request === firstHop) {
          return i;
        }
      }
    }
    return index;
  }

  entries(includePreserved: boolean): readonly NetworkEntry[] {
    return this.log.entries(includePreserved);
  }

  find(id: number): NetworkEntry | undefined {
    return this.log.find(id);
  }

  /** The id of a request this collector saw (redirect hops), if still kept. */
  idOf(request: HTTPRequest): number | undefined {
    return this.#byRequest.get(request)?.id;
  }

  dispose(): void {
    for (const unsubscribe of this.#unsubscribe) {
      unsubscribe();
    }
  }
}
