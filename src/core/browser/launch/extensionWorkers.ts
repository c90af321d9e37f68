/**
 * Extension service workers as tools address them: `sw-N` ids (chrome-devtools-mcp's form) that
 * are never reused, not even across browser restarts, so a stale id fails instead of reaching
 * another worker.
 */
import {
  TargetType,
  type Browser,
  type CDPSession,
  type ConsoleMessage,
  type Protocol,
  type Target,
} from 'puppeteer-core';
import {withTimeout} from '../lock.js';

export const EXTENSION_URL_PREFIX = 'chrome-extension://';

export interface ExtensionWorker {
  id: string;
  url: string;
  target: Target;
}

/** One console message of an extension service worker. */
export interface WorkerConsoleEntry {
  id: number;
  type: string;
  text: string;
  argCount: number;
}

/** Messages kept per worker: the newest win, as in chrome-devtools-mcp. */
const MAX_WORKER_MESSAGES = 1000;

let nextWorkerId = 1;

/**
 * How long a worker has to answer a trivial evaluation before code is sent to it. A running one
 * answers in milliseconds; one the browser stopped never does, and code sent to it would wait
 * for the whole script timeout.
 */
const WORKER_PROBE_MS = 3_000;

export class ExtensionWorkers {
  readonly #ids = new Map<Target, string>();
  /** Cdps opened again to workers whose first one closed (a stop and a start). */
  readonly #reopened = new Map<Target, CDPSession>();
  readonly #messages = new Map<Target, WorkerConsoleEntry[]>();
  #nextMessageId = 1;

  /** Collects the console of every extension service worker of this browser from now on. */
  attach(browser: Browser): void {
    const onTarget = (target: Target): void => {
      if (
        target.type() === TargetType.SERVICE_WORKER &&
        target.url().startsWith(EXTENSION_URL_PREFIX)
      ) {
        void this.#subscribe(target).catch(() => undefined);
      }
    };
    browser.on('targetcreated', onTarget);
    browser.on('targetdestroyed', target => {
      this.#messages.delete(target);
      this.#reopened.delete(target);
    });
    for (const target of browser.targets()) {
      onTarget(target);
    }
  }

  async #subscribe(target: Target): Promise<void> {
    if (this.#messages.has(target)) {
      return;
    }
    const entries: WorkerConsoleEntry[] = [];
    this.#messages.set(target, entries);
    const add = (type: string, text: string, argCount: number): void => {
      entries.push({id: this.#nextMessageId++, type, text, argCount});
      if (entries.length > MAX_WORKER_MESSAGES) {
        entries.shift();
      }
    };
    const worker = await target.worker();
    if (!worker) {
      return;
    }
    worker.on('console', (message: ConsoleMessage) => {
      add(message.type(), message.text(), message.args().length);
    });
    worker.client.on('Runtime.exceptionThrown', (event: Protocol.Runtime.ExceptionThrownEvent) => {
      const details = event.exceptionDetails;
      add('error', details.exception?.description ?? details.text, 1);
    });
  }

  /** Console messages of one worker (by its sw-N id), oldest first; undefined if it is gone. */
  consoleOf(browser: Browser | undefined, id: string): WorkerConsoleEntry[] | undefined {
    const worker = this.find(browser, id);
    return worker ? [...(this.#messages.get(worker.target) ?? [])] : undefined;
  }

  /** The extension service workers running now, in the order they were first seen. */
  list(browser: Browser | undefined): ExtensionWorker[] {
    const targets = (browser?.targets() ?? []).filter(
      target =>
        target.type() === TargetType.SERVICE_WORKER &&
        target.url().startsWith(EXTENSION_URL_PREFIX),
    );
    const current = new Set(targets);
    for (const target of this.#ids.keys()) {
      if (!current.has(target)) {
        this.#ids.delete(target);
      }
    }
    return targets.map(target => {
      let id = this.#ids.get(target);
      if (id === undefined) {
        id = `sw-${nextWorkerId++}`;
        this.#ids.set(target, id);
      }
      return {id, url: target.url(), target};
    });
  }

  /**
   * A cdp to the worker that is ready to run code now. A service worker the browser stopped
   * and started again while this server held a cdp to it waits at its start for a debugger
   * (puppeteer resumes only the workers it attached itself), with no timer or fetch running: it
   * is resumed here. One that does not answer at all (stopped: the browser stops idle extension
   * workers, or replaced by a reload) is refused at once with what to do, instead of letting the
   * script wait out its whole timeout.
   */
  async runningCdp(worker: ExtensionWorker): Promise<CDPSession> {
    const notRunning = (why: string): Error =>
      new Error(
        `The service worker ${worker.id} (${worker.url}) ${why}: the browser stopped it (it stops idle extension workers) or a reload replaced it. Wake it by using the extension (trigger_extension_action, or open one of its pages), call list_pages for its current id, and retry.`,
      );
    const cdp = await this.#cdpOf(worker.target);
    if (cdp === undefined) {
      throw notRunning('is gone');
    }
    await withTimeout(
      cdp.send('Runtime.runIfWaitingForDebugger'),
      WORKER_PROBE_MS,
      'Runtime.runIfWaitingForDebugger',
    ).catch(() => undefined);
    const answered = await withTimeout(
      cdp.send('Runtime.evaluate', {expression: '0', returnByValue: true}),
      WORKER_PROBE_MS,
      'the worker did not answer',
    ).then(
      () => true,
      () => false,
    );
    if (!answered) {
      throw notRunning(`did not answer within ${WORKER_PROBE_MS / 1000} s`);
    }
    return cdp;
  }

  /** The worker's open cdp: puppeteer's, or one opened again when that one closed. */
  async #cdpOf(target: Target): Promise<CDPSession | undefined> {
    const handle = await withTimeout(
      target.worker(),
      WORKER_PROBE_MS,
      'reading the worker timed out',
    ).catch(() => null);
    if (handle && !handle.client.detached) {
      return handle.client;
    }
    const reopened = this.#reopened.get(target);
    if (reopened && !reopened.detached) {
      return reopened;
    }
    const fresh = await withTimeout(
      target.createCDPSession(),
      WORKER_PROBE_MS,
      'opening a cdp for the worker timed out',
    ).catch(() => undefined);
    if (fresh) {
      this.#reopened.set(target, fresh);
    }
    return fresh;
  }

  find(browser: Browser | undefined, id: string): ExtensionWorker | undefined {
    return this.list(browser).find(worker => worker.id === id);
  }
}
