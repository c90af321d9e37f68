/**
 * File access for tools: every path a tool reads or writes is canonicalised (symlinks resolved,
 * missing tail segments re-appended) and must fall inside an allowed root: the client's MCP roots,
 * --workspace, and the OS temp dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

export class FileAccessError extends Error {}

/** realpath of the nearest existing ancestor, with the missing segments appended again. */
export async function canonicalPath(input: string): Promise<string> {
  const absolute = path.resolve(input);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await fs.promises.realpath(current);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) {
        throw new FileAccessError(`Access denied: Cannot resolve base path for ${input}.`);
      }
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isInside(child: string, root: string): boolean {
  if (child === root) {
    return true;
  }
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return child.startsWith(prefix);
}

export interface RootsSource {
  /** The client's roots as file paths; resolves within the roots timeout. */
  clientRoots(): Promise<string[]>;
}

export class FileAccess {
  constructor(
    private readonly workspaceRoots: readonly string[],
    private readonly roots: RootsSource,
  ) {}

  async allowedRoots(): Promise<string[]> {
    const candidates = [...(await this.roots.clientRoots()), ...this.workspaceRoots, os.tmpdir()];
    const resolved: string[] = [];
    for (const root of candidates) {
      try {
        resolved.push(await fs.promises.realpath(root));
      } catch {
        // A root that does not exist cannot contain anything.
      }
    }
    return [...new Set(resolved)];
  }

  /** Returns the canonical path, or throws naming the roots and how to allow the path. */
  async validatePath(input: string): Promise<string> {
    const canonical = await canonicalPath(input);
    const roots = await this.allowedRoots();
    if (roots.some(root => isInside(canonical, root))) {
      return canonical;
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
   * Opens a file for writing: validated again, parent folders created, mode 0600, never following
   * a symlink. For streams (heap snapshots, videos); the caller closes the handle.
   */
  async openForWriting(file: string): Promise<{target: string; handle: fs.promises.FileHandle}> {
    const target = await this.validatePath(file);
    await fs.promises.mkdir(path.dirname(target), {recursive: true});
    const flags =
      fs.constants.O_WRONLY |
      fs.constants.O_CREAT |
      fs.constants.O_TRUNC |
      (process.platform === 'win32' ? 0 : fs.constants.O_NOFOLLOW);
    try {
      return {target, handle: await fs.promises.open(target, flags, 0o600)};
    } catch (error) {
      throw new FileAccessError(
        `Could not write ${target}: ${error instanceof Error ? error.message : String(error)}`,
        {cause: error},
      );
    }
  }

  /** Writes a whole file through openForWriting. */
  async writeFile(file: string, data: string | Uint8Array): Promise<string> {
    const {target, handle} = await this.openForWriting(file);
    try {
      await handle.writeFile(data);
    } catch (error) {
      throw new FileAccessError(
        `Could not write ${target}: ${error instanceof Error ? error.message : String(error)}`,
        {cause: error},
      );
    } finally {
      await handle.close();
    }
    return target;
  }

  /** Writes into a fresh private folder under the OS temp dir. */
  async writeTemporaryFile(name: string, data: string | Uint8Array): Promise<string> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'mcp-browser-inspector-'));
    return this.writeFile(path.join(dir, name), data);
  }
}

/** Replaces the extension (shot.txt → shot.png), as chrome-devtools-mcp does for typed outputs. */
export function withExtension(file: string, extension: string): string {
  const parsed = path.parse(file);
  return path.join(parsed.dir, `${parsed.name}${extension}`);
}
