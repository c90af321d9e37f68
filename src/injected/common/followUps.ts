/**
 * What an action sets in motion that changes the page a little later: timers the page's handlers
 * of trusted input set (a tooltip's show delay, a debounce) and animations it started (a menu
 * sliding in). Armed before the action, read by the probe after it, waited for by settling.
 */
import {UNSEEN_PROPERTIES, animatesOtherThan} from './animatedProperties.js';
import {findMutationState, type FollowUps, type MutationState} from './mutationState.js';

/** Timers longer than this (a poll, an idle timeout) are not waited for. */
const FOLLOW_TIMER_MAX_MS = 1_000;
/** Bound on the timers followed per action. */
const FOLLOW_TIMER_LIMIT = 64;
/**
 * A followed timer this far past its time that has not run was cleared where the wrapper does not
 * see it (a clearTimeout captured before the wrap, or called after the unwrap): it is not waited for.
 */
const OVERDUE_GRACE_MS = 50;
/** setTimeout is unwrapped by itself after this long, should the probe after the action never come. */
const UNWRAP_AFTER_MS = 30_000;

/**
 * Before the action: remember the animations running now, and, in the page's own world
 * (`timers`), follow the timers that the page's handlers of trusted input set — setTimeout is
 * wrapped until the probe after the action (or UNWRAP_AFTER_MS).
 */
export function armFollowUps(state: MutationState, timers: boolean): void {
  const follow = (state.follow ??= {
    timers: new Map(),
    before: new WeakSet(),
    wake: undefined,
    restore: undefined,
  });
  follow.before = new WeakSet(document.getAnimations());
  follow.timers.clear();
  if (timers && !follow.restore) {
    wrapTimers(follow);
  }
}

function wrapTimers(follow: FollowUps): void {
  // The originals are called with .call(globalThis) and put back as the very same functions.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- see above
  const originalSet = window.setTimeout;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- see above
  const originalClear = window.clearTimeout;
  const followed = function (handler: TimerHandler, delay?: number, ...rest: unknown[]): number {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the event being handled tells a timer the page's input handler set from any other
    const event = window.event;
    const ms = Number(delay) || 0;
    if (
      !event?.isTrusted ||
      typeof handler !== 'function' ||
      ms <= 0 ||
      ms > FOLLOW_TIMER_MAX_MS ||
      follow.timers.size >= FOLLOW_TIMER_LIMIT
    ) {
      return originalSet.call(globalThis, handler, delay, ...rest);
    }
    const id = originalSet.call(
      globalThis,
      function (this: unknown, ...args: unknown[]) {
        follow.timers.delete(id);
        follow.wake?.();
        handler.apply(this, args);
      },
      delay,
      ...rest,
    );
    follow.timers.set(id, performance.now() + ms);
    return id;
  };
  const cleared = function (id?: number): void {
    if (id !== undefined) {
      follow.timers.delete(id);
    }
    originalClear.call(globalThis, id);
  };
  window.setTimeout = followed;
  window.clearTimeout = cleared;
  const expiry = originalSet.call(globalThis, () => follow.restore?.(), UNWRAP_AFTER_MS);
  follow.restore = () => {
    originalClear.call(globalThis, expiry);
    if (window.setTimeout === followed) {
      window.setTimeout = originalSet;
    }
    if (window.clearTimeout === cleared) {
      window.clearTimeout = originalClear;
    }
    follow.restore = undefined;
  };
}

/** The animations started since the arm that a snapshot would show, not yet finished. */
export function startedAnimations(follow: FollowUps): Animation[] {
  const unseen = new Set(UNSEEN_PROPERTIES);
  const shows = (animation: Animation): boolean => {
    const effect = animation.effect;
    if (!effect || effect.getComputedTiming().endTime === Infinity) {
      return false;
    }
    return animatesOtherThan(effect, unseen);
  };
  return document
    .getAnimations()
    .filter(
      animation =>
        animation.playState !== 'finished' &&
        animation.playState !== 'idle' &&
        !follow.before.has(animation) &&
        shows(animation),
    );
}

/**
 * After one macrotask (lets setTimeout(0) and promise reactions run): the mutation count (-1 with
 * no record), and whether the action left follow-ups (timers it set, animations it started).
 */
export function probeMutations(): Promise<{n: number; late: boolean}> {
  return new Promise(resolve =>
    setTimeout(() => {
      const state = findMutationState();
      if (!state) {
        resolve({n: -1, late: false});
        return;
      }
      const follow = state.follow;
      follow?.restore?.();
      const late = !!follow && (follow.timers.size > 0 || startedAnimations(follow).length > 0);
      resolve({n: state.n, late});
    }, 0),
  );
}

/**
 * Forgets the followed timers past their time by more than the grace (cleared unseen: a library
 * that kept its own clearTimeout, or cleared after the unwrap) and returns how long until the next
 * followed timer is that late, Infinity when none is left.
 */
export function forgetOverdueTimers(follow: FollowUps, now: number): number {
  let next = Infinity;
  for (const [id, due] of follow.timers) {
    if (now - due > OVERDUE_GRACE_MS) {
      follow.timers.delete(id);
    } else {
      next = Math.min(next, due + OVERDUE_GRACE_MS - now + 1);
    }
  }
  return next;
}
