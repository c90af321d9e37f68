/**
 * Settling after an action: if the action started a navigation, wait for it to load; if it changed
 * the DOM, wait until the DOM has been quiet for a moment; if it did neither, return at once. There
 * is no fixed delay, so a click that changes nothing costs two round trips, not 100 ms.
 */
import type {HTTPRequest, HTTPResponse, Protocol} from 'puppeteer-core';
import {onEvent} from './cdp.js';
import {evaluateInPage, inPage, PROBE_TIMEOUT_MS} from './evaluation.js';
import type {OpenDialog, PageState} from './PageState.js';

const COUNTER_KEY = 'mcp-browser-inspector.mutations';

/** Installs (once per document) a mutation counter and returns {n, t}: count and last change time. */
const READ_COUNTER = `(() => {
  const key = Symbol.for(${JSON.stringify(COUNTER_KEY)});
  let state = globalThis[key];
  if (!state) {
    state = {n: 0, t: 0};
    new MutationObserver(records => { state.n += records.length; state.t = performance.now(); })
      .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    Object.defineProperty(globalThis, key, {value: state});
  }
  return state.n;
})()`;

/** After one macrotask (lets setTimeout(0) and promise reactions run), the mutation count. */
const PROBE_COUNTER = `new Promise(resolve => setTimeout(() => {
  const state = globalThis[Symbol.for(${JSON.stringify(COUNTER_KEY)})];
  resolve(state ? state.n : -1);
}, 0))`;

function waitQuietExpression(quietMs: number, maxMs: number): string {
  return `new Promise(resolve => {
    const state = globalThis[Symbol.for(${JSON.stringify(COUNTER_KEY)})];
    if (!state) { resolve(0); return; }
    const start = performance.now();
    const check = () => {
      const now = performance.now();
      const idle = now - state.t;
      if (idle >= ${quietMs} || now - start >= ${maxMs}) { resolve(now - start); return; }
      setTimeout(check, Math.max(1, ${quietMs} - idle));
    };
    check();
  })`;
}

export interface SettleOptions {
  signal?: AbortSignal | undefined;
  /** How long to wait for a navigation the action started (default 3 s, like chrome-devtools-mcp). */
  navigationTimeoutMs?: number | undefined;
  /** Cap on waiting for the DOM to go quiet. */
  domTimeoutMs?: number | undefined;
  /** Quiet period that counts as settled. */
  quietMs?: number | undefined;
  waitForDom?: boolean | undefined;
  /**
   * What to do with a dialog the action opens: by default the wait ends and the dialog is reported;
   * a function handles it instead (evaluate_script accepts dialogs) and the wait goes on.
   */
  onDialog?: ((dialog: OpenDialog) => Promise<void>) | undefined;
  /** Cap on waiting for fetch/XHR requests the action started (default: the navigation timeout). */
  requestTimeoutMs?: number | undefined;
}

export interface SettleOutcome<T> {
  /** Undefined when a dialog opened before the action finished. */
  value: T | undefined;
  /** Set when the main frame moved to another URL. */
  navigatedTo?: string;
  /** Set when the action opened a JavaScript dialog (the page is blocked until it is handled). */
  dialog?: OpenDialog;
}

class NavigationWatch {
  requested = false;
  committed = false;
  ended = false;
  #wake: (() => void) | undefined;
  readonly #off: (() => void)[] = [];

