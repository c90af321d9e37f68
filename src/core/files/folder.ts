/**
 * A checked folder handle: a folder opened once (O_DIRECTORY, optionally O_NOFOLLOW), its real
 * path read from the open descriptor, and its entries reached through that descriptor — on Linux
 * as /proc/self/fd/N/<name>, which the kernel resolves to the opened folder itself, whatever is
 * renamed or swapped for a link meanwhile (what openat does in C). Where there is no /proc
 * (macOS) entries are reached by the folder's path, and where folders cannot be opened (Windows)
 * the folder is checked by lstat and realpath: both are best effort, the checks on each opened
 * file (safeOpen.ts) still apply.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {atRacePoint} from './racePoint.js';

const POSIX = process.platform !== 'win32';
export const NOFOLLOW = POSIX ? fs.constants.O_NOFOLLOW : 0;
export const NONBLOCK = POSIX ? fs.constants.O_NONBLOCK : 0;
const DIRECTORY = POSIX ? fs.constants.O_DIRECTORY : 0;

export function sameFile(a: fs.Stats, b: fs.Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

export function errorCode(error: unknown): string | undefined {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** A name that stays in its folder: one segment, not "." or "..", no separators or NUL. */
export function isPlainName(name: string): boolean {
  return (
    name !== '' &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes('\\') &&
    !name.includes('\0') &&
    path.basename(name) === name
  );
}

export class FolderError extends Error {
  override name = 'FolderError';
}

function procBase(fd: number, stat: fs.Stats): string | undefined {
  if (process.platform !== 'linux') {
    return undefined;
  }
  const base = `/proc/self/fd/${fd}`;
  try {
    return sameFile(fs.statSync(base), stat) ? base : undefined;
  } catch {
    return undefined;
  }
}

function realOf(fd: number, dir: string, stat: fs.Stats): string | undefined {
  if (process.platform === 'linux') {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // No /proc: the portable check below.
    }
  }
  try {
    const real = fs.realpathSync(dir);
    return sameFile(fs.lstatSync(real), stat) ? real : undefined;
  } catch {
    return undefined;
  }
}

export interface FolderOptions {
  /** Follow a link in the folder's own last segment (default: refuse it). */
  follow?: boolean;
}

export class Folder {
  private constructor(
    /** The path it was opened by. */
    readonly path: string,
    /** Its real path when it was opened. */
    readonly real: string,
    readonly stat: fs.Stats,
    /** What entries are reached through: the descriptor's /proc path, or the folder's path. */
    readonly base: string,
    private fd: number | undefined,
  ) {}

  /** Opens `dir`; throws FolderError if it is not a folder (or, unless followed, is a link). */
  static open(dir: string, options: FolderOptions = {}): Folder {
    atRacePoint('open-folder', dir);
    if (!POSIX) {
      return Folder.#byPath(dir, options);
    }
    let fd: number;
    try {
      fd = fs.openSync(dir, fs.constants.O_RDONLY | DIRECTORY | (options.follow ? 0 : NOFOLLOW));
    } catch (error) {
      const code = errorCode(error);
      throw new FolderError(
        code === 'ELOOP' || code === 'ENOTDIR'
          ? `${dir} is not a folder (a link or a file).`
          : `${dir} cannot be opened (${code ?? String(error)}).`,
        {cause: error},
      );
    }
    try {
      const stat = fs.fstatSync(fd);
      const real = realOf(fd, dir, stat);
      if (!stat.isDirectory() || real === undefined) {
        throw new FolderError(`${dir} is not a folder this process can check.`);
      }
      return new Folder(dir, real, stat, procBase(fd, stat) ?? dir, fd);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  static #byPath(dir: string, options: FolderOptions): Folder {
    try {
      const stat = options.follow ? fs.statSync(dir) : fs.lstatSync(dir);
      if (!stat.isDirectory()) {
        throw new FolderError(`${dir} is not a folder (a link or a file).`);
      }
      return new Folder(dir, fs.realpathSync(dir), stat, dir, undefined);
    } catch (error) {
      if (error instanceof FolderError) {
        throw error;
      }
      throw new FolderError(`${dir} cannot be opened (${errorCode(error) ?? String(error)}).`, {
        cause: error,
      });
    }
  }

  /** Whether entries are reached through the descriptor itself (immune to swaps). */
  get anchored(): boolean {
    return this.base !== this.path;
  }

  /** The path of entry `name`, resolved against this opened folder. */
  entry(name: string): string {
    if (!isPlainName(name)) {
      throw new FolderError(`"${name}" is not a plain name in ${this.path}.`);
    }
    if (this.fd === undefined && this.anchored) {
      throw new FolderError(`${this.path} is closed.`);
    }
    return path.join(this.base, name);
  }

  /** The child folder `name`, never through a link. */
  child(name: string): Folder {
    return Folder.open(this.entry(name));
  }

  /** Entries right now, with their types as the folder lists them (links are links). */
  list(): fs.Dirent[] {
    return fs.readdirSync(this.base, {withFileTypes: true});
  }

  /** lstat of an entry, or undefined when it is missing. */
  lstat(name: string): fs.Stats | undefined {
    try {
      return fs.lstatSync(this.entry(name));
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
        return undefined;
      }
      throw error;
    }
  }

