/**
 * Where files may be read and written: canonical paths (symlinks resolved) inside an allowed root.
 * `BrowserFileRoots` is the browser-wide view used to police file: URLs the browser loads on its
 * own (links, redirects, popups, frames): --workspace, the temp dir, and the client roots that a
 * tool call has already used for a file: navigation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

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

export function isInside(child: string, root: string): boolean {
  if (child === root) {
    return true;
  }
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return child.startsWith(prefix);
}

/** The realpath of each root that exists, without duplicates. */
export async function resolveRoots(candidates: readonly string[]): Promise<string[]> {
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

/** The local path of a file: URL, or undefined when it has none (another host, bad escapes). */
export function filePathOfUrl(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}

export const WORKSPACE_REMEDY = 'start the server with --workspace <dir> to allow a folder';

export class BrowserFileRoots {
  readonly #granted = new Set<string>();

  /**
   * `forbidden`: folders never readable or writable even inside a root (the server's own config
   * folder, which holds its token).
   */
  constructor(
    private readonly workspaceRoots: readonly string[],
    readonly forbidden: readonly string[] = [],
  ) {}

  /** The forbidden folders that exist, canonical. */
  forbiddenFolders(): Promise<string[]> {
    return resolveRoots(this.forbidden);
  }

  /** Whether a canonical path lies in a forbidden folder. */
  async isForbidden(canonical: string): Promise<boolean> {
    const folders = await this.forbiddenFolders();
    return folders.some(folder => isInside(canonical, folder));
  }

  /** A root a tool call was allowed to navigate into (a client's MCP root). */
  grant(root: string): void {
    this.#granted.add(root);
  }

  async roots(): Promise<string[]> {
    return resolveRoots([...this.workspaceRoots, os.tmpdir(), ...this.#granted]);
  }

  /** Whether the browser may load this file: URL (its canonical path is inside a root). */
  async allowsUrl(url: string): Promise<boolean> {
    const file = filePathOfUrl(url);
    if (file === undefined) {
      return false;
    }
    try {
      const canonical = await canonicalPath(file);
      const roots = await this.roots();
      return roots.some(root => isInside(canonical, root)) && !(await this.isForbidden(canonical));
    } catch {
      return false;
    }
  }
}
