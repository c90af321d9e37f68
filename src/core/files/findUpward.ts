/** Finding a built file by walking up from where the running code lies (bundle or sources). */
import fs from 'node:fs';
import path from 'node:path';

/** How many folders up the search goes (out/node/cli → the checkout is three). */
const MAX_DEPTH = 6;

/**
 * The first of `candidatesOf(dir)` that `found` accepts, trying `startDir` and then each parent
 * folder in turn, up to MAX_DEPTH levels.
 */
export function findUpward(
  startDir: string,
  candidatesOf: (dir: string) => readonly string[],
  found: (candidate: string) => boolean = candidate => fs.existsSync(candidate),
): string | undefined {
  let dir = startDir;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const hit = candidatesOf(dir).find(found);
    if (hit !== undefined) {
      return hit;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      break;
    }
    dir = parent;
  }
  return undefined;
}
