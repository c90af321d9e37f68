/**
 * The headless entry as users run it (`node out/node/cli/index.js …`), to its end (bounded), with
 * its own config dir and no display.
 */
import {spawn, type ChildProcessByStdio} from 'node:child_process';
import type {Readable} from 'node:stream';
import path from 'node:path';
import {TOKEN_ENV} from '../../src/shared/constants.js';
import {ROOT} from './engine.js';
import {scaled} from './loadFactor.js';

export const CLI = path.join(ROOT, 'out/node/cli/index.js');

/**
 * The environment a test's CLI process runs in: this one's, with its own config dir, the test
 * Chromium and no display. Without a token from the environment (the one in the config dir is
 * the one under test) and without npm's marker (the process is the test's child, not npm's; the
 * server would watch npm as its parent). `extra` entries go last.
 */
export function cliEnv(
  configDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== TOKEN_ENV && key !== 'npm_lifecycle_event') {
      env[key] = value;
    }
  }
  return {
    ...env,
    MCP_BROWSER_INSPECTOR_CONFIG_DIR: configDir,
    CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    DISPLAY: '',
    ...extra,
  };
}

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
    env: cliEnv(configDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectRun(child, timeoutMs);
}
