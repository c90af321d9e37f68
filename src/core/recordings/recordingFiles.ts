/**
 * The recordings folder on disk: which files are recordings, how big each is with its images, and
 * every read, write and removal in it. Nothing here follows a link: the folder is opened once per
 * operation as a checked folder handle (files/folder.ts), entries are reached through it with
 * O_NOFOLLOW, a link or anything but a plain file is skipped or refused, and the cached summary
 * is replaced atomically (a link planted under its name is replaced, never written through).
 * An id from a UI is only a file name that passes the id schema.
 */
import fs from 'node:fs';
import {Folder, FolderError} from '../files/folder.js';
import {recordingIdSchema, recordingImageFileSchema} from '../../shared/protocol.js';
import {RECORDING_FILE_EXTENSION} from '../../shared/recordingFile.js';

export interface StoredRecording {
  id: string;
  /** The recordings folder it is in. */
  dir: string;
  /** Its path, for messages. */
  file: string;
  /** The recording's own length. */
  fileBytes: number;
  /** The file plus its images folder. */
  bytes: number;
  mtimeMs: number;
  /** The user starred it: retention never removes it. */
  starred: boolean;
}

/** Largest image the Recordings panel is sent (a screenshot is a few MB at most). */
export const MAX_RECORDING_IMAGE_BYTES = 32 * 1024 * 1024;

/**
 * The largest recording the inspector reads (lists, searches, opens, replays, exports): a recorder's
 * file of a long run is far smaller (100,000 events: 47 MB). A bigger file is named with the
 * reason, never read: it may have been planted, and reading it would cost every other request.
 */
export const MAX_READ_RECORDING_BYTES = 512 * 1024 * 1024;

/** Why a recording of `bytes` is not read here, and what to do instead. */
export function tooLargeReason(bytes: number): string {
  const mb = (value: number): string => `${Math.round(value / (1024 * 1024))} MB`;
  return `${mb(bytes)}, over the ${mb(MAX_READ_RECORDING_BYTES)} the inspector reads; replay or export it from the command line (mcp-browser-inspector replay|export FILE), or delete it`;
}
/** Largest cached summary read back (it holds counts and at most 20 client names). */
const MAX_SUMMARY_BYTES = 1024 * 1024;

function baseOf(id: string): string {
  return id.slice(0, -RECORDING_FILE_EXTENSION.length);
}

/** `<base>.images`: the folder of a recording's images, next to it. */
export function imagesNameOf(id: string): string {
  return `${baseOf(id)}.images`;
}

/** `<base>.star`: an empty file next to a recording the user starred (kept from retention). */
export function starNameOf(id: string): string {
  return `${baseOf(id)}.star`;
}

/** `<base>.summary.json`: the cached summary next to a recording (see scan.ts). */
export function summaryNameOf(id: string): string {
  return `${baseOf(id)}.summary.json`;
}

export class RecordingNotFoundError extends Error {
  override name = 'RecordingNotFoundError';
}

/** Opens the recordings folder (the configured path may itself be a link: the user chose it). */
function openRecordingsFolder<T>(dir: string, work: (folder: Folder) => T): T {
  return Folder.with(dir, {follow: true}, work);
}

/** Bytes of the plain files directly in a recording's images folder (0 if it is a link). */
function imagesBytes(folder: Folder, id: string): number {
  if (folder.lstat(imagesNameOf(id))?.isDirectory() !== true) {
    return 0;
  }
  try {
    return Folder.with(folder.entry(imagesNameOf(id)), {}, images => {
      let total = 0;
      for (const entry of images.list()) {
        const stat = entry.isFile() ? images.lstat(entry.name) : undefined;
        total += stat?.isFile() ? stat.size : 0;
      }
      return total;
    });
  } catch {
    return 0;
  }
}

/** Every recording in the folder, newest first (by name: it starts with the start time). */
export function listStoredRecordings(dir: string): StoredRecording[] {
  let recordings: StoredRecording[];
  try {
    recordings = openRecordingsFolder(dir, folder => {
      const found: StoredRecording[] = [];
      for (const entry of folder.list()) {
        if (!entry.isFile() || !recordingIdSchema.safeParse(entry.name).success) {
          continue;
        }
        const stat = folder.lstat(entry.name);
        if (stat?.isFile() !== true) {
          continue;
        }
        found.push({
          id: entry.name,
          dir,
          file: folder.shown(entry.name),
          fileBytes: stat.size,
          bytes: stat.size + imagesBytes(folder, entry.name),
          mtimeMs: stat.mtimeMs,
          starred: folder.lstat(starNameOf(entry.name))?.isFile() === true,
        });
      }
      return found;
    });
  } catch {
    return [];
  }
  return recordings.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : b.mtimeMs - a.mtimeMs));
}

