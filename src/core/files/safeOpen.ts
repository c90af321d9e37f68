/**
 * Opening a file so that it is provably inside the allowed roots. Checking a path and then opening
 * it is a race: another process can swap a parent folder for a symlink in between (O_NOFOLLOW only
 * guards the last segment). So the check is repeated on what was actually opened: the kernel's
 * path of the open descriptor (/proc/self/fd/N on Linux), or elsewhere the canonical path whose
 * device and inode match the descriptor. A file created outside is removed again; an existing file
 * is truncated only after the check. Folders are created one at a time and checked the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import {FileAccessError, isInside} from './roots.js';
import {errorText} from '../../shared/values.js';

type Handle = fs.promises.FileHandle;

const NOFOLLOW = process.platform === 'win32' ? 0 : fs.constants.O_NOFOLLOW;

function errorCode(error: unknown): string | undefined {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** The real path of what `handle` refers to, as the OS sees it now. */
async function realPathOfHandle(handle: Handle, openedAs: string): Promise<string | undefined> {
  if (process.platform === 'linux') {
    try {
      return await fs.promises.readlink(`/proc/self/fd/${handle.fd}`);
    } catch {
      // /proc not mounted: fall through to the portable check.
    }
  }
  // Portable: the canonical path names the same inode as the descriptor, checked on both sides of
  // the realpath so a swap in between is seen.
  try {
    const before = await handle.stat();
    const real = await fs.promises.realpath(openedAs);
    const named = await fs.promises.lstat(real);
    const after = await handle.stat();
    const same = (a: fs.Stats, b: fs.Stats): boolean => a.dev === b.dev && a.ino === b.ino;
    return same(before, named) && same(after, named) ? real : undefined;
  } catch {
    return undefined;
  }
}

async function insideRoots(
  handle: Handle,
  openedAs: string,
  roots: readonly string[],
): Promise<{inside: boolean; real: string | undefined}> {
  const real = await realPathOfHandle(handle, openedAs);
  return {inside: real !== undefined && roots.some(root => isInside(real, root)), real};
}

/** Removes a file we created outside the roots, if it is still the one we hold. */
async function removeStray(handle: Handle, real: string | undefined): Promise<void> {
  if (real === undefined) {
    return;
  }
  try {
    const held = await handle.stat();
    const named = await fs.promises.lstat(real);
    if (held.dev === named.dev && held.ino === named.ino) {
      await fs.promises.unlink(real);
    }
  } catch {
    // Gone already.
  }
}

function escaped(target: string, real: string | undefined): FileAccessError {
  return new FileAccessError(
    `Access denied: ${target} resolved outside the allowed roots while it was opened${real === undefined ? '' : ` (to ${real})`}; a folder on the way was replaced by a link. Nothing was written. Retry with a path whose folders are not links.`,
  );
}

/**
 * Creates the missing folders of `dir` one at a time; each new folder must resolve inside a root
 * (else it is removed again and this throws).
 */
async function makeDirectoryInside(dir: string, roots: readonly string[]): Promise<void> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      const stat = await fs.promises.stat(current);
      if (!stat.isDirectory()) {
        throw new FileAccessError(`Could not create ${dir}: ${current} is not a folder.`);
      }
      break;
    } catch (error) {
      if (error instanceof FileAccessError) {
        throw error;
      }
      const parent = path.dirname(current);
      if (parent === current) {
        throw new FileAccessError(`Could not create ${dir}: no existing parent folder.`);
      }
      missing.unshift(current);
      current = parent;
    }
  }
  for (const folder of missing) {
    try {
      await fs.promises.mkdir(folder, {mode: 0o700});
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') {
        throw new FileAccessError(`Could not create ${folder}: ${errorText(error)}`, {
          cause: error,
        });
      }
    }
    const real = await fs.promises.realpath(folder).catch(() => undefined);
    if (real === undefined || !roots.some(root => isInside(real, root))) {
      if (real !== undefined) {
        await fs.promises.rmdir(real).catch(() => undefined);
      }
      throw escaped(folder, real);
    }
  }
}

/**
 * Opens `target` (already canonical and checked) for writing with mode 0600, never following a
 * symlink, and proves the opened file is inside `roots`. The caller closes the handle.
 */
export async function openForWritingInside(
  target: string,
  roots: readonly string[],
): Promise<Handle> {
  await makeDirectoryInside(path.dirname(target), roots);
  const base = fs.constants.O_WRONLY | NOFOLLOW;
  let handle: Handle;
  let created = true;
  try {
    try {
      handle = await fs.promises.open(
        target,
        base | fs.constants.O_CREAT | fs.constants.O_EXCL,
        0o600,
      );
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') {
        throw error;
      }
      created = false;
      handle = await fs.promises.open(target, base);
    }
  } catch (error) {
    throw new FileAccessError(`Could not write ${target}: ${errorText(error)}`, {cause: error});
  }
  const check = await insideRoots(handle, target, roots);
  if (!check.inside) {
    if (created) {
      await removeStray(handle, check.real);
    }
    await handle.close();
    throw escaped(target, check.real);
  }
  if (!created) {
    try {
      await handle.truncate(0);
    } catch (error) {
      await handle.close();
      throw new FileAccessError(`Could not write ${target}: ${errorText(error)}`, {cause: error});
    }
  }
  return handle;
}

/** Opens `target` (already canonical and checked) for reading and proves it is inside `roots`. */
export async function openForReadingInside(
  target: string,
  roots: readonly string[],
): Promise<Handle> {
  let handle: Handle;
  try {
    handle = await fs.promises.open(target, fs.constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    throw new FileAccessError(`Could not read ${target}: ${errorText(error)}`, {cause: error});
  }
  const check = await insideRoots(handle, target, roots);
  if (!check.inside) {
    await handle.close();
    throw new FileAccessError(
      `Access denied: ${target} resolved outside the allowed roots while it was opened${check.real === undefined ? '' : ` (to ${check.real})`}. Retry with a path whose folders are not links.`,
    );
  }
  return handle;
}

/** Removes `target` if the file it names now is inside `roots`; a missing file is fine. */
export async function removeInside(target: string, roots: readonly string[]): Promise<void> {
  let handle: Handle;
  try {
    handle = await fs.promises.open(target, fs.constants.O_RDONLY | NOFOLLOW);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      return;
    }
    throw new FileAccessError(`Could not remove ${target}: ${errorText(error)}`, {cause: error});
  }
  try {
    const check = await insideRoots(handle, target, roots);
    if (!check.inside) {
      throw escaped(target, check.real);
    }
    await removeStray(handle, check.real);
  } finally {
    await handle.close();
  }
}
