/**
 * Opening a file so that it is provably inside the allowed roots. Checking a path and then opening
 * it is a race: another process can swap a parent folder for a symlink in between (O_NOFOLLOW only
 * guards the last segment). So the check is repeated on what was actually opened: the kernel's
 * path of the open descriptor (/proc/self/fd/N on Linux), or elsewhere the canonical path whose
 * device and inode match the descriptor. Only regular files are opened (O_NONBLOCK, so a planted
 * FIFO cannot hang the open). Missing folders are created one at a time, each inside its parent
 * opened and checked before (files/folder.ts), and the file inside the last of them. A file
 * created outside is removed again; an existing file is truncated only after the check. Only what
 * this code created is ever removed: by the name it was created under in its checked folder,
 * after an lstat shows the same device and inode — never through a resolved path, which may name
 * someone else's folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import {errorCode, Folder, FolderError, NOFOLLOW, NONBLOCK, sameFile} from './folder.js';
import {atRacePoint} from './racePoint.js';
import {FileAccessError, isInside} from './roots.js';
import {errorText} from '../../shared/values.js';

type Handle = fs.promises.FileHandle;

/** Where a file may be: inside one of `roots`, and inside none of `forbidden` (all canonical). */
export interface FileBoundary {
  roots: readonly string[];
  forbidden: readonly string[];
}

export function withinBoundary(real: string, boundary: FileBoundary): boolean {
  return (
    boundary.roots.some(root => isInside(real, root)) &&
    !boundary.forbidden.some(folder => isInside(real, folder))
  );
}

/** The real path of what `handle` refers to, as the OS sees it now. */
export async function realPathOfHandle(
  handle: Handle,
  openedAs: string,
): Promise<string | undefined> {
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
    return sameFile(before, named) && sameFile(after, named) ? real : undefined;
  } catch {
    return undefined;
  }
}

async function within(
  handle: Handle,
  openedAs: string,
  boundary: FileBoundary,
): Promise<{inside: boolean; real: string | undefined}> {
  const real = await realPathOfHandle(handle, openedAs);
  return {inside: real !== undefined && withinBoundary(real, boundary), real};
}

/**
 * Removes the file or empty folder this code created as `created` (its lstat right after
 * creation), by the path it was created under — relative to a checked folder — and only while
 * that path still names it. Returns whether it is gone.
 */
async function removeCreated(createdAs: string, created: fs.Stats): Promise<boolean> {
  try {
    const named = await fs.promises.lstat(createdAs);
    if (!sameFile(named, created)) {
      return false;
    }
    await (named.isDirectory() ? fs.promises.rmdir(createdAs) : fs.promises.unlink(createdAs));
    return true;
  } catch {
    return false;
  }
}

function escaped(target: string, real: string | undefined, leftBehind = false): FileAccessError {
  return new FileAccessError(
    `Access denied: ${target} resolved outside the allowed roots while it was opened${real === undefined ? '' : ` (to ${real})`}; a folder on the way was replaced by a link. Nothing was written${leftBehind ? ', but an empty entry this server created there was moved before it could be removed' : ''}. Retry with a path whose folders are not links.`,
  );
}

/** The folder's lstat if this call made it, undefined if it was there already. */
async function makeOneFolder(entry: string, shown: string): Promise<fs.Stats | undefined> {
  try {
    await fs.promises.mkdir(entry, {mode: 0o700});
  } catch (error) {
    if (errorCode(error) === 'EEXIST') {
      return undefined;
    }
    throw new FileAccessError(`Could not create ${shown}: ${errorText(error)}`, {cause: error});
  }
  return fs.promises.lstat(entry).catch(() => undefined);
}

/** Opens a folder and proves it is inside the boundary; the caller closes it. */
function openFolderInside(
  dir: string,
  shown: string,
  boundary: FileBoundary,
  follow: boolean,
): Folder {
  let folder: Folder;
  try {
    folder = Folder.open(dir, {follow});
  } catch (error) {
    if (error instanceof FolderError) {
      throw new FileAccessError(
        `Could not use ${shown}: it is not a folder, or was replaced by a link.`,
        {cause: error},
      );
    }
    throw error;
  }
  if (!withinBoundary(folder.real, boundary)) {
    folder.close();
    throw escaped(shown, folder.real);
  }
  return folder;
}

/** The nearest existing folder of `dir` and the names missing below it, top down. */
async function existingAncestor(dir: string): Promise<{existing: string; missing: string[]}> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    try {
      const stat = await fs.promises.stat(current);
      if (!stat.isDirectory()) {
        throw new FileAccessError(`Could not create ${dir}: ${current} is not a folder.`);
      }
      return {existing: current, missing};
    } catch (error) {
      if (error instanceof FileAccessError) {
        throw error;
      }
      const parent = path.dirname(current);
      if (parent === current) {
        throw new FileAccessError(`Could not create ${dir}: no existing parent folder.`);
      }
      missing.unshift(path.basename(current));
      current = parent;
    }
  }
}

