/**
 * Heap snapshots loaded for analysis, one worker thread each, cached by canonical path until
 * close_heapsnapshot (or the engine stops). The caller opens and checks the file (FileAccess);
 * the opened handle itself goes to the worker, so the path is never opened again and a folder
 * swapped for a link meanwhile changes nothing. Parsing a big snapshot can outlast one call: a
 * call waits a bounded time, and if the file is still loading it says so while loading goes on,
 * so the next call picks it up.
 */
import type {FileHandle} from 'node:fs/promises';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {Worker} from 'node:worker_threads';
import type {z} from 'zod';
import {withTimeout} from '../browser/lock.js';
import {findUpward} from '../files/findUpward.js';
import {workerMessageSchema, type HeapRequest} from './protocol.js';

/** One call waits at most this long for a load or an answer (below the 45 s lock wait). */
const HEAP_WAIT_MS = 40_000;
/**
 * Heap of one snapshot worker. The typed arrays of nodes and edges live outside it; their size is
 * bounded by the file's (the header is checked against it, see snapshotHeader.ts).
 */
const WORKER_HEAP_MB = 1024;
const WORKER_YOUNG_HEAP_MB = 64;
const WORKER_STACK_MB = 8;
const WORKER_FILE = 'heapSnapshotWorker.js';

const VALID_EXTENSIONS = ['.heapsnapshot', '.heaptimeline'];

/**
 * Finds out/heap/heapSnapshotWorker.js from the bundle (out/node/cli, out/main) or the sources. In
 * the packaged desktop app it lies in app.asar.unpacked (electron-builder's asarUnpack).
 */
export function findWorkerFile(startDir: string): string | undefined {
  return findUpward(startDir.replace(/app\.asar(?=[\\/]|$)/, 'app.asar.unpacked'), dir => [
    path.join(dir, 'out', 'heap', WORKER_FILE),
    path.join(dir, 'heap', WORKER_FILE),
  ]);
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One loaded (or loading) snapshot and the worker that holds it. */
export class LoadedSnapshot {
  /** Unique per load: DevTools caches diffs against a base snapshot under this number. */
  readonly uid: number;
  readonly loaded: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failure: Error | undefined;

  /** Takes over `file` (opened and checked): it is transferred to the worker, which closes it. */
  constructor(
    readonly filePath: string,
    uid: number,
    workerFile: string,
    file: FileHandle,
  ) {
    this.uid = uid;
    this.#worker = new Worker(workerFile, {
      workerData: {file},
      transferList: [file],
      resourceLimits: {
        maxOldGenerationSizeMb: WORKER_HEAP_MB,
        maxYoungGenerationSizeMb: WORKER_YOUNG_HEAP_MB,
        stackSizeMb: WORKER_STACK_MB,
      },
      // DevTools logs snapshot problems to the console; with --stdio our stdout carries MCP.
      stdout: true,
      stderr: true,
    });
    this.#worker.stdout.resume();
    this.#worker.stderr.resume();
    this.loaded = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (raw: unknown) => {
        const message = workerMessageSchema.safeParse(raw);
        if (!message.success) {
          return;
        }
        const data = message.data;
        if (data.kind === 'loaded') {
          resolve();
        } else if (data.kind === 'loadFailed') {
          reject(new Error(`Could not load heap snapshot ${filePath}: ${data.message}`));
        } else {
          const pending = this.#pending.get(data.id);
          this.#pending.delete(data.id);
          if (data.ok) {
            pending?.resolve(data.value);
          } else {
            pending?.reject(new Error(data.message ?? 'The heap snapshot worker failed.'));
          }
        }
      });
      this.#worker.on('error', error => {
        const failure =
          'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new Error(
                `Analyzing ${filePath} needs more than ${WORKER_HEAP_MB} MB of heap; it was stopped. Take a snapshot of a smaller page state.`,
              )
            : new Error(`The heap snapshot worker for ${filePath} failed: ${error.message}`);
        this.#fail(failure);
        reject(failure);
      });
      this.#worker.on('exit', () => {
        const failure = new Error(`Heap snapshot ${filePath} was closed.`);
        this.#fail(failure);
        reject(failure);
      });
    });
    // A failed load is reported to whoever waits; never as an unhandled rejection.
    this.loaded.catch(() => undefined);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) {
      pending.reject(error);
    }
    this.#pending.clear();
  }

  /** Sends one request and validates the answer. */
  async ask<T extends z.ZodType>(request: HeapRequest, schema: T): Promise<z.infer<T>> {
    await this.loaded;
    if (this.#failure) {
      throw this.#failure;
    }
    const id = this.#nextId++;
    const answer = new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, {resolve, reject});
    });
    this.#worker.postMessage({id, request});
    const value = await withTimeout(
      answer,
      HEAP_WAIT_MS,
      `The heap snapshot analysis (${request.method}) did not finish in ${HEAP_WAIT_MS / 1000} s.`,
    );
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new Error(
        `The heap snapshot worker answered ${request.method} in an unexpected shape: ${parsed.error.message}`,
      );
    }
    return parsed.data;
  }

  async close(): Promise<void> {
    this.#fail(new Error(`Heap snapshot ${this.filePath} was closed.`));
    await this.#worker.terminate();
  }
}

