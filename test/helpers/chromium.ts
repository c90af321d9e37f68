/**
 * A Chromium started by the test itself with a remote-debugging port, for attaching with
 * --browserUrl / --wsEndpoint. It runs in its own process group so stopping it takes every helper
 * process with it (otherwise they keep writing into the profile being removed).
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {waitFor} from './engine.js';

export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export interface DebuggableChromium {
  browserUrl: string;
  wsEndpoint: string;
  alive(): boolean;
  stop(): Promise<void>;
}

export async function launchDebuggableChromium(
  extraArgs: string[] = [],
): Promise<DebuggableChromium> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...extraArgs,
      'about:blank',
    ],
    {stdio: 'ignore', detached: true},
  );
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
  const activePort = path.join(profile, 'DevToolsActivePort');
  // Chromium writes the file in two steps: wait until both lines (port, browser path) are there.
  const [, port, wsPath] = await waitFor(
    () =>
      fs.existsSync(activePort)
        ? (/^(\d+)\n(\/devtools\/browser\/\S+)/.exec(fs.readFileSync(activePort, 'utf8')) ??
          undefined)
        : undefined,
    20_000,
    'DevToolsActivePort',
  );
  return {
    browserUrl: `http://127.0.0.1:${port ?? ''}`,
    wsEndpoint: `ws://127.0.0.1:${port ?? ''}${wsPath ?? ''}`,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
        await exited;
      }
      // Best effort: a straggler may still hold a file for a moment; the OS cleans temp dirs anyway.
      fs.rmSync(profile, {recursive: true, force: true, maxRetries: 10, retryDelay: 100});
    },
  };
}
