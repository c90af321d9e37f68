/**
 * The --readyFile on disk: written atomically (a private temp file renamed over it), so a reader
 * sees the whole JSON or nothing, and removed when the run that wrote it ends, so nobody reads a
 * dead run's pid and token.
 */
import fs from 'node:fs';
import path from 'node:path';
import {readyFileSchema, type ReadyFile} from '../../shared/readyFile.js';
import {makeDirBounded} from './pathFlags.js';

export function writeReadyFile(file: string, ready: ReadyFile): string {
  const target = path.resolve(file);
  makeDirBounded(path.dirname(target));
  // Renamed over a device or a link, the rename would replace it: only a file of our own.
  const existing = fs.lstatSync(target, {throwIfNoEntry: false});
  if (existing !== undefined && !existing.isFile()) {
    throw new Error('it is not a regular file');
  }
  const temp = `${target}.${process.pid}.tmp`;
  // A temp file left by a crashed run with the same pid could have any mode: start afresh.
  fs.rmSync(temp, {force: true});
  fs.writeFileSync(temp, JSON.stringify(ready), {mode: 0o600, flag: 'wx'});
  fs.renameSync(temp, target);
  return target;
}

/** Removes the ready file if it is still this process's (another run may have written it since). */
export function removeOwnReadyFile(file: string, pid: number = process.pid): void {
  try {
    // Only a regular file is read (a pipe put there would block the exit).
    if (fs.lstatSync(file, {throwIfNoEntry: false})?.isFile() !== true) {
      return;
    }
    const parsed = readyFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (parsed.success && parsed.data.pid === pid) {
      fs.rmSync(file, {force: true});
    }
  } catch {
    // Gone or unreadable: nothing of ours to remove.
  }
}
