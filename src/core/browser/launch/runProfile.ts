/**
 * A profile of its own for a run whose default profile is in use: two agents each starting the
 * server with the README's stdio setup share one default profile, and Chromium allows one browser
 * per profile. The second run gets a fresh folder next to the default one, removed when it exits;
 * folders left by runs that died without cleaning up are removed by the next run that needs one.
 * An explicit --userDataDir is never replaced: it fails with what to do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A run folder younger than this may belong to a server still starting its browser. */
const STALE_AFTER_MS = 60_000;

const RUN_SUFFIX = '-run-';

/** Chromium or puppeteer said the profile is locked by another browser. */
export function isProfileInUse(message: string): boolean {
  return /already running|ProcessSingleton|SingletonLock/i.test(message);
}

/** A fresh folder next to `defaultDir` for this run (and a sweep of dead runs' folders). */
export function createRunProfile(defaultDir: string): string {
  const parent = path.dirname(defaultDir);
  fs.mkdirSync(parent, {recursive: true});
  removeDeadRunProfiles(defaultDir);
  return fs.mkdtempSync(`${defaultDir}${RUN_SUFFIX}`);
}

/** Removes a run's folder (synchronous: it also runs in an exit handler). */
export function removeRunProfile(dir: string): void {
  try {
    fs.rmSync(dir, {recursive: true, force: true, maxRetries: 2});
  } catch {
    // A browser still writing as the process exits: the next run's sweep removes it.
  }
}

function removeDeadRunProfiles(defaultDir: string): void {
  const parent = path.dirname(defaultDir);
  const prefix = `${path.basename(defaultDir)}${RUN_SUFFIX}`;
  let names: string[];
  try {
    names = fs
      .readdirSync(parent)
      .filter(name => name.startsWith(prefix))
      .slice(0, 100);
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(parent, name);
    try {
      const age = Date.now() - fs.statSync(dir).mtimeMs;
      if (age > STALE_AFTER_MS && !lockedByLiveBrowser(dir)) {
        removeRunProfile(dir);
      }
    } catch {
      // Gone already, or not ours to read: left alone.
    }
  }
}

/** Chromium's SingletonLock is a symlink to `<hostname>-<pid>` while a browser uses the profile. */
function lockedByLiveBrowser(dir: string): boolean {
  let target: string;
  try {
    target = fs.readlinkSync(path.join(dir, 'SingletonLock'));
  } catch {
    return false;
  }
  const match = /^(.*)-(\d+)$/.exec(target);
  const pid = match?.[2];
  if (match?.[1] !== os.hostname() || pid === undefined) {
    // Another machine's lock (a shared home folder): not ours to judge.
    return true;
  }
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
