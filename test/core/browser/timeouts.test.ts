/**
 * The default waits of an element action grow with the emulated slowdown, as the peer's do, but
 * never past the lock wait the action makes every other call on its page do.
 */
import {describe, expect, it} from 'vitest';
import {LOCK_WAIT_MS} from '../../../src/core/browser/lock.js';
import {
  actionTimeout,
  coveredTimeout,
  followUpTimeout,
  LONGEST_ACTION_WAIT_MS,
  settleNavigationTimeout,
} from '../../../src/core/browser/timeouts.js';

const NONE = {cpu: 1, network: 1};
/** The most emulate allows: CPU 20x and Slow 3G (10x). */
const SLOWEST = {cpu: 20, network: 10};

describe('action waits', () => {
  it('are the defaults on an unthrottled page: 2 s covered, 5 s to become actionable', () => {
    expect(coveredTimeout(NONE)).toBe(2_000);
    expect(actionTimeout(NONE)).toBe(5_000);
    expect(followUpTimeout(NONE)).toBe(1_000);
    expect(settleNavigationTimeout(NONE)).toBe(3_000);
  });

  it('scale with the slowdown', () => {
    const cpu4 = {cpu: 4, network: 1};
    expect(coveredTimeout(cpu4)).toBe(8_000);
    expect(actionTimeout(cpu4)).toBe(20_000);
    expect(settleNavigationTimeout({cpu: 2, network: 5})).toBe(30_000);
  });

  it('stay inside the lock wait at the slowest emulation', () => {
    expect(LONGEST_ACTION_WAIT_MS).toBeLessThan(LOCK_WAIT_MS);
    for (const wait of [
      coveredTimeout(SLOWEST),
      actionTimeout(SLOWEST),
      followUpTimeout(SLOWEST),
      settleNavigationTimeout(SLOWEST),
    ]) {
      expect(wait).toBeLessThanOrEqual(LONGEST_ACTION_WAIT_MS);
    }
    // The covered wait is the shortest: an action waits for a cover well before it gives up.
    expect(coveredTimeout(SLOWEST)).toBeLessThanOrEqual(LOCK_WAIT_MS / 4);
  });

  it('take a timeout the agent asked for as given', () => {
    expect(actionTimeout(SLOWEST, 60_000)).toBe(60_000);
  });
});
