/**
 * What an action may start that settling waits for: a navigation of the top document or of the
 * frame document the action acted in, and fetch/XHR requests of any frame of the page.
 */
import type {CDPSession, HTTPRequest, HTTPResponse, Protocol} from 'puppeteer-core';
import {onEvent} from '../cdp.js';
import type {PageState} from '../pages/PageState.js';

/** A frame document the action acted in (besides the top one, which is always watched). */
export interface WatchedFrame {
  cdp: CDPSession;
  frameId: string;
}

/** One navigating document: started, and whether it is done. */
class Navigation {
  started = false;
  committed = false;
  ended = false;
}

/** Navigations the action started, in the top document and in the frames it acted in. */
export class NavigationWatch {
  readonly #navigations: Navigation[] = [];
  #wake: (() => void) | undefined;
  readonly #off: (() => void)[] = [];

  constructor(state: PageState, frames: readonly WatchedFrame[] = []) {
    this.#watch([state.cdp], state.mainFrameId, true);
    for (const frame of frames) {
      // A frame that moves back into the top document's process goes on there.
      const cdps = frame.cdp === state.cdp ? [frame.cdp] : [frame.cdp, state.cdp];
      this.#watch(cdps, frame.frameId, false);
    }
  }

  get started(): boolean {
    return this.#navigations.some(navigation => navigation.started);
  }

  #watch(cdps: readonly CDPSession[], frameId: string, isMain: boolean): void {
    const navigation = new Navigation();
    this.#navigations.push(navigation);
    const end = (): void => {
      navigation.ended = true;
      if (this.#navigations.every(each => !each.started || each.ended)) {
        this.#wake?.();
      }
    };
    for (const cdp of cdps) {
      this.#off.push(
        onEvent(cdp, 'Page.frameRequestedNavigation', event => {
          if (event.frameId === frameId && event.disposition === 'currentTab') {
            navigation.started = true;
          }
        }),
        onEvent(cdp, 'Page.frameStartedNavigating', event => {
          if (event.frameId === frameId && event.navigationType !== 'sameDocument') {
            navigation.started = true;
          }
        }),
        onEvent(cdp, 'Page.frameNavigated', (event: Protocol.Page.FrameNavigatedEvent) => {
          if (event.frame.id === frameId && event.type === 'Navigation') {
            navigation.started = true;
            navigation.committed = true;
          }
        }),
        onEvent(cdp, 'Page.navigatedWithinDocument', event => {
          if (event.frameId === frameId) {
            end();
          }
        }),
        onEvent(cdp, 'Page.frameStoppedLoading', event => {
          if (event.frameId === frameId && navigation.started) {
            end();
          }
        }),
      );
      if (isMain) {
        this.#off.push(
          onEvent(cdp, 'Page.loadEventFired', () => {
            if (navigation.committed) {
              end();
            }
          }),
        );
      }
    }
  }

  /** Resolves when every navigation that started has ended, the bound passed or the wait is cut. */
  waitForEnd(
    timeoutMs: number,
    signal: AbortSignal | undefined,
    dialog: Promise<unknown>,
  ): Promise<void> {
    if (this.#navigations.every(each => !each.started || each.ended)) {
      return Promise.resolve();
    }
    return new Promise<void>(resolve => {
      const timer = setTimeout(done, timeoutMs);
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      this.#wake = done;
      signal?.addEventListener('abort', done, {once: true});
      void dialog.then(done);
    });
  }

  dispose(): void {
    for (const off of this.#off) {
      off();
    }
  }
}

const BODY_GRACE_MS = 150;

/** fetch/XHR requests the page (any of its frames) starts while an action runs, until they finish. */
export class RequestTracker {
  readonly #pending = new Set<HTTPRequest>();
  #wake: (() => void) | undefined;
  readonly #off: () => void;

  constructor(state: PageState) {
    const page = state.page;
    const onRequest = (request: HTTPRequest): void => {
      const type = request.resourceType();
      if (type === 'fetch' || type === 'xhr') {
        this.#pending.add(request);
      }
    };
    const onDone = (request: HTTPRequest): void => {
      if (this.#pending.delete(request) && this.#pending.size === 0) {
        this.#wake?.();
      }
    };
    const timers = new Set<NodeJS.Timeout>();
    // A body the page never reads may never finish loading: once the headers are in, give the
    // page a short moment to read and render, then stop counting the request.
    const onResponse = (response: HTTPResponse): void => {
      const request = response.request();
      if (this.#pending.has(request)) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          onDone(request);
        }, BODY_GRACE_MS);
        timers.add(timer);
      }
    };
    page.on('request', onRequest);
    page.on('response', onResponse);
    page.on('requestfinished', onDone);
    page.on('requestfailed', onDone);
    this.#off = () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
      for (const timer of timers) {
        clearTimeout(timer);
      }
    };
  }

  get pending(): number {
    return this.#pending.size;
  }

  idle(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0) {
      return Promise.resolve();
    }
    return new Promise(resolve => {
      const timer = setTimeout(done, timeoutMs);
      const wake = (): void => done();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = wake;
    });
  }

  dispose(): void {
    this.#off();
  }
}
