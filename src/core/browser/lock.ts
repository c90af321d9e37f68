/**
 * Serialization primitives for tool calls: a mutex per page and a readers–writer lock for the
 * browser. Every wait is bounded and can be abandoned through an AbortSignal, so a stuck call can
 * never lock everyone out (chrome-devtools-mcp #2459 / #2426 were lockouts of a global mutex).
 */

class LockTimeoutError extends Error {}

/** A call waits at most this long for another call on the same page (or the browser) to finish. */
export const LOCK_WAIT_MS = 45_000;

interface Waiter {
  exclusive: boolean;
  grant: () => void;
}

export type Release = () => void;

export class ReadWriteLock {
  #readers = 0;
  #writer = false;
  #queue: Waiter[] = [];
  /** What currently holds the lock, for "busy" error messages: label → how many holders carry it. */
  readonly #holders = new Map<string, number>();

  constructor(readonly name: string) {}

  get busyWith(): string[] {
    return [...this.#holders.keys()];
  }

  /** How many calls wait for the lock now. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Shared access: any number of shared holders at once, none while an exclusive holder runs. */
  acquireShared(label: string, timeoutMs: number, signal?: AbortSignal): Promise<Release> {
    return this.#acquire(false, label, timeoutMs, signal);
  }

  acquireExclusive(label: string, timeoutMs: number, signal?: AbortSignal): Promise<Release> {
    return this.#acquire(true, label, timeoutMs, signal);
  }

  #canGrant(exclusive: boolean): boolean {
    if (exclusive) {
      return !this.#writer && this.#readers === 0;
    }
    // Writers waiting first keep readers from starving them.
    return !this.#writer && !this.#queue.some(w => w.exclusive);
  }

  #take(exclusive: boolean, label: string): Release {
    if (exclusive) {
      this.#writer = true;
    } else {
      this.#readers++;
    }
    this.#holders.set(label, (this.#holders.get(label) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      const count = this.#holders.get(label) ?? 0;
      if (count > 1) {
        this.#holders.set(label, count - 1);
      } else {
        this.#holders.delete(label);
      }
      if (exclusive) {
        this.#writer = false;
      } else {
        this.#readers--;
      }
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#queue.length > 0) {
      const next = this.#queue[0];
      if (!next) {
        return;
      }
      const free = next.exclusive ? !this.#writer && this.#readers === 0 : !this.#writer;
      if (!free) {
        return;
      }
      this.#queue.shift();
      next.grant();
      if (next.exclusive) {
        return;
      }
    }
  }

  #acquire(
    exclusive: boolean,
    label: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Release> {
    if (signal?.aborted) {
      // A rejected promise, not a throw: callers may hold the promise before awaiting it.
      return Promise.reject(abortReason(signal));
    }
    if (this.#canGrant(exclusive) && this.#queue.length === 0) {
      return Promise.resolve(this.#take(exclusive, label));
    }
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        exclusive,
        grant: () => {
          cleanup();
          resolve(this.#take(exclusive, label));
        },
      };
      const remove = (): void => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) {
          this.#queue.splice(index, 1);
          this.#drain();
        }
      };
      const timer = setTimeout(() => {
        remove();
        cleanup();
        // Named when the wait ends: the holders then are the ones that kept this call out.
        const busy = this.busyWith.join(', ') || 'another call';
        reject(
          new LockTimeoutError(
            `${this.name} is still busy with ${busy} after ${Math.round(timeoutMs / 1000)} s. Retry when it finishes, or work on another page (new_page).`,
          ),
        );
      }, timeoutMs);
      const onAbort = (): void => {
        remove();
        cleanup();
        reject(signal ? abortReason(signal) : new Error('Cancelled'));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, {once: true});
      this.#queue.push(waiter);
    });
  }
}

/** A mutex is a readers–writer lock used only exclusively. */
export class Mutex {
  readonly #lock: ReadWriteLock;

  constructor(name: string) {
    this.#lock = new ReadWriteLock(name);
  }

  get busyWith(): string[] {
    return this.#lock.busyWith;
  }

  get waiting(): number {
    return this.#lock.waiting;
  }

  acquire(label: string, timeoutMs: number, signal?: AbortSignal): Promise<Release> {
    return this.#lock.acquireExclusive(label, timeoutMs, signal);
  }
}

/** At most `size` holders at once; waiting is bounded like the locks'. */
export class Semaphore {
  #free: number;
  readonly #queue: (() => void)[] = [];

  constructor(
    readonly name: string,
    size: number,
  ) {
    this.#free = size;
  }

  acquire(timeoutMs: number): Promise<Release> {
    const take = (): Release => {
      let released = false;
      return () => {
        if (released) {
          return;
        }
        released = true;
        const next = this.#queue.shift();
        if (next) {
          next();
        } else {
          this.#free++;
        }
      };
    };
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(take());
    }
    return new Promise<Release>((resolve, reject) => {
      const grant = (): void => {
        clearTimeout(timer);
        resolve(take());
      };
      const timer = setTimeout(() => {
        const index = this.#queue.indexOf(grant);
        if (index >= 0) {
          this.#queue.splice(index, 1);
        }
        reject(
          new LockTimeoutError(
            `${this.name} is still busy after ${Math.round(timeoutMs / 1000)} s. Retry in a moment.`,
          ),
        );
      }, timeoutMs);
      this.#queue.push(grant);
    });
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('Cancelled');
}

/** Runs `work` with a deadline; the timer never keeps the process alive. */
export async function withTimeout<T>(
  work: Promise<T>,
  timeoutMs: number,
  message: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Stops waiting for `work` when the signal aborts (the work itself may go on, detached). */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) {
    return work;
  }
  // The work may still fail after we stop waiting (e.g. its target closes): that is expected, not
  // an unhandled rejection.
  work.catch(() => undefined);
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, {once: true});
    work.then(
      value => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
