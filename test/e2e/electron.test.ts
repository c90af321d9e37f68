/**
 * End to end with the real Electron, through Playwright's Electron support: open the app, make an
 * MCP call over HTTP, and see the call in the window's log. Where the Electron binary is missing
 * (it is downloaded on the first `npm start`, which cannot reach the internet on the machines this
 * is built on) or there is no display, the test is skipped and says why. It runs the unpackaged build: Playwright needs the inspect fuse, which the
 * packaged app turns off.
 *
 * Tests: src/main/index.ts, src/main/mainWindow.ts, src/main/inspectorBridge.ts,
 *   src/preload/index.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {_electron, type ElectronApplication} from 'playwright-core';
import {afterAll, describe, expect, it} from 'vitest';
import {ROOT, call, waitFor} from '../helpers/engine.js';
import {scaled} from '../helpers/loadFactor.js';

/** The Electron binary, found without require('electron') (which would start a download). */
function electronBinary(): {binary: string} | {reason: string} {
  const packageDir = path.join(ROOT, 'node_modules', 'electron');
  let name: string | undefined;
  try {
    name = fs.readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim();
  } catch {
    name = undefined;
  }
  const defaultName =
    process.platform === 'darwin'
      ? 'Electron.app/Contents/MacOS/Electron'
      : process.platform === 'win32'
        ? 'electron.exe'
        : 'electron';
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(packageDir, 'dist');
  const binary = path.join(dist, name !== undefined && name !== '' ? name : defaultName);
  if (!fs.existsSync(binary)) {
    return {
      reason: `the Electron binary is not installed (${path.relative(ROOT, binary)} is missing; run "npm start" once where downloads work — it downloads Electron — or "npx install-electron")`,
    };
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return {reason: 'there is no display (run under xvfb-run, or set DISPLAY)'};
  }
  return {binary};
}

const found = electronBinary();

if ('reason' in found) {
  process.stderr.write(`[e2e/electron] SKIPPED: ${found.reason}.\n`);
  describe('desktop app end to end (Playwright _electron)', () => {
    it.skip(`skipped: ${found.reason}`, () => undefined);
  });
} else {
  describe('desktop app end to end (Playwright _electron)', () => {
    const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-e2e-'));
    const readyFile = path.join(configDir, 'ready.json');
    let app: ElectronApplication | undefined;

    afterAll(async () => {
      await app?.close();
      fs.rmSync(configDir, {recursive: true, force: true});
    });

    it(
      'opens the app, and an MCP call shows up in its log',
      async () => {
        app = await _electron.launch({
          executablePath: found.binary,
          // out/main is the app: its package.json names the bundled main (scripts/build-node.mjs).
          args: [
            path.join(ROOT, 'out', 'main'),
            '--port',
            '0',
            '--headless',
            '--isolated',
            '--readyFile',
            readyFile,
          ],
          env: {
            ...process.env,
            MCP_BROWSER_INSPECTOR_CONFIG_DIR: configDir,
            CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium',
          },
          timeout: 60_000,
        });
        const window = await app.firstWindow();
        expect(window.url()).toBe('app://inspector/index.html');

        // The renderer is isolated: the bridge's named methods (a port for the wire), and no Node.
        const surface = await window.evaluate(() => {
          const bridge = (window as unknown as {inspectorBridge?: Record<string, unknown>})
            .inspectorBridge;
          return {
            methods: bridge ? Object.keys(bridge).sort() : [],
            frozen: bridge ? Object.isFrozen(bridge) : false,
            require: typeof (window as unknown as {require?: unknown}).require,
            process: typeof (window as unknown as {process?: unknown}).process,
          };
        });
        expect(surface).toEqual({
          methods: ['onMessage', 'send'],
          frozen: true,
          require: 'undefined',
          process: 'undefined',
        });

        const ready = await waitFor(
          () =>
            fs.existsSync(readyFile)
              ? (JSON.parse(fs.readFileSync(readyFile, 'utf8')) as {mcpUrl: string; token: string})
              : undefined,
          30_000,
          'the ready file',
        );
        const client = new Client({name: 'e2e-agent', version: '1.0.0'});
        await client.connect(
          new StreamableHTTPClientTransport(new URL(ready.mcpUrl), {
            requestInit: {headers: {Authorization: `Bearer ${ready.token}`}},
          }),
        );
        const result = await call(client, 'list_pages');
        expect(result.isError).toBe(false);
        await window.waitForFunction(
          () => document.body.innerText.includes('list_pages'),
          undefined,
          {
            timeout: 30_000,
          },
        );
        await client.close();

        await app.close();
        app = undefined;
        await expect(fetch(ready.mcpUrl, {method: 'POST'})).rejects.toThrow();
      },
      scaled(180_000),
    );
  });
}
