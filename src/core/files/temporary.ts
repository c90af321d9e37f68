/**
 * The server's own temporary files (screenshots too large to return inline, default screencast and
 * report paths): all under one private folder in the OS temp dir, created on first use and removed
 * when the server stops, so nothing piles up in /tmp across runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TEMPORARY_NOTE = 'a temporary file, removed when the server stops';

export class TemporaryFiles {
  #dir: Promise<string> | undefined;
  #created: string | undefined;
  #removed = false;

  constructor(
    private readonly parent: string = os.tmpdir(),
    private readonly onCreated: (dir: string) => void = () => undefined,
  ) {}

  /** The folder, if one was created. */
  get directory(): string | undefined {
    return this.#created;
  }

  #root(): Promise<string> {
    if (this.#removed) {
      return Promise.reject(new Error('The server is stopping; no new temporary files.'));
    }
    this.#dir ??= (async () => {
      const made = await fs.promises.mkdtemp(
        path.join(this.parent, `mcp-browser-inspector-${process.pid}-`),
      );
      // Canonical, so paths in replies match what the file checks resolve to (macOS /private/var).
      const real = await fs.promises.realpath(made);
      this.#created = real;
      this.onCreated(real);
      return real;
    })();
    return this.#dir;
  }

  /** A fresh private folder for one file or one recording. */
  async newFolder(): Promise<string> {
    const root = await this.#root();
    return fs.promises.mkdtemp(path.join(root, 'f-'));
  }

  /** Removes everything (bounded by the file system; synchronous so it also works on exit). */
  removeAll(): void {
    this.#removed = true;
    const dir = this.#created;
    if (dir !== undefined) {
      fs.rmSync(dir, {recursive: true, force: true});
      this.#created = undefined;
    }
  }
}
