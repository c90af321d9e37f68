import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {TOKEN_ENV} from '../../shared/constants.js';
import {makeDirBounded} from './pathFlags.js';
import {userConfigDir} from './paths.js';

export interface ResolvedToken {
  token: string;
  source: 'flag-or-env' | 'file';
  /** Where the persisted token lives (only for source "file"). */
  file?: string;
}

const TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,512}$/;

/**
 * The token from --token / the environment, else the one persisted in the user config dir, else a
 * new random one written there with mode 0600 (and the directory 0700).
 */
export function resolveToken(
  explicit: string | undefined,
  configDir: string = userConfigDir(),
): ResolvedToken {
  if (explicit !== undefined) {
    return {token: explicit, source: 'flag-or-env'};
  }
  const file = path.join(configDir, 'token');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (TOKEN_PATTERN.test(existing)) {
      tightenMode(file);
      return {token: existing, source: 'file', file};
    }
  } catch {
    // Missing or unreadable: a new token is written below.
  }
  const token = crypto.randomBytes(32).toString('hex');
  makeDirBounded(configDir, 0o700);
  // O_EXCL would fail on a stale invalid file; write to a temp file then rename to stay atomic.
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${token}\n`, {mode: 0o600, flag: 'w'});
  fs.renameSync(temp, file);
  tightenMode(file);
  return {token, source: 'file', file};
}

/** Where a person finds the token, to finish "the token …": "in <file>" or "from --token / <env>". */
export function tokenLocation(resolved: ResolvedToken): string {
  return resolved.source === 'file' && resolved.file !== undefined
    ? `in ${resolved.file}`
    : `from --token / ${TOKEN_ENV}`;
}

function tightenMode(file: string): void {
  if (process.platform !== 'win32') {
    fs.chmodSync(file, 0o600);
  }
}

/**
 * Constant-time comparison. A different length is answered after the same amount of work, so only
 * the (public) token length could leak, never its content.
 */
export function tokensEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  if (a.length !== b.length) {
    crypto.timingSafeEqual(a, a);
    return false;
  }
  return crypto.timingSafeEqual(a, b);
}
