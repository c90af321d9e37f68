/**
 * Folders a test needs outside the roots the engine always allows (the OS temp dir), also when
 * $HOME is itself under the temp dir (as on some CI runners), and outside any folder a test
 * names (its --workspace).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {ROOT} from './engine.js';

function real(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function isInside(dir: string, root: string): boolean {
  const relative = path.relative(root, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Makes a fresh folder (like mkdtemp, with `prefix`) under the first writable place that is not
 * inside the temp dir nor inside `notUnder`: the home folder, /var/tmp, or beside the checkout.
 * The caller removes it.
 */
export function makeOutsideDir(prefix: string, notUnder: readonly string[] = []): string {
  const forbidden = [os.tmpdir(), ...notUnder].map(real);
  const candidates = [os.homedir(), '/var/tmp', path.dirname(ROOT)];
  for (const candidate of candidates) {
    const base = real(candidate);
    if (forbidden.some(root => isInside(base, root))) {
      continue;
    }
    try {
      return fs.realpathSync(fs.mkdtempSync(path.join(base, prefix)));
    } catch {
      // Not writable here: try the next place.
    }
  }
  throw new Error(
    `No writable folder outside ${forbidden.join(', ')} for the test (tried ${candidates.join(', ')}).`,
  );
}
