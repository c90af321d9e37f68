/**
 * Every path-valued flag is checked once at start, before the engine opens anything, so a bad
 * path ends the run at once with one line (exit 2) instead of a hang or a warning on the first
 * call. Folders are made one level at a time with a bounded walk: Node's recursive mkdir loops
 * forever where the kernel refuses a folder with ENOENT under an existing parent (/proc/nope).
 */
import {randomBytes} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {readyFileSchema} from '../../shared/readyFile.js';
import type {ServerConfig} from './serverConfig.js';

/** More levels than any real path has; a deeper one is refused rather than walked. */
const MAX_MISSING_LEVELS = 64;
/** O_NOFOLLOW where the platform has it: the telemetry log is opened so (TelemetryRecorder). */
const NOFOLLOW = process.platform === 'win32' ? 0 : fs.constants.O_NOFOLLOW;

export class PathProblem extends Error {
  constructor(
    readonly flag: string,
    readonly file: string,
    readonly reason: string,
    readonly remedy: string,
  ) {
    super(`Cannot use --${flag} ${file}: ${reason}. ${remedy}`);
  }
}

function codeOf(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

const REASONS: Record<string, string> = {
  ENOTDIR: 'a folder on its path is a file',
  EEXIST: 'a folder on its path is a file',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOENT: 'folders cannot be created there',
  ENOSPC: 'no space left on the device',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links on its path',
};

/** A short reason a person can act on, from a file-system error. */
export function pathErrorReason(error: unknown): string {
  const code = codeOf(error);
  const known = code === undefined ? undefined : REASONS[code];
  if (known !== undefined) {
    return known;
  }
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

/** An error shaped like the file system's own, so one reason table serves both. */
function codedError(code: string): Error {
  return Object.assign(new Error(code), {code});
}

/**
 * Makes `dir` and any missing parents, one level at a time, each with `mode`. The walk up is
 * bounded, and every level is tried once: nothing retries.
 */
export function makeDirBounded(dir: string, mode = 0o777): void {
  const missing: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    const stat = fs.statSync(current, {throwIfNoEntry: false});
    if (stat !== undefined) {
      if (!stat.isDirectory()) {
        throw codedError('ENOTDIR');
      }
      break;
    }
    const parent = path.dirname(current);
    if (parent === current || missing.length >= MAX_MISSING_LEVELS) {
      throw codedError('ENOENT');
    }
    missing.unshift(current);
    current = parent;
  }
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder, {mode});
    } catch (error) {
      // Made meanwhile by someone else: fine if it is a folder.
      if (codeOf(error) !== 'EEXIST' || !fs.statSync(folder).isDirectory()) {
        throw error;
      }
    }
  }
}

const WRITABLE_FOLDER = 'Pass a path in a writable folder.';

/**
 * Creates and removes a file in `dir`: the one proof that files can be made there (the access
 * bits say yes to root in /proc, where the kernel still refuses).
 */
function probeFolder(dir: string): void {
  const probe = path.join(dir, `.mcp-browser-inspector-probe-${randomBytes(6).toString('hex')}`);
  fs.closeSync(fs.openSync(probe, 'wx', 0o600));
  fs.unlinkSync(probe);
}

/** The reason for a file that could not be created in a folder that exists. */
function fileErrorReason(error: unknown): string {
  return codeOf(error) === 'ENOENT' ? 'files cannot be created there' : pathErrorReason(error);
}

/** The folder exists (made if missing) and this process can create files in it. */
function checkWritableFolder(flag: string, shown: string, dir: string, mode?: number): void {
  try {
    makeDirBounded(dir, mode);
  } catch (error) {
    throw new PathProblem(flag, shown, pathErrorReason(error), WRITABLE_FOLDER);
  }
  try {
    probeFolder(dir);
  } catch (error) {
    throw new PathProblem(flag, shown, fileErrorReason(error), WRITABLE_FOLDER);
  }
}

/** What is at `file` now: undefined when nothing is; a problem when it is no regular file. */
function existingRegularFile(flag: string, file: string): fs.Stats | undefined {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(file, {throwIfNoEntry: false});
  } catch (error) {
    throw new PathProblem(flag, file, pathErrorReason(error), WRITABLE_FOLDER);
  }
  if (stat === undefined || stat.isFile()) {
    return stat;
  }
  const what = stat.isDirectory()
    ? 'it is a folder'
    : stat.isSymbolicLink()
      ? 'it is a link (never followed)'
      : 'it is not a regular file';
  throw new PathProblem(flag, file, what, WRITABLE_FOLDER);
}

