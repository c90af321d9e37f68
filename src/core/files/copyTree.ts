/**
 * A checked copy of a folder: what another program will read (Chromium loading an unpacked
 * extension) is a private copy made here, so what it reads is what was checked — a link in the
 * original cannot lead it to the token or outside the roots, then or later. Folders are opened as
 * checked folder handles (files/folder.ts), files through O_NOFOLLOW descriptors whose real path
 * is checked, and the copy holds only plain files and folders. A link inside the original is
 * copied as what it leads to when that is inside the boundary, and refused otherwise. The walk is
 * bounded in files, bytes and depth.
 */
import fs from 'node:fs';
import path from 'node:path';
import {Folder, FolderError, NOFOLLOW} from './folder.js';
import {FileAccessError} from './roots.js';
import {
  openForReadingInside,
  realPathOfHandle,
  withinBoundary,
  type FileBoundary,
} from './safeOpen.js';
import {errorText} from '../../shared/values.js';

export interface CopyLimits {
  maxFiles: number;
  maxBytes: number;
  maxDepth: number;
}

const CHUNK_BYTES = 1024 * 1024;
const CREATE_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW;

interface CopyState {
  boundary: FileBoundary;
  limits: CopyLimits;
  /** What the refusal messages call the original. */
  source: string;
  files: number;
  bytes: number;
  /** Folders on the current path (device:inode), so a link back up is seen. */
  open: Set<string>;
}

export class CopyRefused extends FileAccessError {
  override name = 'CopyRefused';
}

function refuse(state: CopyState, detail: string): CopyRefused {
  return new CopyRefused(`${state.source} was not copied: ${detail}`);
}

/** Copies the rest of `from` (an opened file) to a new file `to`, counting toward the limits. */
async function copyBytes(
  from: fs.promises.FileHandle,
  to: string,
  shown: string,
  state: CopyState,
): Promise<void> {
  state.files++;
  if (state.files > state.limits.maxFiles) {
    throw refuse(state, `it holds more than ${state.limits.maxFiles} files.`);
  }
  const out = await fs.promises.open(to, CREATE_NEW, 0o600);
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (;;) {
      const {bytesRead} = await from.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) {
        return;
      }
      state.bytes += bytesRead;
      if (state.bytes > state.limits.maxBytes) {
        throw refuse(state, `it holds more than ${state.limits.maxBytes} bytes (at ${shown}).`);
      }
      await out.write(buffer, 0, bytesRead);
    }
  } finally {
    await out.close();
  }
}

/** Copies one file opened from `folder`, after checking where its descriptor really is. */
async function copyFile(
  folder: Folder,
  name: string,
  to: string,
  shown: string,
  state: CopyState,
): Promise<void> {
  const from = await folder.openFileHandle(name);
  try {
    const real = await realPathOfHandle(from, folder.entry(name));
    if (real === undefined || !withinBoundary(real, state.boundary)) {
      throw refuse(state, `${shown} resolved outside the allowed roots while it was read.`);
    }
    await copyBytes(from, to, shown, state);
  } finally {
    await from.close();
  }
}

/** A link in the original: copied as what it leads to, if that is inside the boundary. */
async function copyLink(
  folder: Folder,
  name: string,
  to: string,
  shown: string,
  state: CopyState,
  depth: number,
): Promise<void> {
  let target: string;
  try {
    target = await fs.promises.realpath(folder.entry(name));
  } catch {
    throw refuse(state, `the link ${shown} leads nowhere. Remove it, or replace it with the file.`);
  }
  if (!withinBoundary(target, state.boundary)) {
    throw refuse(
      state,
      `the link ${shown} leads to ${target}, outside the allowed roots or into the server's configuration folder. Remove the link (copy the file itself into the folder), then install again.`,
    );
  }
  const stat = await fs.promises.stat(target);
  if (stat.isDirectory()) {
    await copyFolder(Folder.open(target), to, shown, state, depth + 1);
    return;
  }
  const from = await openForReadingInside(target, state.boundary);
  try {
    await copyBytes(from, to, shown, state);
  } finally {
    await from.close();
  }
}

/** Copies the entries of `folder` (opened; this closes it) into the new folder `to`. */
async function copyFolder(
  folder: Folder,
  to: string,
  shown: string,
  state: CopyState,
  depth: number,
): Promise<void> {
  const key = `${folder.stat.dev}:${folder.stat.ino}`;
  try {
    if (!withinBoundary(folder.real, state.boundary)) {
      throw refuse(state, `${shown} resolved outside the allowed roots while it was read.`);
    }
    if (depth > state.limits.maxDepth) {
      throw refuse(state, `its folders nest deeper than ${state.limits.maxDepth} levels.`);
    }
    if (state.open.has(key)) {
      throw refuse(state, `${shown} is a link back to a folder that contains it.`);
    }
    state.open.add(key);
    await fs.promises.mkdir(to, {mode: 0o700});
    for (const entry of folder.list()) {
      const from = path.join(shown, entry.name);
      const into = path.join(to, entry.name);
      const stat = folder.lstat(entry.name);
      if (stat?.isSymbolicLink()) {
        await copyLink(folder, entry.name, into, from, state, depth);
      } else if (stat?.isDirectory()) {
        await copyFolder(folder.child(entry.name), into, from, state, depth + 1);
      } else if (stat?.isFile()) {
        await copyFile(folder, entry.name, into, from, state);
      } else if (stat !== undefined) {
        throw refuse(state, `${from} is not a file, folder or link.`);
      }
    }
  } finally {
    state.open.delete(key);
    folder.close();
  }
}

/**
 * Copies folder `source` into `target` (which must not exist yet; its parent is private to this
 * server), refusing it — with the reason and the next step — when anything in it leads outside
 * `boundary` or it exceeds `limits`. A refused copy is removed again.
 */
export async function copyFolderChecked(
  source: string,
  target: string,
  boundary: FileBoundary,
  limits: CopyLimits,
): Promise<void> {
  const state: CopyState = {boundary, limits, source, files: 0, bytes: 0, open: new Set()};
  if (fs.existsSync(target)) {
    throw new FileAccessError(`${target} exists already; a copy goes to a new folder.`);
  }
  let root: Folder;
  try {
    root = Folder.open(source, {follow: true});
  } catch (error) {
    throw new FileAccessError(
      `${source} is not a folder that can be read (${error instanceof FolderError ? error.message : errorText(error)}). Pass the path of an unpacked extension folder.`,
      {cause: error},
    );
  }
  try {
    await copyFolder(root, target, source, state, 0);
  } catch (error) {
    // Only what this call made (plain files and folders, in the server's private folder).
    fs.rmSync(target, {recursive: true, force: true});
    throw error instanceof FileAccessError
      ? error
      : new FileAccessError(`${source} was not copied: ${errorText(error)}`, {cause: error});
  }
}
