/**
 * File access for tools: every path a tool reads or writes is canonicalised (symlinks resolved,
 * missing tail segments re-appended) and must fall inside an allowed root: the client's MCP roots,
 * --workspace, and the OS temp dir. Every read and write goes through here, and the file actually
 * opened is checked again (files/safeOpen.ts), so a folder swapped for a link mid-call cannot
 * redirect it outside.
 */
import type fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {
  type BrowserFileRoots,
  canonicalPath,
  FileAccessError,
  filePathOfUrl,
  isInside,
  resolveRoots,
  WORKSPACE_REMEDY,
} from './roots.js';
import {
  type FileBoundary,
  openForReadingInside,
  openForWritingInside,
  removeInside,
} from './safeOpen.js';
import {TEMPORARY_NOTE, TemporaryFiles} from './temporary.js';
import {errorText} from '../../shared/values.js';

export {canonicalPath, FileAccessError} from './roots.js';

export interface RootsSource {
  /** The client's roots as file paths; resolves within the roots timeout. */
  clientRoots(): Promise<string[]>;
}

export interface FileAccessShared {
  /** The server's temporary folder (removed on exit). */
  temporary?: TemporaryFiles;
  /** Browser-wide file: URL policy; told about client roots a navigation used. */
  browserRoots?: BrowserFileRoots;
}

const fallbackTemporary = new TemporaryFiles();

/** Largest file copied for the browser to read (an upload). */
export const MAX_BROWSER_COPY_BYTES = 1024 * 1024 * 1024;
const COPY_CHUNK_BYTES = 1024 * 1024;

export class FileAccess {
  readonly #temporary: TemporaryFiles;

  constructor(
    private readonly workspaceRoots: readonly string[],
    private readonly roots: RootsSource,
    private readonly shared: FileAccessShared = {},
  ) {
    this.#temporary = shared.temporary ?? fallbackTemporary;
  }

  async allowedRoots(): Promise<string[]> {
    return resolveRoots([...(await this.roots.clientRoots()), ...this.workspaceRoots, os.tmpdir()]);
  }

  /** Returns the canonical path, or throws naming the roots and how to allow the path. */
  async validatePath(input: string): Promise<string> {
    return (await this.#check(input)).canonical;
  }

  /** The roots and the forbidden folders, canonical: what an opened file is checked against. */
  async boundary(): Promise<FileBoundary> {
    return {
      roots: await this.allowedRoots(),
      forbidden: (await this.shared.browserRoots?.forbiddenFolders()) ?? [],
    };
  }

  async #check(input: string): Promise<{canonical: string; root: string; boundary: FileBoundary}> {
    const canonical = await canonicalPath(input);
    const boundary = await this.boundary();
    const {roots} = boundary;
    const root = roots.find(candidate => isInside(canonical, candidate));
    if (root !== undefined && boundary.forbidden.some(folder => isInside(canonical, folder))) {
      throw new FileAccessError(
        `Access denied: ${input} is in the server's own configuration folder (it holds the token). Use another path.`,
      );
    }
    if (root !== undefined) {
      return {canonical, root, boundary};
    }
    throw new FileAccessError(
      `Access denied: path ${input} (canonical: ${canonical}) is not within any of the allowed roots (${roots.join(', ')}). Use a path inside them, or start the server with --workspace <dir>.`,
    );
  }

  /** Like validatePath, but also accepts file: URLs (checked) and http(s)/ws(s) URLs (passed through). */
  async validatePathOrUrl(input: string): Promise<string> {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
      const url = new URL(input);
      if (url.protocol === 'file:') {
        return pathToFileURL(await this.validatePath(fileURLToPath(url))).href;
      }
      if (['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) {
        return input;
      }
    }
    return this.validatePath(input);
  }

  /**
   * A file: URL the browser is asked to load must name a file inside the roots. The root it is in
   * is granted to the browser-wide policy, so the page's own files (styles, frames) load too.
   */
  async checkFileNavigation(url: string): Promise<void> {
    const file = filePathOfUrl(url);
    const refuse = (detail: string): FileAccessError =>
      new FileAccessError(
        `Access denied: ${url} ${detail}. Only files inside the allowed roots can be opened; ${WORKSPACE_REMEDY} (e.g. --workspace ${path.dirname(file ?? os.homedir())}).`,
      );
    if (file === undefined) {
      throw refuse('is not a local file path');
    }
    let checked: {root: string};
    try {
      checked = await this.#check(file);
    } catch {
      const roots = await this.allowedRoots();
      throw refuse(`is outside the allowed roots (${roots.join(', ')})`);
    }
    this.shared.browserRoots?.grant(checked.root);
  }