  /** What a message calls entry `name`. */
  shown(name: string): string {
    return path.join(this.path, name);
  }

  /**
   * Opens entry `name` as a regular file: never through a link, never blocking on a FIFO (refused
   * as not a regular file). Returns the descriptor; the caller closes it.
   */
  openFile(name: string, flags: number = fs.constants.O_RDONLY): number {
    const fd = fs.openSync(this.entry(name), flags | NOFOLLOW | NONBLOCK);
    try {
      if (!fs.fstatSync(fd).isFile()) {
        throw new FolderError(`${this.shown(name)} is not a regular file.`);
      }
      return fd;
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  /** Like openFile, as a FileHandle (for streams). */
  async openFileHandle(
    name: string,
    flags: number = fs.constants.O_RDONLY,
  ): Promise<fs.promises.FileHandle> {
    const handle = await fs.promises.open(this.entry(name), flags | NOFOLLOW | NONBLOCK);
    try {
      if (!(await handle.stat()).isFile()) {
        throw new FolderError(`${this.shown(name)} is not a regular file.`);
      }
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The whole of regular file `name`, refused when it is larger than `maxBytes`. */
  readFile(name: string, maxBytes: number): Buffer {
    const fd = this.openFile(name);
    try {
      const size = fs.fstatSync(fd).size;
      if (size > maxBytes) {
        throw new FolderError(
          `${this.shown(name)} is ${size} bytes, more than the ${maxBytes} this reads.`,
        );
      }
      const buffer = Buffer.alloc(size);
      let read = 0;
      while (read < size) {
        const got = fs.readSync(fd, buffer, read, size - read, read);
        if (got === 0) {
          break;
        }
        read += got;
      }
      return buffer.subarray(0, read);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Replaces entry `name` with `data` atomically: written to a fresh temporary entry in this
   * folder (O_EXCL, no link followed, mode 0600), then renamed over it — a link planted under
   * that name is replaced, never written through.
   */
  writeFileAtomic(name: string, data: string | Uint8Array): void {
    const temp = `.${name}.${process.pid}-${crypto.randomBytes(6).toString('hex')}.tmp`;
    const fd = fs.openSync(
      this.entry(temp),
      fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW,
      0o600,
    );
    try {
      try {
        fs.writeFileSync(fd, data);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(this.entry(temp), this.entry(name));
    } catch (error) {
      try {
        fs.unlinkSync(this.entry(temp));
      } catch {
        // Renamed already, or gone.
      }
      throw error;
    }
  }

  /** Removes entry `name` if it is a file or a link (the link itself); false when missing. */
  removeFile(name: string): boolean {
    const stat = this.lstat(name);
    if (stat === undefined) {
      return false;
    }
    if (stat.isDirectory()) {
      throw new FolderError(`${this.shown(name)} is a folder; it is not removed.`);
    }
    try {
      fs.unlinkSync(this.entry(name));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') {
        throw error;
      }
    }
    return true;
  }

  /**
   * Removes folder `name` and the files directly in it, never through a link: a link in its place
   * is removed itself, links inside it are removed as links, and folders inside it are left (then
   * the folder stays too).
   */
  removeFlatFolder(name: string): void {
    const stat = this.lstat(name);
    if (stat === undefined) {
      return;
    }
    if (!stat.isDirectory()) {
      this.removeFile(name);
      return;
    }
    Folder.with(this.entry(name), {}, child => {
      for (const entry of child.list()) {
        if (!entry.isDirectory()) {
          child.removeFile(entry.name);
        }
      }
    });
    try {
      fs.rmdirSync(this.entry(name));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTEMPTY') {
        throw error;
      }
    }
  }

  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) {
      fs.closeSync(fd);
    }
  }

  /** Runs `work` with `dir` open, closing it afterwards. */
  static with<T>(dir: string, options: FolderOptions, work: (folder: Folder) => T): T {
    const folder = Folder.open(dir, options);
    try {
      return work(folder);
    } finally {
      folder.close();
    }
  }

  static async withAsync<T>(
    dir: string,
    options: FolderOptions,
    work: (folder: Folder) => Promise<T>,
  ): Promise<T> {
    const folder = Folder.open(dir, options);
    try {
      return await work(folder);
    } finally {
      folder.close();
    }
  }
}