/**
 * A file this process will create or append to: its folder is usable, and whatever is at the
 * path already is a regular file (a device, a pipe or a link there would be written through).
 */
function checkWritableFile(flag: string, file: string, open: boolean): void {
  const resolved = path.resolve(file);
  checkWritableFolder(flag, file, path.dirname(resolved));
  existingRegularFile(flag, file);
  if (!open) {
    return;
  }
  try {
    fs.closeSync(
      fs.openSync(
        resolved,
        fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | NOFOLLOW,
        0o600,
      ),
    );
  } catch (error) {
    throw new PathProblem(flag, file, fileErrorReason(error), WRITABLE_FOLDER);
  }
}

function checkExistingFolder(flag: string, dir: string): void {
  const stat = statOrProblem(flag, dir, 'Pass an existing folder.');
  if (!stat.isDirectory()) {
    throw new PathProblem(flag, dir, 'it is a file, not a folder', 'Pass an existing folder.');
  }
}

/** Why `file` cannot be run as a browser binary, or undefined when it can. */
export function executableProblem(
  file: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? 'it does not exist' : pathErrorReason(error);
  }
  if (!stat.isFile()) {
    return 'it is not a file';
  }
  try {
    // Windows has no execute bit.
    if (platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return undefined;
  } catch {
    return 'it is not executable';
  }
}

function checkExecutable(flag: string, file: string): void {
  const reason = executableProblem(file);
  if (reason !== undefined) {
    throw new PathProblem(flag, file, reason, 'Point it at a Chrome or Chromium binary.');
  }
}

function statOrProblem(flag: string, file: string, remedy: string): fs.Stats {
  try {
    return fs.statSync(file);
  } catch (error) {
    const reason = codeOf(error) === 'ENOENT' ? 'it does not exist' : pathErrorReason(error);
    throw new PathProblem(flag, file, reason, remedy);
  }
}

/** Largest file taken for an earlier run's ready file (it holds four short fields). */
const MAX_READY_FILE_BYTES = 64 * 1024;

/** Whether the regular file holds what a run writes there (or nothing, as a fresh mktemp). */
function holdsReadyFile(file: string, size: number): boolean {
  if (size === 0) {
    return true;
  }
  if (size > MAX_READY_FILE_BYTES) {
    return false;
  }
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return readyFileSchema.safeParse(parsed).success;
  } catch {
    return false;
  }
}

/**
 * Removes a ready file left by an earlier run (a dead pid, an old token), so nobody reads it as
 * this run's. A missing file is fine; anything else than a regular file holding a ready file
 * (a folder, a device, a link, someone's document) is a problem, never removed.
 */
export function removeStaleReadyFile(file: string): void {
  const stat = existingRegularFile('readyFile', file);
  if (stat === undefined) {
    return;
  }
  if (!holdsReadyFile(file, stat.size)) {
    throw new PathProblem(
      'readyFile',
      file,
      'it holds something other than a ready file',
      'Pass a path of its own: the ready file is replaced at each start and removed at exit.',
    );
  }
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') {
      throw new PathProblem('readyFile', file, pathErrorReason(error), WRITABLE_FOLDER);
    }
  }
}

/**
 * Checks every path flag the config holds, in flag order; the first problem is thrown as a
 * PathProblem. Folders the run will write to are made now (mode 0700 where the run makes them
 * private); the telemetry log is created empty, as its first record would.
 */
export function checkPathFlags(config: ServerConfig): void {
  if (config.readyFile !== undefined) {
    removeStaleReadyFile(config.readyFile);
    checkWritableFile('readyFile', config.readyFile, false);
  }
  if (config.telemetryLog !== undefined) {
    checkWritableFile('telemetryLog', config.telemetryLog, true);
  }
  const {browser} = config;
  if (browser.userDataDir !== undefined) {
    checkWritableFolder('userDataDir', browser.userDataDir, browser.userDataDir, 0o700);
  }
  if (browser.executablePath !== undefined) {
    checkExecutable('executablePath', browser.executablePath);
  }
  for (const root of config.workspaceRoots) {
    checkExistingFolder('workspace', root);
  }
  if (config.recording.enabled && config.recording.dir !== undefined) {
    checkWritableFolder('recordDir', config.recording.dir, config.recording.dir, 0o700);
  }
}

/** checkPathFlags as one line to print (undefined when every path is usable). */
export function pathFlagProblem(config: ServerConfig): string | undefined {
  try {
    checkPathFlags(config);
    return undefined;
  } catch (error) {
    if (error instanceof PathProblem) {
      return error.message;
    }
    throw error;
  }
}
