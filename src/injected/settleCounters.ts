/**
 * In-page side of the settle counters (src/core/browser/settle/counters.ts): one mutation record
 * per document, read before an action (arming the follow-ups), probed after it, and waited on
 * until the DOM is quiet and the follow-ups are done. Every wait is bounded by its `maxMs`.
 */
import {armFollowUps, forgetOverdueTimers, startedAnimations} from './common/followUps.js';
export {probeMutations} from './common/followUps.js';
import {findMutationState, mutationState} from './common/mutationState.js';

/** The document's mutation record, installed on first use (see common/mutationState.ts). */
export function installMutationState(): object {
  return mutationState();
}

/** Installs the record if needed and arms the follow-ups; the mutation count now. */
export function readMutationCount(timers: boolean): number {
  const state = mutationState();
  armFollowUps(state, timers);
  return state.n;
}

/** Resolves (with the ms waited) once the DOM was quiet for `quietMs`, or after `maxMs`. */
export function waitQuiet(quietMs: number, maxMs: number): Promise<number> {
  return new Promise(resolve => {
    const state = findMutationState();
    if (!state) {
      resolve(0);
      return;
    }
    const start = performance.now();
    const check = (): void => {
      const now = performance.now();
      const idle = now - state.t;
      if (idle >= quietMs || now - start >= maxMs) {
        resolve(now - start);
        return;
      }
      setTimeout(check, Math.max(1, quietMs - idle));
    };
    check();
  });
}

/**
 * After a load, in one evaluation: installs the record (the new document has none yet), lets the
 * page run two macrotasks and, if its DOM changed meanwhile (scripts rendering after load), waits
 * until it has been quiet for `quietMs` (at most `maxMs`); then reads the title, which the
 * browser's title event can trail.
 */
export function settleLoaded(
  quietMs: number,
  maxMs: number,
): Promise<{changed: boolean; title: string}> {
  return new Promise(resolve => {
    const state = mutationState();
    const before = state.n;
    setTimeout(() => {
      setTimeout(() => {
        const changed = state.n > before;
        const done = (): void => {
          resolve({changed, title: document.title});
        };
        if (!changed) {
          done();
          return;
        }
        const start = performance.now();
        const check = (): void => {
          const now = performance.now();
          if (now - state.t >= quietMs || now - start >= maxMs) {
            done();
            return;
          }
          setTimeout(check, Math.max(1, quietMs - (now - state.t)));
        };
        check();
      }, 0);
    }, 0);
  });
}

/**
 * Waits (resolving with the ms waited) until the followed timers have fired and the animations
 * started since the arm (also by those timers) have finished, or `maxMs` passed. Woken by each
 * timer and animation end.
 */
export function waitFollowUps(maxMs: number): Promise<number> {
  return new Promise(resolve => {
    const follow = findMutationState()?.follow;
    if (!follow) {
      resolve(0);
      return;
    }
    const start = performance.now();
    const step = (): void => {
      const now = performance.now();
      const left = maxMs - (now - start);
      const untilOverdue = forgetOverdueTimers(follow, now);
      const animations = startedAnimations(follow);
      if (left <= 0 || (follow.timers.size === 0 && animations.length === 0)) {
        follow.wake = undefined;
        resolve(performance.now() - start);
        return;
      }
      let woken = false;
      const wake = (): void => {
        if (!woken) {
          woken = true;
          clearTimeout(timer);
          step();
        }
      };
      // Also woken when a followed timer is overdue: one cleared unseen never wakes it.
      const timer = setTimeout(wake, Math.min(left, untilOverdue));
      follow.wake = wake;
      for (const animation of animations) {
        animation.finished.then(wake, wake);
      }
    };
    step();
  });
}
