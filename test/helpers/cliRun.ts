/**
 * The headless entry as users run it (`node out/node/cli/index.js …`), to its end (bounded), with
 * its own config dir and no display.
 */
import {spawn} from 'node:child_process';
import path from 'node:path';
import {ROOT} from './engine.js';

export const CLI = path.join(ROOT, 'out/node/cli/index.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], configDir: string, timeoutMs = 120_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
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
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({code, stdout, stderr});
    });
  });
}
