/**
 * Waits that count animation frames (a box holding still, a scroll ending) also check by the
 * clock, for a tab that draws no frames. On a busy machine frames come far apart, and a clock
 * check between two of them sees a page no animation step has changed yet: it must not count as
 * a quiet frame there.
 */

/** A visible tab that drew no frame for this long draws none: clock checks stand for frames. */
export const NO_FRAMES_MS = 500;

/** Whether a clock check at `now` counts as a frame, the last frame having come at `lastFrame`. */
export function clockCountsAsFrame(now: number, lastFrame: number): boolean {
  return document.visibilityState === 'hidden' || now - lastFrame >= NO_FRAMES_MS;
}

/** The next animation frame (true), or false after `fallbackMs` without one (a tab drawing none). */
export function nextFrame(fallbackMs: number): Promise<boolean> {
  return new Promise(resolve => {
    const timer = setTimeout(() => resolve(false), fallbackMs);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