export class HeapSnapshotStore {
  readonly #snapshots = new Map<
    string,
    {snapshot: LoadedSnapshot; started: number; version: string}
  >();
  #nextUid = 1;
  #workerFile: string | undefined;

  constructor(private readonly workerFile?: string) {}

  #resolveWorkerFile(): string {
    this.#workerFile ??=
      this.workerFile ?? findWorkerFile(path.dirname(fileURLToPath(import.meta.url)));
    if (this.#workerFile === undefined) {
      throw new Error(
        `The heap analysis worker (out/heap/${WORKER_FILE}) is not built. Run "npm run build" and restart.`,
      );
    }
    return this.#workerFile;
  }

  /** Whether a path names a snapshot file by its extension (checked before the file is opened). */
  static checkExtension(filePath: string): void {
    if (!VALID_EXTENSIONS.some(extension => filePath.endsWith(extension))) {
      throw new Error(`File ${filePath} must have a .heapsnapshot or .heaptimeline extension.`);
    }
  }

  /**
   * The loaded snapshot for a canonical path, loading it from `file` (opened and checked by the
   * caller; this takes it over) on first use. Waits at most HEAP_WAIT_MS.
   */
  async get(filePath: string, file: FileHandle, signal?: AbortSignal): Promise<LoadedSnapshot> {
    let entry: {snapshot: LoadedSnapshot; started: number; version: string};
    try {
      entry = await this.#entryFor(filePath, file);
    } catch (error) {
      await file.close().catch(() => undefined);
      throw error;
    }
    const {snapshot, started} = entry;
    const waiting = withTimeout(
      snapshot.loaded,
      HEAP_WAIT_MS,
      `Heap snapshot ${filePath} is still loading (${Math.round((Date.now() - started + HEAP_WAIT_MS) / 1000)} s so far). Loading goes on in the background: call the tool again in a moment.`,
    );
    if (signal) {
      await Promise.race([
        waiting,
        new Promise<never>((_, reject) => {
          const abort = (): void => reject(new Error('The call was cancelled by the client.'));
          if (signal.aborted) {
            abort();
          }
          signal.addEventListener('abort', abort, {once: true});
        }),
      ]);
    } else {
      await waiting;
    }
    return snapshot;
  }

  /** The cached entry if it was loaded from this very file, else a new load that takes `file`. */
  async #entryFor(
    filePath: string,
    file: FileHandle,
  ): Promise<{snapshot: LoadedSnapshot; started: number; version: string}> {
    HeapSnapshotStore.checkExtension(filePath);
    const stat = await file.stat();
    if (!stat.isFile()) {
      throw new Error(`${filePath} is not a file. Pass the path of a .heapsnapshot file.`);
    }
    // The same file, unchanged: a new snapshot written to the path (take_heapsnapshot again) or
    // another file now under that name replaces the cached one.
    const version = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    const cached = this.#snapshots.get(filePath);
    if (cached?.version === version) {
      await file.close();
      return cached;
    }
    if (cached) {
      this.#snapshots.delete(filePath);
      void cached.snapshot.close();
    }
    const entry = {
      snapshot: new LoadedSnapshot(filePath, this.#nextUid++, this.#resolveWorkerFile(), file),
      started: Date.now(),
      version,
    };
    this.#snapshots.set(filePath, entry);
    // A failed load is forgotten, so the next call tries again (the file may have been fixed).
    entry.snapshot.loaded.catch(() => {
      if (this.#snapshots.get(filePath) === entry) {
        this.#snapshots.delete(filePath);
      }
    });
    return entry;
  }

  has(filePath: string): boolean {
    return this.#snapshots.has(filePath);
  }

  /** Frees one snapshot; false if it was not loaded. */
  async close(filePath: string): Promise<boolean> {
    const entry = this.#snapshots.get(filePath);
    if (!entry) {
      return false;
    }
    this.#snapshots.delete(filePath);
    await entry.snapshot.close();
    return true;
  }

  async closeAll(): Promise<void> {
    const entries = [...this.#snapshots.values()];
    this.#snapshots.clear();
    await Promise.all(entries.map(entry => entry.snapshot.close()));
  }
}
