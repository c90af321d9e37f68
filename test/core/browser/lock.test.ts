import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {
  Mutex,
  ReadWriteLock,
  Semaphore,
  abortable,
  withTimeout,
} from '../../../src/core/browser/lock.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** Settles the promise callbacks queued so far (fake timers do not run microtasks by themselves). */
async function flush(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
}

describe('ReadWriteLock', () => {
  it('grants shared holders together and an exclusive one only after all of them', async () => {
    const lock = new ReadWriteLock('The browser');
    const first = await lock.acquireShared('list_pages', 1000);
    const second = await lock.acquireShared('list_pages', 1000);
    let exclusiveGranted = false;
    const exclusive = lock.acquireExclusive('close_page', 1000).then(release => {
      exclusiveGranted = true;
      return release;
    });
    await flush();
    expect(exclusiveGranted).toBe(false);
    expect(lock.waiting).toBe(1);
    first();
    await flush();
    expect(exclusiveGranted).toBe(false);
    second();
    await flush();
    expect(exclusiveGranted).toBe(true);
    (await exclusive)();
    expect(lock.busyWith).toEqual([]);
  });

  it('keeps a label while another holder of the same name still holds the lock', async () => {
    const lock = new ReadWriteLock('The browser');
    const first = await lock.acquireShared('list_pages', 1000);
    const second = await lock.acquireShared('list_pages', 1000);
    first();
    expect(lock.busyWith).toEqual(['list_pages']);
    const waiting = lock.acquireExclusive('close_page', 5000);
    const failure = waiting.then(
      () => 'granted',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(await failure).toBe(
      'The browser is still busy with list_pages after 5 s. Retry when it finishes, or work on another page (new_page).',
    );
    second();
    expect(lock.busyWith).toEqual([]);
  });

  it('names the holders at the end of the wait, not those at its start', async () => {
    const lock = new Mutex('Page 3');
    const first = await lock.acquire('click', 1000);
    const queuedBehindClick = lock.acquire('hover', 10_000).then(release => release);
    const timedOut = lock.acquire('fill', 3000).catch((error: unknown) => error);
    first();
    await flush();
    const hover = await queuedBehindClick;
    expect(lock.busyWith).toEqual(['hover']);
    await vi.advanceTimersByTimeAsync(3000);
    const error = await timedOut;
    expect(error).toBeInstanceOf(Error);
    expect(error instanceof Error ? error.message : '').toContain('busy with hover after 3 s');
    hover();
  });

  it('lets a waiting writer go before readers that came after it', async () => {
    const lock = new ReadWriteLock('The browser');
    const reader = await lock.acquireShared('list_pages', 1000);
    const order: string[] = [];
    const writer = lock.acquireExclusive('new_page', 1000).then(release => {
      order.push('writer');
      return release;
    });
    const lateReader = lock.acquireShared('list_pages', 1000).then(release => {
      order.push('late reader');
      return release;
    });
    reader();
    await flush();
    expect(order).toEqual(['writer']);
    (await writer)();
    await flush();
    expect(order).toEqual(['writer', 'late reader']);
    (await lateReader)();
  });

  it('stops waiting when the signal aborts, and the next waiter still gets the lock', async () => {
    const lock = new Mutex('Page 1');
    const held = await lock.acquire('wait_for', 1000);
    const controller = new AbortController();
    const cancelled = lock
      .acquire('click', 10_000, controller.signal)
      .catch((error: unknown) => error);
    const next = lock.acquire('hover', 10_000);
    controller.abort(new Error('The call was cancelled by the client.'));
    const error = await cancelled;
    expect(error instanceof Error ? error.message : '').toBe(
      'The call was cancelled by the client.',
    );
    expect(lock.waiting).toBe(1);
    held();
    const release = await next;
    expect(lock.busyWith).toEqual(['hover']);
    release();
  });

  it('refuses at once when the signal is already aborted', async () => {
    const lock = new Mutex('Page 1');
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(lock.acquire('click', 1000, controller.signal)).rejects.toThrow('gone');
    expect(lock.waiting).toBe(0);
  });

  it('treats a second release as a no-op', async () => {
    const lock = new ReadWriteLock('The browser');
    const first = await lock.acquireShared('a', 1000);
    const second = await lock.acquireShared('a', 1000);
    first();
    first();
    expect(lock.busyWith).toEqual(['a']);
    let granted = false;
    void lock.acquireExclusive('b', 1000).then(() => (granted = true));
    await flush();
    expect(granted).toBe(false);
    second();
    await flush();
    expect(granted).toBe(true);
  });
});

describe('Semaphore', () => {
  it('admits `size` holders, queues the rest in order, and times a waiter out', async () => {
    const tabs = new Semaphore('Opening tabs', 2);
    const a = await tabs.acquire(1000);
    const b = await tabs.acquire(1000);
    const order: string[] = [];
    const c = tabs.acquire(5000).then(release => {
      order.push('c');
      return release;
    });
    const d = tabs.acquire(2000).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2000);
    const error = await d;
    expect(error instanceof Error ? error.message : '').toBe(
      'Opening tabs is still busy after 2 s. Retry in a moment.',
    );
    a();
    await flush();
    expect(order).toEqual(['c']);
    b();
    (await c)();
    // Both slots are free again.
    const e = await tabs.acquire(10);
    const f = await tabs.acquire(10);
    e();
    f();
  });
});

describe('withTimeout and abortable', () => {
  it('withTimeout rejects with the message after the deadline and resolves before it', async () => {
    const slow = new Promise<string>(resolve => setTimeout(() => resolve('late'), 5000));
    const timed = withTimeout(slow, 1000, 'Took too long.').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1000);
    const error = await timed;
    expect(error instanceof Error ? error.message : '').toBe('Took too long.');
    await expect(withTimeout(Promise.resolve('soon'), 1000, 'x')).resolves.toBe('soon');
  });

  it('abortable stops waiting on abort and leaves no unhandled rejection behind', async () => {
    const controller = new AbortController();
    let fail: (error: Error) => void = () => undefined;
    const work = new Promise<string>((_, reject) => (fail = reject));
    const waiting = abortable(work, controller.signal).catch((error: unknown) => error);
    controller.abort(new Error('stop'));
    const error = await waiting;
    expect(error instanceof Error ? error.message : '').toBe('stop');
    fail(new Error('the target closed'));
    await flush();
    await expect(abortable(Promise.resolve(3), undefined)).resolves.toBe(3);
  });
});
