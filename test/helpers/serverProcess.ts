/**
 * The headless server as a process of its own, as users start it (`node out/node/cli/index.js
 * --headless --isolated --port 0 --readyFile …`), up to its ready file: its endpoint and token,
 * what it printed, and a stop that waits for its end. For a run to its end, see cliRun.ts.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {readyFileSchema, type ReadyFile} from '../../src/shared/readyFile.js';
import {CLI, cliEnv} from './cliRun.js';
import {ROOT, waitFor} from './engine.js';

export interface ServerProcessOptions {
  /** Flags after `--headless [--isolated] --port N --readyFile F`. */
  flags?: string[];
  /** Default 0 (any free port). */
  port?: number;
  /** `--isolated` (a throw-away browser profile); default true. */
  isolated?: boolean;
  /** Its config dir (token file, recordings); else a fresh one, removed by stop(). */
  configDir?: string;
  /**
   * Where the ready file goes; else a fresh folder of its own. A file already there (a stale one
   * from an earlier run) does not count: only a file that names this process does.
   */
  readyFile?: string;
  /** A pipe to its stdin (with --stdio, closing it ends the server); else ignored. */
  stdin?: 'pipe' | 'ignore';
  /** Leads a process group of its own: stop() signals the group, its Chromium too. */
  detached?: boolean;
  /** Environment entries on top of cliEnv's. */
  env?: Record<string, string>;
  /** How long the ready file may take; default 30 s (scaled). */
  readyWithinMs?: number;
}

export interface ServerProcess extends ReadyFile {
  child: ChildProcess;
  /** Port of its HTTP server (MCP and inspector). */
  port: number;
  readyFile: string;
  configDir: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with its exit code once it ended (null when a signal ended it). */
  exited: Promise<number | null>;
  /**
   * Sends `signal` (default SIGTERM; to its whole group when detached) unless it has ended, waits
   * for its end, and removes the folders it made. Resolves with its exit code.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function signalServer(child: ChildProcess, detached: boolean, signal: NodeJS.Signals): void {
  if (detached && child.pid !== undefined) {
    try {
      // The group outlives its leader (an orphaned Chromium): signal it even after the server.
      process.kill(-child.pid, signal);
    } catch {
      // The group is gone.
    }
    return;
  }
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(signal);
  }
}

async function readyOf(
  file: string,
  child: ChildProcess,
  stale: boolean,
  output: () => string,
  timeoutMs: number,
): Promise<ReadyFile> {
  return waitFor(
    () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`The server ended (${child.exitCode ?? child.signalCode}):\n${output()}`);
      }
      try {
        const ready = readyFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
        return !stale || ready.pid === child.pid ? ready : undefined;
      } catch {
        return undefined;
      }
    },
    timeoutMs,
    "the server's ready file",
  );
}

export async function startServerProcess(
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const ownConfigDir = options.configDir === undefined ? tempDir('mbi-server-config-') : undefined;
  const configDir = options.configDir ?? ownConfigDir ?? '';
  const readyDir = options.readyFile === undefined ? tempDir('mbi-server-ready-') : undefined;
  const readyFile = options.readyFile ?? path.join(readyDir ?? '', 'ready.json');
  const detached = options.detached === true;
  const child = spawn(
    process.execPath,
    [
      CLI,
      '--headless',
      ...(options.isolated === false ? [] : ['--isolated']),
      '--port',
      String(options.port ?? 0),
      '--readyFile',
      readyFile,
      ...(options.flags ?? []),
    ],
    {
      cwd: ROOT,
      env: cliEnv(configDir, options.env),
      stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
      detached,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>(resolve => {
    child.once('exit', code => resolve(code));
  });
  const removeDirs = (): void => {
    for (const dir of [readyDir, ownConfigDir]) {
      if (dir !== undefined) {
        fs.rmSync(dir, {recursive: true, force: true});
      }
    }
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> => {
    signalServer(child, detached, signal);
    const code = await exited;
    removeDirs();
    return code;
  };
  let ready: ReadyFile;
  try {
    ready = await readyOf(
      readyFile,
      child,
      options.readyFile !== undefined,
      () => stdout + stderr,
      options.readyWithinMs ?? 30_000,
    );
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
  return {
    ...ready,
    child,
    port: Number(new URL(ready.mcpUrl).port),
    readyFile,
    configDir,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    stop,
  };
}
