import fs from 'node:fs';
import path from 'node:path';
import {APP_ID} from '../shared/constants.js';

/** The app version from package.json, found by walking up from a start folder. */
export function readVersion(startDir: string): string {
  let dir = startDir;
  for (let depth = 0; depth < 8; depth++) {
    try {
      const json: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (
        typeof json === 'object' &&
        json !== null &&
        'name' in json &&
        json.name === APP_ID &&
        'version' in json &&
        typeof json.version === 'string'
      ) {
        return json.version;
      }
    } catch {
      // Keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      break;
    }
    dir = parent;
  }
  return '0.0.0';
}
