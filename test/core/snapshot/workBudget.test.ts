/**
 * Bounds on the browser's own work scale with the measured slowness (issue 33.9): on a machine
 * with 3 runnable processes per core and a page emulating a 4× slower CPU, the bound on a whole
 * tree read that takes up to 20 s on a quiet machine is not 20 s but the call's whole deadline;
 * on a quiet machine it stays 20 s. The error a busy machine still runs into says so.
 *
 * Tests: src/core/browser/workBudget.ts, src/core/browser/evaluation.ts
 */
import os from 'node:os';
import {afterEach, describe, expect, it, vi} from 'vitest';
import {MAX_EVALUATION_TIMEOUT_MS} from '../../../src/core/browser/evaluation.js';
import {describeSlowness, WorkBudget} from '../../../src/core/browser/workBudget.js';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Pretends the one-minute load average is `perCore` runnable processes per core. */
function loadPerCore(perCore: number): void {
  const cores = os.availableParallelism();
  vi.spyOn(os, 'loadavg').mockReturnValue([perCore * cores, 0, 0]);
}

describe('bounds on browser work', () => {
  it('scale with the machine load and the emulated CPU, within one deadline', async () => {
    const id = await fx.openPage('/aria/transformed-grid.html');
    const state = fx.engine.engine.browser.pages.byId(id);

    loadPerCore(0.5);
    const quiet = new WorkBudget(state);
    expect(quiet.slowness.factor).toBe(1);
    expect(quiet.bound(2_000)).toBe(2_000);
    expect(describeSlowness(quiet.slowness)).toBe('');

    loadPerCore(3);
    const busy = new WorkBudget(state);
    expect(busy.slowness.factor).toBe(3);
    expect(busy.bound(2_000)).toBe(6_000);
    expect(describeSlowness(busy.slowness)).toMatch(
      /^the machine is busy \(load \d+\.\d on \d+ cores\)$/,
    );

    const throttled = await call(fx.client, 'emulate', {pageId: id, cpuThrottlingRate: 4});
    expect(throttled.isError, throttled.text).toBe(false);
    const slow = new WorkBudget(state);
    expect(slow.slowness.factor).toBe(12);
    expect(slow.bound(2_000)).toBe(24_000);
    // A 20 s quiet-machine bound is no longer 20 s: it takes the whole deadline, never more.
    const whole = slow.bound(20_000);
    expect(whole).toBeGreaterThan(MAX_EVALUATION_TIMEOUT_MS - 1_000);
    expect(whole).toBeLessThanOrEqual(MAX_EVALUATION_TIMEOUT_MS);
  });
});
