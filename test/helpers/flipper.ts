/**
 * A second process that keeps changing the file system while a test works on it (a folder
 * swapped for a link and back, an entry appearing and vanishing): the race an attacker runs.
 * Bounded in time; the test stops it when done.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import {scaled} from './loadFactor.js';

export interface Flipper {
  /** Flips done so far, as last reported (proves the race ran). */
  readonly flips: () => number;
  stop(): Promise<void>;
}

/**
 * Runs `step` (the body of a function of `fs` and `args`, one flip per call) in a loop in a child
 * process for at most `maxMs`. Resolves once the first flip is done.
 */
export async function startFlipper(
  step: string,
  args: readonly unknown[],
  maxMs = scaled(20_000),
): Promise<Flipper> {
  const source = `const fs = require('fs');
    const args = ${JSON.stringify(args)};
    const step = new Function('fs', 'args', ${JSON.stringify(step)});
    const end = Date.now() + ${maxMs};
    let flips = 0;
    let reported = 0;
    while (Date.now() < end) {
      try { step(fs, args); } catch {}
      flips++;
      if (flips === 1 || Date.now() - reported > 20) {
        reported = Date.now();
        process.stdout.write(flips + '\\n');
      }
    }`;
  const child: ChildProcess = spawn(process.execPath, ['-e', source], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let flips = 0;
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('The flipper did not start in time.')),
      scaled(10_000),
    );
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const last = chunk.trim().split('\n').pop();
      flips = Math.max(flips, Number(last ?? 0) || 0);
      clearTimeout(timer);
      resolve();
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await started;
  return {
    flips: () => flips,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        return;
      }
      const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