  constructor(state: PageState) {
    const session = state.session;
    const isMain = (frameId: string): boolean => frameId === state.mainFrameId;
    const onRequested = (event: Protocol.Page.FrameRequestedNavigationEvent): void => {
      if (isMain(event.frameId) && event.disposition === 'currentTab') {
        this.requested = true;
      }
    };
    const onStarted = (event: Protocol.Page.FrameStartedNavigatingEvent): void => {
      if (isMain(event.frameId) && event.navigationType !== 'sameDocument') {
        this.requested = true;
      }
    };
    const onNavigated = (event: Protocol.Page.FrameNavigatedEvent): void => {
      if (isMain(event.frame.id) && event.type === 'Navigation') {
        this.committed = true;
      }
    };
    const onSameDocument = (event: Protocol.Page.NavigatedWithinDocumentEvent): void => {
      if (isMain(event.frameId)) {
        this.#end();
      }
    };
    const onLoad = (): void => {
      if (this.committed) {
        this.#end();
      }
    };
    const onStopped = (event: Protocol.Page.FrameStoppedLoadingEvent): void => {
      if (isMain(event.frameId) && this.started) {
        this.#end();
      }
    };
    this.#off.push(
      onEvent(session, 'Page.frameRequestedNavigation', onRequested),
      onEvent(session, 'Page.frameStartedNavigating', onStarted),
      onEvent(session, 'Page.frameNavigated', onNavigated),
      onEvent(session, 'Page.navigatedWithinDocument', onSameDocument),
      onEvent(session, 'Page.loadEventFired', onLoad),
      onEvent(session, 'Page.frameStoppedLoading', onStopped),
    );
  }

  get started(): boolean {
    return this.requested || this.committed;
  }

  #end(): void {
    this.ended = true;
    this.#wake?.();
  }

  waitForEnd(
    timeoutMs: number,
    signal: AbortSignal | undefined,
    dialog: Promise<unknown>,
  ): Promise<void> {
    if (this.ended) {
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

/** fetch/XHR requests the page starts while an action runs, until they finish. */
class RequestTracker {
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

/** Over puppeteer's own session (see the probe in actAndSettle); bounded and raced against dialogs. */
async function evaluateOnPageSession(state: PageState, expression: string): Promise<number> {
  const value: unknown = await inPage(state, () => state.page.evaluate(expression), {
    timeoutMs: PROBE_TIMEOUT_MS,
  });
  return typeof value === 'number' ? value : -1;
}

async function evaluateNumber(
  state: PageState,
  expression: string,
  awaitPromise: boolean,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<number> {
  const result = await evaluateInPage(
    state,
    {expression, awaitPromise, returnByValue: true},
    {timeoutMs},
  );
  const value: unknown = result.result.value;
  return typeof value === 'number' ? value : -1;
}

/** Runs `action` on the page and waits until what it started has finished (bounded). */
export async function actAndSettle<T>(
  state: PageState,
  action: () => Promise<T>,
  options: SettleOptions = {},
): Promise<SettleOutcome<T>> {
  const navigationTimeoutMs = options.navigationTimeoutMs ?? 3_000;
  const domTimeoutMs = options.domTimeoutMs ?? 3_000;
  const quietMs = options.quietMs ?? 50;
  const urlBefore = state.page.url();
  const watch = new NavigationWatch(state);
  const requests = new RequestTracker(state);
  let dialogSeen: OpenDialog | undefined;
  let stopDialogWatch: () => void = () => undefined;
  const dialogOpened = new Promise<'dialog'>(resolve => {
    stopDialogWatch = state.onDialog(dialog => {
      const handler = options.onDialog;
      if (handler) {
        void handler(dialog).catch(() => undefined);
        return;
      }
      dialogSeen = dialog;
      resolve('dialog');
    });
  });
  try {
    const before = await evaluateNumber(state, READ_COUNTER, false).catch(() => -1);
    const acted = action().then(value => ({value}));
    // If a dialog wins the race, the action may still fail later: that must not go unhandled.
    acted.catch(() => undefined);
    const raced = await Promise.race([acted, dialogOpened]);
    if (raced === 'dialog') {
      return {value: undefined, ...outcomeExtras(state, urlBefore, dialogSeen)};
    }
    const value = raced.value;
    if (!watch.started) {
      // The probe goes over puppeteer's own session, the one that reports requests, so a fetch the
      // action started is seen before the probe's answer even on a busy machine.
      const probe = (): Promise<number> =>
        Promise.race([
          evaluateOnPageSession(state, PROBE_COUNTER).catch(() => -2),
          dialogOpened.then(() => -3),
        ]);
      let after = await probe();
      if (after === -3) {
        return {value, ...outcomeExtras(state, urlBefore, dialogSeen)};
      }
      // A fetch the action started usually renders its answer: wait for it, then look again.
      if (requests.pending > 0 && options.waitForDom !== false && !navigationStarted(watch)) {
        await Promise.race([
          requests.idle(options.requestTimeoutMs ?? navigationTimeoutMs),
          dialogOpened,
        ]);
        if (dialogSeen) {
          return {value, ...outcomeExtras(state, urlBefore, dialogSeen)};
        }
        if (!navigationStarted(watch)) {
          after = await probe();
        }
      }
      if (
        !navigationStarted(watch) &&
        options.waitForDom !== false &&
        after !== before &&
        after >= 0 &&
        before >= 0
      ) {
        await Promise.race([
          evaluateNumber(
            state,
            waitQuietExpression(quietMs, domTimeoutMs),
            true,
            domTimeoutMs + 1_000,
          ).catch(() => -1),
          dialogOpened,
        ]);
      }
    }
    if (watch.started && !dialogSeen) {
      await watch.waitForEnd(navigationTimeoutMs, options.signal, dialogOpened);
    }
    return {value, ...outcomeExtras(state, urlBefore, dialogSeen)};
  } finally {
    requests.dispose();
    watch.dispose();
    stopDialogWatch();
  }
}

/** Read through a call so flow analysis does not assume it cannot change across awaits. */
function navigationStarted(watch: NavigationWatch): boolean {
  return watch.started;
}

function outcomeExtras(
  state: PageState,
  urlBefore: string,
  dialog: OpenDialog | undefined,
): {navigatedTo?: string; dialog?: OpenDialog} {
  const urlAfter = state.page.url();
  return {
    ...(urlAfter !== urlBefore ? {navigatedTo: urlAfter} : {}),
    ...(dialog ? {dialog} : {}),
  };
}

/**
 * After a load: if the page is still changing its DOM (scripts rendering after load), wait until it
 * has been quiet for a moment; a static page costs two short round trips.
 */
export async function settleDom(
  state: PageState,
  options: {signal?: AbortSignal; quietMs?: number; maxMs?: number} = {},
): Promise<void> {
  const quietMs = options.quietMs ?? 50;
  const maxMs = options.maxMs ?? 3_000;
  try {
    const before = await evaluateNumber(state, READ_COUNTER, false);
    const after = await evaluateNumber(state, PROBE_COUNTER, true);
    if (before >= 0 && after > before && !options.signal?.aborted) {
      await evaluateNumber(state, waitQuietExpression(quietMs, maxMs), true, maxMs + 1_000);
    }
  } catch {
    // A document that navigates away or blocks on a dialog is settled as far as we can tell.
  }
}
