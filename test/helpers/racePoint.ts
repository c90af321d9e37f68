/**
 * Runs a file-system race deterministically: the code under test calls a hook at the instant an
 * attacker races for (a path checked, about to be opened; src/core/files/racePoint.ts), and the
 * test swaps a folder for a link exactly there, on every attempt. Nothing depends on how two
 * processes happen to interleave.
 */
import fs from 'node:fs';
import {racePoint, type RaceStep} from '../../src/core/files/racePoint.js';

/** Runs `work` with `hook` called at every race point (in this process), then removes it. */
export async function withRaceHook<T>(
  hook: (step: RaceStep, target: string) => void,
  work: () => Promise<T> | T,
): Promise<T> {
  if (racePoint.before !== undefined) {
    throw new Error('A race hook is already set: one at a time.');
  }
  racePoint.before = hook;
  try {
    return await work();
  } finally {
    delete racePoint.before;
  }
}

/** Points `link` at `target` in one step (a new link renamed over it), as an attacker would. */
export function pointLink(link: string, target: string): void {
  const temp = `${link}.swap`;
  fs.rmSync(temp, {force: true});
  fs.symlinkSync(target, temp);
  fs.renameSync(temp, link);
}

/** Swaps folder `folder` for a link to `target`, keeping the folder at `parked`. */
export function parkFolderForLink(folder: string, parked: string, target: string): void {
  fs.renameSync(folder, parked);
  fs.symlinkSync(target, folder);
}

/** Undoes parkFolderForLink: the link goes, the folder comes back. */
export function restoreFolder(folder: string, parked: string): void {
  fs.unlinkSync(folder);
  fs.renameSync(parked, folder);
}
