/**
 * Extension service workers as tools address them: `sw-N` ids (chrome-devtools-mcp's form) that
 * are never reused, not even across browser restarts, so a stale id fails instead of reaching
 * another worker.
 */
import {
  TargetType,
  type Browser,
  type ConsoleMessage,
  type Protocol,
  type Target,
} from 'puppeteer-core';

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

export class ExtensionWorkers {
  readonly #ids = new Map<Target, string>();
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
    browser.on('targetdestroyed', target => this.#messages.delete(target));
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

  find(browser: Browser | undefined, id: string): ExtensionWorker | undefined {
    return this.list(browser).find(worker => worker.id === id);
  }
}