function checkedId(id: string): string {
  if (!recordingIdSchema.safeParse(id).success) {
    throw new RecordingNotFoundError(
      `"${id}" is not a recording id. Pick a recording from the list.`,
    );
  }
  return id;
}

function notThere(id: string): RecordingNotFoundError {
  return new RecordingNotFoundError(
    `Recording ${id} is no longer in the recordings folder (deleted or removed by retention). Refresh the list.`,
  );
}

/** Opens recording `id` as a plain file of the folder; `work` gets the descriptor. */
function withRecordingFd<T>(folder: Folder, id: string, work: (fd: number) => T): T {
  checkedId(id);
  let fd: number;
  try {
    fd = folder.openFile(id);
  } catch (error) {
    if (error instanceof FolderError || folder.lstat(id)?.isSymbolicLink() === true) {
      throw new RecordingNotFoundError(`Recording ${id} is not a plain file; it is not opened.`, {
        cause: error,
      });
    }
    throw notThere(id);
  }
  try {
    return work(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Runs `work` on recording `id`'s open descriptor (a plain file in `dir`, no link followed). */
export function readStoredRecording<T>(dir: string, id: string, work: (fd: number) => T): T {
  try {
    return openRecordingsFolder(dir, folder => withRecordingFd(folder, id, work));
  } catch (error) {
    if (error instanceof FolderError) {
      throw notThere(id);
    }
    throw error;
  }
}

/** Recording `id` opened for streaming (a plain file in `dir`, no link followed). */
export async function openStoredRecording(
  dir: string,
  id: string,
): Promise<fs.promises.FileHandle> {
  checkedId(id);
  return Folder.withAsync(dir, {follow: true}, folder => folder.openFileHandle(id));
}

/** One image of recording `id`: a plain file in its images folder, which is not a link. */
export function readRecordingImage(dir: string, id: string, image: string): Buffer {
  checkedId(id);
  if (!recordingImageFileSchema.safeParse(image).success) {
    throw new RecordingNotFoundError(`"${image}" is not an image of this recording.`);
  }
  return openRecordingsFolder(dir, folder => {
    withRecordingFd(folder, id, () => undefined);
    try {
      return Folder.with(folder.entry(imagesNameOf(id)), {}, images =>
        images.readFile(image, MAX_RECORDING_IMAGE_BYTES),
      );
    } catch (error) {
      throw new RecordingNotFoundError(
        error instanceof FolderError
          ? `The image ${image} cannot be read: ${error.message}`
          : `The image ${image} is missing from the recording's images folder.`,
        {cause: error},
      );
    }
  });
}

/** Removes a recording, its images and its summary — links among them as links. */
export function removeStoredRecording(dir: string, id: string): void {
  checkedId(id);
  openRecordingsFolder(dir, folder => {
    folder.removeFlatFolder(imagesNameOf(id));
    folder.removeFile(summaryNameOf(id));
    folder.removeFile(starNameOf(id));
    folder.removeFile(id);
  });
}

/** Stars recording `id` (it must be a plain file of the folder) or takes the star off. */
export function setStoredRecordingStar(dir: string, id: string, starred: boolean): void {
  openRecordingsFolder(dir, folder => {
    withRecordingFd(folder, id, () => undefined);
    if (starred) {
      folder.writeFileAtomic(starNameOf(id), '');
    } else {
      folder.removeFile(starNameOf(id));
    }
  });
}

/** The cached summary text of recording `id`, if there is a plain one. */
export function readCachedSummary(dir: string, id: string): string | undefined {
  try {
    return openRecordingsFolder(dir, folder =>
      folder.readFile(summaryNameOf(id), MAX_SUMMARY_BYTES).toString('utf8'),
    );
  } catch {
    return undefined;
  }
}

/** Replaces the cached summary of recording `id` (atomically; a link there is replaced). */
export function writeCachedSummary(dir: string, id: string, text: string): void {
  openRecordingsFolder(dir, folder => {
    folder.writeFileAtomic(summaryNameOf(id), text);
  });
}
