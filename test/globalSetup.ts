/**
 * Before any test: make sure the build the tests spawn (out/) is current, that the pages built from
 * npm component libraries are bundled (cached by scripts/build-library-fixtures.mjs), and that a
 * Chromium is installed. Rebuilding only when a source file is newer keeps `npm test` fast after
 * `npm run build`.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {loadFactor, scaled} from './helpers/loadFactor.js';

const root = path.resolve(import.meta.dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function outputMtime(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Several test runs may start at once (parallel workers, several checkouts of work): build once at a time. */
function withBuildLock(build: () => void): void {
  const lock = path.join(root, '.build-lock');
  // A build under load takes minutes: the bounds grow with the run's load factor.
  const deadline = Date.now() + scaled(180_000);
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, {throwIfNoEntry: false})?.mtimeMs ?? Date.now());
      if (age > scaled(120_000) || Date.now() > deadline) {
        fs.rmSync(lock, {recursive: true, force: true});
        continue;
      }
      execFileSync('sleep', ['0.5']);
    }
  }
  try {
    build();
  } finally {
    fs.rmSync(lock, {recursive: true, force: true});
  }
}

function isStale(): boolean {
  const sources = newestMtime(path.join(root, 'src'));
  const outputs = Math.min(
    outputMtime(path.join(root, 'out/node/cli/index.js')),
    outputMtime(path.join(root, 'out/renderer/index.html')),
    outputMtime(path.join(root, 'out/heap/heapSnapshotWorker.js')),
  );
  return outputs < sources;
}

export default function setup(): void {
  // Each Vitest project runs this; say it once.
  if (process.env.MBI_TEST_SETUP_DONE === '1') {
    return;
  }
  process.env.MBI_TEST_SETUP_DONE = '1';
  process.stderr.write(
    `[tests] load factor ${loadFactor()} (load average ${os.loadavg()[0]?.toFixed(1) ?? '?'} on ${os.availableParallelism()} cores): time limits are scaled by it\n`,
  );
  if (isStale() && process.env.MBI_SKIP_BUILD !== '1') {
    withBuildLock(() => {
      // Another run may have built while this one waited for the lock.
      if (isStale()) {
        process.stderr.write('[tests] out/ is older than src/: running npm run build\n');
        execFileSync('npm', ['run', 'build'], {cwd: root, stdio: 'inherit'});
      }
    });
  }
  execFileSync(process.execPath, [path.join(root, 'scripts/build-library-fixtures.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromium)) {
    throw new Error(
      `Tests need Chromium at ${chromium} (apt-get install -y chromium, or set CHROME_PATH).`,
    );
  }
}
