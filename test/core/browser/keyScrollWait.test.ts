/**
 * The in-page wait for a key's scroll to end, frame by frame under a controlled clock: a busy
 * machine draws frames far apart, with clock ticks in between, and each frame must still count
 * once. (The same wait on a real page: actionMechanisms.test.ts, "keys that scroll settle".)
 *
 * Tests: src/injected/keyScroll.ts
 */
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {
  markScrolls,
  waitForScrollEnd,
  type ScrollWaitOutcome,
} from '../../../src/injected/keyScroll.js';

/** A page's frames, drawn when the test says: scroll events first, then the frame callbacks. */
class FakeFrames {
  readonly #listeners = new Map<string, (() => void)[]>();
  #callbacks: (() => void)[] = [];
  /** Scroll events the next frame dispatches (set by a scroll between frames). */
  #pendingScroll = false;
  #pendingEnd = false;

  /** The tab's visibility (document.visibilityState). */
  visibility: DocumentVisibilityState = 'visible';

  install(): void {
    vi.stubGlobal('document', {
      get visibilityState(): DocumentVisibilityState {
        return frames.visibility;
      },
    });
    vi.stubGlobal('addEventListener', (type: string, listener: () => void) => {
      this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
    });
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
      this.#callbacks.push(callback);
      return this.#callbacks.length;
    });
  }

  /** Drops the awaited frame callbacks and pending events. */
  reset(): void {
    this.visibility = 'visible';
    this.#callbacks = [];
    this.#pendingScroll = false;
    this.#pendingEnd = false;
  }

  /** The page scrolled (an animation step): its scroll event comes with the next frame. */
  scroll(): void {
    this.#pendingScroll = true;
  }

  /** The scroll ended: scrollend comes with the next frame. */
  end(): void {
    this.#pendingEnd = true;
  }

  /** Lets `ms` of clock time pass (timers fire), then draws one frame. */
  drawAfter(ms: number): void {
    vi.advanceTimersByTime(ms);
    this.#fire(this.#pendingScroll, 'scroll');
    this.#fire(this.#pendingEnd, 'scrollend');
    this.#pendingScroll = false;
    this.#pendingEnd = false;
    const due = this.#callbacks;
    this.#callbacks = [];
    for (const callback of due) {
      callback();
    }
  }

  /** How many frame callbacks wait for the next frame. */
  get awaited(): number {
    return this.#callbacks.length;
  }

  #fire(pending: boolean, type: string): void {
    if (pending) {
      for (const listener of this.#listeners.get(type) ?? []) {
        listener();
      }
    }
  }
}

// One page for the file: the watch is installed once per document and cannot be removed.
const frames = new FakeFrames();

beforeEach(() => {
  vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'performance']});
  frames.install();
});

afterEach(() => {
  // The last test's wait, if still going, stops here: its frame and timers are dropped.
  frames.reset();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Starts a wait and reports its outcome once it has one. */
function startWait(maxMs: number): {outcome: () => ScrollWaitOutcome | undefined} {
  const mark = markScrolls();
  let outcome: ScrollWaitOutcome | undefined;
  void waitForScrollEnd(mark, maxMs).then(reached => {
    outcome = reached;
  });
  return {outcome: () => outcome};
}

/** Lets the wait's promise settle after a frame. */
async function flush(): Promise<void> {
  await Promise.resolve();
  await Promise.resolve();
}

describe('a frame drawn late counts once', () => {
  it('a scroll that starts in the second frame of a slow machine is waited for, not called none', async () => {
    const wait = startWait(10_000);
    // Frames 180 ms apart: the clock ticks three times before each one.
    frames.drawAfter(180);
    expect(frames.awaited).toBe(1);
    frames.scroll();
    frames.drawAfter(180);
    frames.scroll();
    frames.drawAfter(180);
    await flush();
    expect(wait.outcome()).toBeUndefined();
  });

  it('an animation that scrolls every frame, frames 150 ms apart, is still scrolling when the wait runs out', async () => {
    const wait = startWait(3_000);
    for (let elapsed = 0; elapsed < 3_000; elapsed += 150) {
      frames.scroll();
      frames.drawAfter(150);
      await flush();
      if (elapsed < 2_800) {
        expect(wait.outcome(), `after ${elapsed + 150} ms`).toBeUndefined();
      }
    }
    frames.drawAfter(150);
    await flush();
    expect(wait.outcome()).toBe('bounded');
  });

  it('a scroll that stops is called ended after two quiet frames, however slow', async () => {
    const wait = startWait(10_000);
    for (let step = 0; step < 4; step++) {
      frames.scroll();
      frames.drawAfter(200);
    }
    frames.end();
    frames.drawAfter(200);
    await flush();
    expect(wait.outcome()).toBeUndefined();
    frames.drawAfter(200);
    frames.drawAfter(200);
    await flush();
    expect(wait.outcome()).toBe('ended');
  });

  it('no scroll within three frames is none', async () => {
    const wait = startWait(10_000);
    frames.drawAfter(16);
    frames.drawAfter(16);
    await flush();
    expect(wait.outcome()).toBeUndefined();
    frames.drawAfter(16);
    await flush();
    expect(wait.outcome()).toBe('none');
  });

  it('a hidden tab is judged by the clock at once', async () => {
    frames.visibility = 'hidden';
    // The check at the start and each clock tick count: three of them without a scroll.
    const wait = startWait(10_000);
    vi.advanceTimersByTime(50);
    await flush();
    expect(wait.outcome()).toBeUndefined();
    vi.advanceTimersByTime(50);
    await flush();
    expect(wait.outcome()).toBe('none');
  });

  it('a visible tab that draws no frames is judged by the clock after a while', async () => {
    const wait = startWait(10_000);
    vi.advanceTimersByTime(500);
    await flush();
    expect(wait.outcome()).toBeUndefined();
    // Past NO_FRAMES_MS each clock tick stands for a frame: three of them and no scroll is none.
    vi.advanceTimersByTime(150);
    await flush();
    expect(wait.outcome()).toBe('none');
    expect(frames.awaited).toBe(1);
  });
});