  /**
   * Opens a file for writing: validated again, parent folders created, mode 0600, never following
   * a symlink, and the opened file proven inside the roots. For streams (heap snapshots, videos);
   * the caller closes the handle.
   */
  async openForWriting(file: string): Promise<{target: string; handle: fs.promises.FileHandle}> {
    const {canonical, boundary} = await this.#check(file);
    return {target: canonical, handle: await openForWritingInside(canonical, boundary)};
  }

  /** Writes a whole file through openForWriting. */
  async writeFile(file: string, data: string | Uint8Array): Promise<string> {
    const {target, handle} = await this.openForWriting(file);
    try {
      await handle.writeFile(data);
    } catch (error) {
      throw new FileAccessError(`Could not write ${target}: ${errorText(error)}`, {cause: error});
    } finally {
      await handle.close();
    }
    return target;
  }

  /**
   * Opens a file for reading, once: validated, never following a symlink at the end, and the
   * opened descriptor proven a regular file inside the roots. Read only through the handle (hand
   * it, not the path, to whoever reads); the caller closes it.
   */
  async openForReading(file: string): Promise<{target: string; handle: fs.promises.FileHandle}> {
    const {canonical, boundary} = await this.#check(file);
    return {target: canonical, handle: await openForReadingInside(canonical, boundary)};
  }

  /** Reads a whole text file through openForReading. */
  async readTextFile(file: string): Promise<string> {
    const {handle} = await this.openForReading(file);
    try {
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  }

  /**
   * A private copy of a file for the browser to read later (upload_file): Chromium opens a path
   * whenever the page reads the file, long after any check, so it gets a copy made now through
   * the checked descriptor, under the same name, in the server's temporary folder.
   */
  async copyForBrowser(file: string): Promise<string> {
    const {target, handle} = await this.openForReading(file);
    try {
      const size = (await handle.stat()).size;
      if (size > MAX_BROWSER_COPY_BYTES) {
        throw new FileAccessError(
          `${target} is ${size} bytes; at most ${MAX_BROWSER_COPY_BYTES} bytes can be handed to the browser. Use a smaller file.`,
        );
      }
      const copy = path.join(await this.#temporary.newFolder(), path.basename(target));
      const out = await openForWritingInside(copy, await this.boundary());
      try {
        // Only the bytes checked above, even if the file grows meanwhile.
        const buffer = Buffer.alloc(Math.min(size, COPY_CHUNK_BYTES));
        for (let done = 0; done < size;) {
          const {bytesRead} = await handle.read(
            buffer,
            0,
            Math.min(buffer.length, size - done),
            done,
          );
          if (bytesRead === 0) {
            break;
          }
          await out.write(buffer, 0, bytesRead);
          done += bytesRead;
        }
      } finally {
        await out.close();
      }
      return copy;
    } finally {
      await handle.close();
    }
  }

  /** Removes a file inside the roots (a partial output); a missing file is fine. */
  async remove(file: string): Promise<void> {
    const {canonical, boundary} = await this.#check(file);
    await removeInside(canonical, boundary);
  }

  /** Writes into the server's temporary folder (removed when the server stops). */
  async writeTemporaryFile(name: string, data: string | Uint8Array): Promise<string> {
    const dir = await this.#temporary.newFolder();
    return this.writeFile(path.join(dir, path.basename(name)), data);
  }

  /** A fresh folder in the server's temporary folder, for outputs written later. */
  temporaryFolder(): Promise<string> {
    return this.#temporary.newFolder();
  }
}

/** How a reply names a temporary file, so the agent knows it will not outlive the server. */
export function temporaryFileNote(file: string): string {
  return `${file} (${TEMPORARY_NOTE})`;
}

/** Replaces the extension (shot.txt → shot.png), as chrome-devtools-mcp does for typed outputs. */
export function withExtension(file: string, extension: string): string {
  const parsed = path.parse(file);
  return path.join(parsed.dir, `${parsed.name}${extension}`);
}
