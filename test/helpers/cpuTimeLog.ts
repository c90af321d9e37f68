/**
 * Opt-in per-file CPU time (MBI_TEST_CPU_LOG=<file>, see vitest.config.ts): appends one line per
 * test file, "<file>\t<CPU seconds>", counting the worker and every child process it waited for
 * (Chromium, CLI runs, Playwright). Unlike wall time, barely moved by other load on the machine,
 * so suites can be compared across busy runs. Linux only (/proc); elsewhere it logs nothing.
 */
import fs from 'node:fs';
import {afterAll, beforeAll, expect} from 'vitest';

/** utime + stime + cutime + cstime of this process, in clock ticks (1/100 s on Linux). */
function ticks(): number | undefined {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  } catch {
    return undefined;
  }
}

let started: number | undefined;

beforeAll(() => {
  started = ticks();
});

// Registered before the file's own hooks, so it runs after them (hooks run as a stack): the
// browsers the file closes in afterAll are counted.
afterAll(() => {
  const log = process.env.MBI_TEST_CPU_LOG;
  const ended = ticks();
  if (log === undefined || started === undefined || ended === undefined) {
    return;
  }
  const file = expect.getState().testPath ?? 'unknown';
  fs.appendFileSync(log, `${file}\t${((ended - started) / 100).toFixed(2)}\n`);
});
