/**
 * In-page side of press_key's scroll wait (src/core/browser/input/keyScroll.ts): a watch of the
 * top document's scroll events (every scroller in it: they are caught on the way down), and the
 * wait for the scroll a key started to end.
 */
import {clockCountsAsFrame} from './common/frameClock.js';
import {defineGlobalSlot, readGlobalSlot} from './common/globalSlot.js';

const WATCH_KEY = 'mcp-browser-inspector.scrolls';
/** A scroll with no scroll event for this long has ended (where scrollend does not come). */
const SCROLL_IDLE_MS = 100;
/**
 * After a scrollend, still no scroll event for this long: a page that animates its own scrolling
 * sets it frame by frame, and each set may end with a scrollend of its own.
 */
const SCROLLEND_IDLE_MS = 50;
/**
 * Frames in a row without a scroll event before a scroll counts as ended, besides the idle time:
 * a busy machine draws frames far apart, and an animation scrolls once per frame, however slow.
 */
const QUIET_FRAMES = 2;
/** How often the clock checks between frames (a frame that comes first replaces the check). */
const CLOCK_TICK_MS = 50;
/** Frames to wait for a scroll to begin after the key (smooth scrolls start on the next one). */
const START_FRAMES = 3;

interface ScrollWatch {
  scrolls: number;
  last: number;
  ends: number;
  lastEnd: number;
}

/** The counts a wait starts from. */
export interface ScrollMark {
  scrolls: number;
  ends: number;
}

function isScrollWatch(value: unknown): value is ScrollWatch {
  return typeof value === 'object' && value !== null && 'scrolls' in value && 'ends' in value;
}

/** Installs the watch once per document and returns its counts: the mark to wait from. */
export function markScrolls(): ScrollMark {
  const found = readGlobalSlot(WATCH_KEY);
  let watch: ScrollWatch;
  if (isScrollWatch(found)) {
    watch = found;
  } else {
    const made: ScrollWatch = {scrolls: 0, last: 0, ends: 0, lastEnd: 0};
    addEventListener(
      'scroll',
      () => {
        made.scrolls++;
        made.last = performance.now();
      },
      {capture: true, passive: true},
    );
    addEventListener(
      'scrollend',
      () => {
        made.ends++;
        made.lastEnd = performance.now();
      },
      {capture: true, passive: true},
    );
    defineGlobalSlot(WATCH_KEY, made);
    watch = made;
  }
  return {scrolls: watch.scrolls, ends: watch.ends};
}

/** How the wait ended: no scroll began, the scroll ended, or `maxMs` ran out first. */
export type ScrollWaitOutcome = 'none' | 'ended' | 'bounded';

/** Resolves when no scroll began within a few frames of the mark, or the scroll that did ended. */
export function waitForScrollEnd(mark: ScrollMark, maxMs: number): Promise<ScrollWaitOutcome> {
  return new Promise(resolve => {
    const watch = readGlobalSlot(WATCH_KEY);
    if (!isScrollWatch(watch)) {
      resolve('none');
      return;
    }
    const start = performance.now();
    let frames = 0;
    let seen = watch.scrolls;
    let quiet = 0;
    let lastFrame = start;
    let outcome: ScrollWaitOutcome | undefined;
    // One frame request at a time: a clock tick while a frame is still awaited asks for no other,
    // or a late frame would run several ticks at once and count as several quiet frames.
    let frameAwaited = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (reached: ScrollWaitOutcome): void => {
      outcome = reached;
      clearTimeout(timer);
      resolve(reached);
    };
    // Quiet is counted in frames drawn; the clock's ticks count only where no frame came lately.
    const tick = (fromFrame: boolean): void => {
      if (outcome) {
        return;
      }
      const now = performance.now();
      if (fromFrame) {
        lastFrame = now;
      }
      const drawn = fromFrame || clockCountsAsFrame(now, lastFrame);
      if (watch.scrolls !== seen) {
        seen = watch.scrolls;
        quiet = 0;
      } else if (drawn) {
        quiet++;
      }
      if (watch.scrolls === mark.scrolls) {
        // Counted in frames too: on a busy machine a smooth scroll starts frames, not ms, later.
        if (drawn && ++frames >= START_FRAMES) {
          finish('none');
          return;
        }
      } else if (
        // Both parts need the quiet frames: a busy machine can draw one frame SCROLL_IDLE_MS late mid-scroll.
        quiet >= QUIET_FRAMES &&
        ((watch.ends > mark.ends &&
          watch.lastEnd >= watch.last &&
          now - watch.last >= SCROLLEND_IDLE_MS) ||
          now - watch.last >= SCROLL_IDLE_MS)
      ) {
        finish('ended');
        return;
      }
      if (now - start >= maxMs) {
        finish('bounded');
        return;
      }
      // A tab that draws no frames is still checked, by the clock.
      timer = setTimeout(() => {
        tick(false);
      }, CLOCK_TICK_MS);
      if (!frameAwaited) {
        frameAwaited = true;
        requestAnimationFrame(() => {
          frameAwaited = false;
          clearTimeout(timer);
          tick(true);
        });
      }
    };
    tick(false);
  });
}
