/**
 * How much slower than an idle machine this one is now: the 1-minute load average per core, at
 * least 1. A bound a test measures in wall-clock time (a bystander answered within 1 s) is scaled
 * by it, so a shared, busy machine does not fail a test the code passes; the test still asserts
 * the order of what happened, which load does not change.
 */
import os from 'node:os';

export function loadFactor(): number {
  const [oneMinute = 0] = os.loadavg();
  return Math.max(1, oneMinute / os.availableParallelism());
}
