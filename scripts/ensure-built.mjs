// Builds the app when out/ is missing or older than src/, so `npm run serve` and `npm run bench`
// work on a fresh clone without a separate build step.
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

const built = Math.min(
  mtime(path.join(root, 'out/node/cli/index.js')),
  mtime(path.join(root, 'out/renderer/index.html')),
  mtime(path.join(root, 'out/heap/heapSnapshotWorker.js')),
);
if (built < newest(path.join(root, 'src'))) {
  process.stderr.write('Building (out/ is missing or older than src/)…\n');
  // Build output goes to stderr: with --stdio, stdout carries MCP.
  execFileSync('npm', ['run', 'build'], {cwd: root, stdio: ['ignore', 2, 2]});
}
