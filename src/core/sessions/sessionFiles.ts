/**
 * The sessions folder on disk: which files are sessions, how big each is with its images, and how
 * an id from a UI becomes a path — only a file name that passes the id schema and names a plain
 * file directly inside the folder (no links, no folders, nothing outside).
 */
import fs from 'node:fs';
import path from 'node:path';
import {sessionIdSchema, sessionImageFileSchema} from '../../shared/protocol.js';
import {imagesDirOf} from './SessionRecorder.js';

export interface StoredSession {
  id: string;
  file: string;
  /** The session file's own length. */
  fileBytes: number;
  /** The file plus its images folder. */
  bytes: number;
  mtimeMs: number;
}

function folderBytes(dir: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, {withFileTypes: true});
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (entry.isFile()) {
      try {
        total += fs.statSync(path.join(dir, entry.name)).size;
      } catch {
        // Removed meanwhile.
      }
    }
  }
  return total;
}

/** Every session in the folder, newest first (by name: it starts with the start time). */
export function listStoredSessions(dir: string): StoredSession[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, {withFileTypes: true});
  } catch {
    return [];
  }
  const sessions: StoredSession[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !sessionIdSchema.safeParse(entry.name).success) {
      continue;
    }
    const file = path.join(dir, entry.name);
    try {
      const stat = fs.statSync(file);
      sessions.push({
        id: entry.name,
        file,
        fileBytes: stat.size,
        bytes: stat.size + folderBytes(imagesDirOf(file)),
        mtimeMs: stat.mtimeMs,
      });
    } catch {
      // Removed meanwhile.
    }
  }
  return sessions.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : b.mtimeMs - a.mtimeMs));
}

export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError';
}

/** The path of session `id` in `dir`, or an error that says what to do. */
export function sessionPath(dir: string, id: string): string {
  if (!sessionIdSchema.safeParse(id).success || path.basename(id) !== id) {
    throw new SessionNotFoundError(`"${id}" is not a session id. Pick a session from the list.`);
  }
  const file = path.join(dir, id);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    throw new SessionNotFoundError(
      `Session ${id} is no longer in the sessions folder (deleted or removed by retention). Refresh the list.`,
    );
  }
  if (!stat.isFile()) {
    throw new SessionNotFoundError(`Session ${id} is not a plain file; it is not opened.`);
  }
  return file;
}

/** The path of one image of session `id`. */
export function sessionImagePath(dir: string, id: string, image: string): string {
  const file = sessionPath(dir, id);
  if (!sessionImageFileSchema.safeParse(image).success || path.basename(image) !== image) {
    throw new SessionNotFoundError(`"${image}" is not an image of this session.`);
  }
  const imagePath = path.join(imagesDirOf(file), image);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(imagePath);
  } catch {
    throw new SessionNotFoundError(
      `The image ${image} is missing from the session's images folder.`,
    );
  }
  if (!stat.isFile()) {
    throw new SessionNotFoundError(`The image ${image} is not a plain file; it is not opened.`);
  }
  return imagePath;
}

/** Removes a session file, its images and its summary. */
export function removeStoredSession(file: string): void {
  fs.rmSync(imagesDirOf(file), {recursive: true, force: true});
  fs.rmSync(summaryPathOf(file), {force: true});
  fs.rmSync(file, {force: true});
}

/** The cached summary next to a session file (see scan.ts). */
export function summaryPathOf(file: string): string {
  return `${imagesDirOf(file).slice(0, -'.images'.length)}.summary.json`;
}
