/**
 * The last resort behind the per-call guards: an exception or a rejected promise that still
 * reaches the process is logged, and the process keeps serving. Run in a real Node process of its
 * own (the test runner keeps handlers of its own in this one).
 */
import {spawnSync} from 'node:child_process';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {describe, expect, it} from 'vitest';
import {ROOT} from '../helpers/engine.js';

const GUARD = pathToFileURL(path.join(ROOT, 'src/core/processGuard.ts')).href;

/** A process that installs the guard, then throws from a timer and rejects without a handler. */
const SCRIPT = `
const {keepServingOnUncaughtErrors} = await import(${JSON.stringify(GUARD)});
keepServingOnUncaughtErrors(line => console.error('LOG ' + line.split('\\n')[0]));
setTimeout(() => { let v = []; const walk = x => walk([x]); walk(v); }, 0);
setTimeout(() => { void Promise.reject(new TypeError('nobody caught this')); }, 10);
const served = setInterval(() => {}, 1000);
setTimeout(() => { clearInterval(served); console.log('still serving'); }, 200);
`;

describe('keepServingOnUncaughtErrors', () => {
  it('logs an uncaught exception and an unhandled rejection, and the process goes on', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', SCRIPT],
      {cwd: ROOT, encoding: 'utf8', timeout: 60_000},
    );
    expect(run.stderr).toContain(
      'LOG Internal error; the server keeps running. Please report it: RangeError: Maximum call stack size exceeded',
    );
    expect(run.stderr).toContain(
      'LOG Internal error (a rejected promise); the server keeps running: TypeError: nobody caught this',
    );
    expect(run.stdout).toBe('still serving\n');
    expect(run.status).toBe(0);
  });
});
