/**
 * The headless entry as users run it (`node out/node/cli/index.js …`), to its end (bounded), with
 * its own config dir and no display.
 */
import {spawn, type ChildProcessByStdio} from 'node:child_process';
import type {Readable} from 'node:stream';
import path from 'node:path';
import {ROOT} from './engine.js';
import {scaled} from './loadFactor.js';

export const CLI = path.join(ROOT, 'out/node/cli/index.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A child process's exit code and everything it printed, once it ended (killed after `timeoutMs`,
 * scaled by the run's load factor).
 */
export function collectRun(
  child: ChildProcessByStdio<null, Readable, Readable>,
  timeoutMs: number,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), scaled(timeoutMs));
    child.on('error', reject);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({code, stdout, stderr});
    });
  });
}

export function runCli(args: string[], configDir: string, timeoutMs = 120_000): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      MCP_BROWSER_INSPECTOR_CONFIG_DIR: configDir,
      CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      DISPLAY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectRun(child, timeoutMs);
}
