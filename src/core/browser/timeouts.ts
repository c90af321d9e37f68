/**
 * Default waits, scaled by emulation: a throttled CPU or network makes everything slower, so the
 * waits grow with it (chrome-devtools-mcp does the same).
 */
import {LOCK_WAIT_MS} from './lock.js';
import {PageFeature} from './pages/PageState.js';

const DEFAULT_ACTION_TIMEOUT_MS = 5_000;
const DEFAULT_NAVIGATION_TIMEOUT_MS = 10_000;
/**
 * Longest default wait of an element action and of settling after it: they run under the page's
 * lock, and a slowdown factor (CPU up to 20x) must not make them outlast the lock wait
 * (LOCK_WAIT_MS) they make every other call on the page do.
 */
export const LONGEST_ACTION_WAIT_MS = (LOCK_WAIT_MS * 2) / 3;

export interface SlowdownFactors {
  cpu: number;
  network: number;
}

export const slowdownFeature = new PageFeature<SlowdownFactors>('slowdown', () => ({
  cpu: 1,
  network: 1,
}));

export function actionTimeout(factors: SlowdownFactors, requested?: number): number {
  return requested !== undefined && requested > 0
    ? requested
    : Math.min(DEFAULT_ACTION_TIMEOUT_MS * factors.cpu, LONGEST_ACTION_WAIT_MS);
}

/**
 * How long a pointer action waits for its element to stop being covered (by an overlay fading
 * out, a branch still animating open) before it fails naming what covers it: 2 s, scaled by the
 * CPU slowdown, and always well inside the lock wait the action makes other calls on the page do.
 */
export function coveredTimeout(factors: SlowdownFactors): number {
  return Math.min(2_000 * factors.cpu, LOCK_WAIT_MS / 4);
}

/**
 * How long settling waits for what an action set in motion (a show delay, a slide-in): 1 s,
 * scaled by the CPU slowdown, at most 5 s.
 */
export function followUpTimeout(factors: SlowdownFactors): number {
  return Math.min(1_000 * factors.cpu, 5_000);
}

export function navigationTimeout(factors: SlowdownFactors, requested?: number): number {
  return requested !== undefined && requested > 0
    ? requested
    : DEFAULT_NAVIGATION_TIMEOUT_MS * factors.cpu * factors.network;
}

/** How long to wait for a navigation an action may have started. */
export function settleNavigationTimeout(factors: SlowdownFactors, requested?: number): number {
  return requested !== undefined && requested > 0
    ? requested
    : Math.min(3_000 * factors.network * factors.cpu, LONGEST_ACTION_WAIT_MS);
}