/** Creates (or opens) `name` in the checked `parent` and proves it is inside; the caller closes. */
async function childFolderInside(
  parent: Folder,
  name: string,
  shown: string,
  boundary: FileBoundary,
): Promise<Folder> {
  const entry = parent.entry(name);
  const created = await makeOneFolder(entry, shown);
  if (created !== undefined) {
    atRacePoint('created-folder', entry);
  }
  let child: Folder;
  try {
    // A folder this call made must still be that folder (no link put in its place); one that was
    // there already may be a link, if it leads inside.
    child = openFolderInside(entry, shown, boundary, created === undefined);
  } catch (error) {
    if (created !== undefined && !(await removeCreated(entry, created))) {
      throw escaped(shown, undefined, true);
    }
    throw error;
  }
  if (created !== undefined && !sameFile(child.stat, created)) {
    child.close();
    throw escaped(shown, child.real, true);
  }
  return child;
}

/**
 * Creates the missing folders of `dir` one at a time, each inside its checked parent (never
 * through a path resolved again); every folder on the way must be inside the boundary, else
 * what this call created is removed again and this throws. Returns `dir`, opened and checked.
 */
async function makeDirectoryInside(dir: string, boundary: FileBoundary): Promise<Folder> {
  const {existing, missing} = await existingAncestor(dir);
  let folder = openFolderInside(existing, existing, boundary, true);
  let shown = existing;
  try {
    for (const name of missing) {
      shown = path.join(shown, name);
      const child = await childFolderInside(folder, name, shown, boundary);
      folder.close();
      folder = child;
    }
  } catch (error) {
    folder.close();
    throw error;
  }
  return folder;
}

async function openCreating(target: string): Promise<{handle: Handle; created?: fs.Stats}> {
  const base = fs.constants.O_WRONLY | NOFOLLOW | NONBLOCK;
  atRacePoint('open-file', target);
  try {
    const handle = await fs.promises.open(
      target,
      base | fs.constants.O_CREAT | fs.constants.O_EXCL,
      0o600,
    );
    const created = await fs.promises.lstat(target).catch(() => undefined);
    return {handle, ...(created ? {created} : {})};
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') {
      throw error;
    }
    return {handle: await fs.promises.open(target, base)};
  }
}

/**
 * Opens `target` (already canonical and checked) for writing with mode 0600, never following a
 * symlink, created in its checked folder, and proves the opened file is a regular file inside the
 * boundary. The caller closes the handle.
 */
export async function openForWritingInside(
  target: string,
  boundary: FileBoundary,
): Promise<Handle> {
  const folder = await makeDirectoryInside(path.dirname(target), boundary);
  try {
    return await openFileInFolder(folder, target, boundary);
  } finally {
    folder.close();
  }
}

async function openFileInFolder(
  folder: Folder,
  target: string,
  boundary: FileBoundary,
): Promise<Handle> {
  const entry = folder.entry(path.basename(target));
  let opened: {handle: Handle; created?: fs.Stats};
  try {
    opened = await openCreating(entry);
  } catch (error) {
    throw new FileAccessError(`Could not write ${target}: ${errorText(error)}`, {cause: error});
  }
  const {handle, created} = opened;
  const check = await within(handle, entry, boundary);
  const held = await handle.stat();
  // The file created is the one held (not swapped between the open and the lstat).
  const ours = created !== undefined && sameFile(held, created);
  if (!check.inside || !held.isFile()) {
    const removed = !ours || (await removeCreated(entry, created));
    await handle.close();
    if (!held.isFile()) {
      throw new FileAccessError(`Could not write ${target}: it is not a regular file.`);
    }
    throw escaped(target, check.real, !removed);
  }
  if (created === undefined) {
    try {
      await handle.truncate(0);
    } catch (error) {
      await handle.close();
      throw new FileAccessError(`Could not write ${target}: ${errorText(error)}`, {cause: error});
    }
  }
  return handle;
}

/**
 * Opens `target` (already canonical and checked) for reading and proves it is a regular file
 * inside the boundary.
 */
export async function openForReadingInside(
  target: string,
  boundary: FileBoundary,
): Promise<Handle> {
  let handle: Handle;
  atRacePoint('open-file', target);
  try {
    handle = await fs.promises.open(target, fs.constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (error) {
    throw new FileAccessError(`Could not read ${target}: ${errorText(error)}`, {cause: error});
  }
  const check = await within(handle, target, boundary);
  if (!check.inside) {
    await handle.close();
    throw new FileAccessError(
      `Access denied: ${target} resolved outside the allowed roots while it was opened${check.real === undefined ? '' : ` (to ${check.real})`}. Retry with a path whose folders are not links.`,
    );
  }
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw new FileAccessError(`Could not read ${target}: it is not a regular file.`);
  }
  return handle;
}

/** Removes `target` if the file it names now is inside the boundary; a missing file is fine. */
export async function removeInside(target: string, boundary: FileBoundary): Promise<void> {
  let folder: Folder;
  try {
    folder = openFolderInside(path.dirname(target), path.dirname(target), boundary, true);
  } catch (error) {
    if (!fs.existsSync(path.dirname(target))) {
      return;
    }
    throw error;
  }
  try {
    const entry = folder.entry(path.basename(target));
    let handle: Handle;
    try {
      handle = await fs.promises.open(entry, fs.constants.O_RDONLY | NOFOLLOW | NONBLOCK);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') {
        return;
      }
      throw new FileAccessError(`Could not remove ${target}: ${errorText(error)}`, {cause: error});
    }
    try {
      const check = await within(handle, entry, boundary);
      if (!check.inside) {
        throw escaped(target, check.real);
      }
      await removeCreated(entry, await handle.stat());
    } finally {
      await handle.close();
    }
  } finally {
    folder.close();
  }
}
