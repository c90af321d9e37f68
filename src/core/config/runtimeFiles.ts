/**
 * The per-user runtime folder where every running server announces itself (shared/runningServers):
 * `$XDG_RUNTIME_DIR/mcp-browser-inspector` on Linux (a per-user tmpfs), else `servers/` in the
 * user's config folder (also where MCP_BROWSER_INSPECTOR_CONFIG_DIR points). The folder is 0700 and
 * must belong to this user, each file 0600 and this user's; anything else there (another user's
 * file, a link, a file of a process that is gone) is never listed, and files of gone processes are
 * removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import {APP_ID} from '../../shared/constants.js';
import {runtimeFileSchema, type RuntimeFile} from '../../shared/runningServers.js';
import {userConfigDir} from './paths.js';
import {writeReadyFile} from './readyFiles.js';

/** A runtime file is small; a bigger one is not ours. */
const MAX_FILE_BYTES = 64 * 1024;
/** Files read at most per listing (a folder someone filled is not read without end). */
const MAX_FILES = 500;

export function runtimeDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (
    env.MCP_BROWSER_INSPECTOR_CONFIG_DIR === undefined ||
    env.MCP_BROWSER_INSPECTOR_CONFIG_DIR === ''
  ) {
    const runtime = env.XDG_RUNTIME_DIR;
    if (platform === 'linux' && runtime !== undefined && path.isAbsolute(runtime)) {
      return path.join(runtime, APP_ID);
    }
  }
  return path.join(userConfigDir(env), 'servers');
}

const ownUid = (): number | undefined => process.getuid?.();

/** Whether an lstat result is this user's own (always true where there are no uids). */
function isOwn(stat: fs.Stats): boolean {
  const uid = ownUid();
  return uid === undefined || stat.uid === uid;
}

/**
 * Makes the folder (0700) or checks the one there: a real folder of this user, tightened to 0700.
 * Throws with the reason when it cannot be used.
 */
export function privateRuntimeDir(dir: string): string {
  fs.mkdirSync(dir, {recursive: true, mode: 0o700});
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new Error(`${dir} is not a folder (a link or a file is there)`);
  }
  if (!isOwn(stat)) {
    throw new Error(`${dir} belongs to another user`);
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    fs.chmodSync(dir, 0o700);
  }
  return dir;
}

/** Linux: a process's start time in clock ticks (with its pid, one process for good). */
export function processStartTicks(pid: number): string | undefined {
  if (process.platform !== 'linux') {
    return undefined;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote a runtime file still runs (and is still that process). */
function stillRuns(entry: RuntimeFile): boolean {
  try {
    process.kill(entry.pid, 0);
  } catch {
    // ESRCH, or EPERM: a process of another user has that pid now; ours is gone.
    return false;
  }
  return entry.startTicks === undefined || processStartTicks(entry.pid) === entry.startTicks;
}

/** Writes this process's runtime file (atomically, 0600); returns its path. */
export function writeRuntimeFile(dir: string, entry: RuntimeFile): string {
  return writeReadyFile(path.join(privateRuntimeDir(dir), `${entry.pid}.json`), entry);
}

function readEntry(file: string, name: string): RuntimeFile | 'stale' | undefined {
  const stat = fs.lstatSync(file, {throwIfNoEntry: false});
  // Only this user's regular files, of a sensible size: never a link, a pipe, another's file.
  if (!stat?.isFile() || !isOwn(stat) || stat.size > MAX_FILE_BYTES) {
    return undefined;
  }
  let parsed;
  try {
    parsed = runtimeFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
  if (!parsed.success || `${parsed.data.pid}.json` !== name) {
    return undefined;
  }
  return stillRuns(parsed.data) ? parsed.data : 'stale';
}

/** Removes a leftover temp file of a writer that is gone (`<pid>.json.<pid>.tmp`). */
function dropDeadTemp(dir: string, name: string): void {
  const pid = Number(/^\d+\.json\.(\d+)\.tmp$/.exec(name)?.[1]);
  if (!Number.isInteger(pid)) {
    return;
  }
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(path.join(dir, name), {force: true});
  }
}

/**
 * The servers running now, oldest first. Files of processes that are gone are removed; a folder
 * that is missing, a link, or another user's lists nothing.
 */
export function listRuntimeFiles(dir: string): RuntimeFile[] {
  const stat = fs.lstatSync(dir, {throwIfNoEntry: false});
  if (!stat?.isDirectory() || !isOwn(stat)) {
    return [];
  }
  const found: RuntimeFile[] = [];
  for (const name of fs.readdirSync(dir).slice(0, MAX_FILES)) {
    if (!/^\d+\.json$/.test(name)) {
      dropDeadTemp(dir, name);
      continue;
    }
    const file = path.join(dir, name);
    const entry = readEntry(file, name);
    if (entry === 'stale') {
      fs.rmSync(file, {force: true});
    } else if (entry !== undefined) {
      found.push(entry);
    }
  }
  return found.sort((a, b) => a.startedAt - b.startedAt);
}
