/**
 * In-page side of the landing check (src/core/browser/input/actionability.ts and pointer.ts): the
 * slot the actionability check arms before a press, read or disarmed after it, and the wait for
 * any change of the page that a waiting action re-checks after.
 */
import {probeMutations} from './common/followUps.js';
import {landingSlot} from './common/landingSlot.js';

/** Reads and disarms the landing check: 'ok', 'none' (no event came) or what got the press. */
export function readLanding(): string {
  const slot = landingSlot();
  const armed = slot?.armed;
  if (!slot || !armed) {
    return 'none';
  }
  slot.armed = undefined;
  return armed.result ?? 'none';
}

/**
 * readLanding for an element of the top document, whose landing check lives in the page's main
 * world as the settle counter does, and in the same call, once the press landed (or no event of
 * it came), the settle probe: the action hands it over, one round trip less. A press held back is
 * answered at once and leaves the following of timers on: it is tried again.
 */
export function readLandingThenProbe():
  {landed: string} | Promise<{landed: string; probe: {n: number; late: boolean}}> {
  const landed = readLanding();
  if (landed !== 'ok' && landed !== 'none') {
    return {landed};
  }
  return probeMutations().then(probe => ({landed, probe}));
}

/** Disarms the landing check without reading it (the press did not go out). */
export function disarmLanding(): boolean {
  const slot = landingSlot();
  if (slot) {
    slot.armed = undefined;
  }
  return true;
}

/**
 * Resolves on the first sign that the page changed (a DOM mutation, the end of a transition or an
 * animation, a scroll, a resize) or after capMs: what a waiting action re-checks after.
 */
export function waitForChange(capMs: number): Promise<boolean> {
  return new Promise(resolve => {
    const events = [
      'transitionend',
      'transitioncancel',
      'animationend',
      'animationcancel',
      'scroll',
      'resize',
    ];
    const finish = (): void => {
      clearTimeout(timer);
      observer.disconnect();
      for (const type of events) {
        removeEventListener(type, finish, true);
      }
      resolve(true);
    };
    const timer = setTimeout(finish, capMs);
    const observer = new MutationObserver(finish);
    observer.observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    for (const type of events) {
      addEventListener(type, finish, true);
    }
  });
}
