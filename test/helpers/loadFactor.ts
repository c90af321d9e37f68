/**
 * How much slower than an idle machine this test run's machine is: measured once when the run
 * starts (vitest.config.ts, before any worker) and handed to every worker and child process in
 * MBI_TEST_LOAD_FACTOR. Tests assert order and outcome; where a bound on time is itself what a
 * test checks ("answered without waiting out the lock"), the bound is scaled by this factor and
 * kept under what the failure would take, so the test still fails when the failure happens.
 * Set MBI_TEST_LOAD_FACTOR yourself to pin it (e.g. 1 to see the idle bounds).
 */
import os from 'node:os';

export const LOAD_FACTOR_ENV = 'MBI_TEST_LOAD_FACTOR';

/** Past this the machine is too busy to test on; bounds stop growing. */
const MAX_FACTOR = 12;

/** CPU time each probe spins for: long enough to span a few scheduler slices. */
const PROBE_CPU_MS = 60;

function cpuMicros(since?: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

/** Wall time over CPU time of a busy loop: about (runnable threads) / (cores) when busy, else 1. */
function spinRatio(): number {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  let spent = 0;
  let sink = 0;
  while (spent < PROBE_CPU_MS * 1_000) {
    for (let index = 0; index < 20_000; index++) {
      sink = (sink + index) % 7_919;
    }
    spent = cpuMicros(cpuStart);
  }
  const wallMs = performance.now() - wallStart;
  return sink >= 0 ? wallMs / (spent / 1_000) : 1;
}

/**
 * Measures the factor now: the larger of what a short busy loop sees (the machine right now) and
 * the one-minute load per core (the machine lately), between 1 and MAX_FACTOR.
 */
export function measureLoadFactor(): number {
  const probes = [spinRatio(), spinRatio(), spinRatio()].sort((a, b) => a - b);
  const probe = probes[1] ?? 1;
  const perCore = (os.loadavg()[0] ?? 0) / os.availableParallelism();
  const factor = Math.min(MAX_FACTOR, Math.max(1, probe, perCore));
  return Math.round(factor * 10) / 10;
}

let cached: number | undefined;

/** This run's factor (from the environment, else measured once in this process). */
export function loadFactor(): number {
  if (cached === undefined) {
    const given = Number(process.env[LOAD_FACTOR_ENV]);
    cached =
      Number.isFinite(given) && given >= 1 ? Math.min(given, MAX_FACTOR) : measureLoadFactor();
  }
  return cached;
}

/** `ms` on this run's machine: for waits on a condition and for test time limits. */
export function scaled(ms: number): number {
  return Math.ceil(ms * loadFactor());
}

/**
 * A bound on how long something may take, where the failure it guards against takes `failureMs`
 * (e.g. waiting out the lock): `ms` scaled by the load factor, but never above 80 % of
 * `failureMs`, so however busy the machine, the failure still fails the test.
 */
export function boundUnder(ms: number, failureMs: number): number {
  return Math.max(ms, Math.min(scaled(ms), failureMs * 0.8));
}

/**
 * CPU milliseconds `work` takes in this process: unlike wall time, barely moved by other
 * processes on the machine. For tests of how an algorithm scales (linear, not quadratic).
 */
export function cpuMsOf(work: () => void): number {
  const started = process.cpuUsage();
  work();
  return cpuMicros(started) / 1_000;
}
