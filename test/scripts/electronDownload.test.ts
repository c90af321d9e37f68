/**
 * `npm start` on a first start without Electron's binary: it downloads it through Electron's own
 * tools (@electron/get fills the cache, the electron package's install.js unpacks it), with a
 * progress line, then opens the window; a failed download, a stall or Ctrl-C end as they should.
 *
 * For real, without the internet: a mirror on 127.0.0.1 (ELECTRON_MIRROR) serves a stand-in
 * release archive (a zip with an `electron` that acts like the app: it writes the ready file) and
 * its SHASUMS256.txt. @electron/get checks every archive's SHA-256: against the electron package's
 * bundled checksums.json by default (which names the real release's hashes), or, with
 * electron_use_remote_checksums=1, against the release's SHASUMS256.txt, fetched from the same
 * mirror. The tests set that variable and the mirror serves the stand-in's own hash, so the check
 * runs and passes (and fails, in the test that serves a wrong hash).
 *
 * start.mjs runs unmodified from a copy of the checkout's layout in a temp folder (scripts/, out/
 * and the Electron packages linked), so install.js unpacks into that copy, never into this
 * checkout's node_modules.
 *
 * Tests: scripts/electron-binary.mjs
 */
import {spawn, type ChildProcess} from 'node:child_process';
import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {downloadElectron, progressWriter} from '../../scripts/electron-binary.mjs';
import {ROOT, waitFor} from '../helpers/engine.js';
import {zipArchive} from '../helpers/zipArchive.js';

const VERSION = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;
const ZIP_NAME = `electron-v${VERSION}-${process.platform}-${process.arch}.zip`;
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-electron-get-'));
const running: ChildProcess[] = [];

/**
 * The stand-in app: like Electron running out/main, it writes the ready file and waits. Written as
 * the app writes it (readyFiles.ts: a temp file renamed over it), so a reader never sees it half
 * written.
 */
const STAND_IN = `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
const readyFile = args[args.indexOf('--readyFile') + 1];
fs.writeFileSync(readyFile + '.tmp', JSON.stringify({pid: process.pid, appDir: args[0]}));
fs.renameSync(readyFile + '.tmp', readyFile);
process.on('SIGTERM', () => process.exit(0));
setInterval(() => undefined, 1000);
`;
/** 3 MiB, so the download takes many chunks and the progress line has steps to show. */
const FILLER = crypto.randomBytes(3 * 1024 * 1024);
const ARCHIVE = zipArchive([
  {name: 'electron', data: Buffer.from(STAND_IN), mode: 0o755},
  {name: 'version', data: Buffer.from(`v${VERSION}`)},
  {name: 'filler.bin', data: FILLER},
]);
const ARCHIVE_SHA = crypto.createHash('sha256').update(ARCHIVE).digest('hex');

interface Mirror {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** The release mirror: `stall` stops after half the archive (and keeps the connection open). */
async function startMirror(options: {sha?: string; stall?: boolean} = {}): Promise<Mirror> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === `/v${VERSION}/SHASUMS256.txt`) {
      response.end(`${options.sha ?? ARCHIVE_SHA} *${ZIP_NAME}\n`);
    } else if (request.url === `/v${VERSION}/${ZIP_NAME}`) {
      response.writeHead(200, {'Content-Length': ARCHIVE.length});
      if (options.stall === true) {
        response.write(ARCHIVE.subarray(0, ARCHIVE.length / 2));
      } else {
        response.end(ARCHIVE);
      }
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise(resolve => server.close(() => resolve()));
    },
  };
}

/** A port nobody listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise(resolve => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

interface Checkout {
  root: string;
  packageDir: string;
  tmp: string;
  cache: string;
}

/** A checkout's layout in a temp folder: start.mjs copied, the build and Electron's tools linked. */
function makeCheckout(name: string): Checkout {
  const root = fs.mkdtempSync(path.join(tempRoot, `${name}-`));
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const file of ['start.mjs', 'electron-binary.mjs']) {
    fs.copyFileSync(path.join(ROOT, 'scripts', file), path.join(root, 'scripts', file));
  }
  fs.symlinkSync(path.join(ROOT, 'out'), path.join(root, 'out'));
  const packageDir = path.join(root, 'node_modules', 'electron');
  fs.mkdirSync(packageDir, {recursive: true});
  for (const file of ['package.json', 'install.js', 'checksums.json']) {
    fs.copyFileSync(path.join(ROOT, 'node_modules/electron', file), path.join(packageDir, file));
  }
  for (const scope of ['@electron', '@electron-internal']) {
    fs.symlinkSync(path.join(ROOT, 'node_modules', scope), path.join(root, 'node_modules', scope));
  }
  const tmp = path.join(root, 'tmp');
  const cache = path.join(root, 'cache');
  fs.mkdirSync(tmp);
  return {root, packageDir, tmp, cache};
}

/** The environment of a first start: a display, the mirror, remote checksums, private folders. */
function startEnv(checkout: Checkout, mirror: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    const ours = /^(ELECTRON_|electron_|npm_config_electron|DISPLAY$|WAYLAND_DISPLAY$)/i;
    if (value !== undefined && !ours.test(key) && !/_proxy$/i.test(key)) {
      env[key] = value;
    }
  }
  return {
    ...env,
    ...(mirror === undefined ? {} : {ELECTRON_MIRROR: mirror}),
    electron_use_remote_checksums: '1',
    electron_config_cache: checkout.cache,
    TMPDIR: checkout.tmp,
    DISPLAY: ':0',
    MBI_SKIP_BUILD: '1',
    MCP_BROWSER_INSPECTOR_CONFIG_DIR: path.join(checkout.root, 'config'),
    CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  };
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{code: number | null; signal: NodeJS.Signals | null}>;
}

function start(checkout: Checkout, env: Record<string, string>, args: string[]): Started {
  const child = spawn(process.execPath, [path.join(checkout.root, 'scripts/start.mjs'), ...args], {
    cwd: checkout.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<{code: number | null; signal: NodeJS.Signals | null}>(resolve =>
    child.once('exit', (code, signal) => resolve({code, signal})),
  );
  return {child, output: () => text, exited};
}

const fallbackLines = (text: string) =>
  text.split('\n').filter(line => line.startsWith('Electron cannot start here:'));
const percents = (text: string) =>
  [
    ...text.matchAll(
      /^Downloading Electron \S+ \(first start only; Ctrl-C cancels\): .* \((\d+)%\)$/gm,
    ),
  ].map(match => Number(match[1]));

afterEach(() => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  }
});
afterAll(() => fs.rmSync(tempRoot, {recursive: true, force: true}));

const linuxOnly = process.platform === 'linux' ? describe : describe.skip;

linuxOnly('npm start downloads Electron on the first start (mirror on 127.0.0.1)', () => {
  let mirror: Mirror;
  beforeAll(async () => {
    mirror = await startMirror();
    return () => mirror.close();
  });

  it('shows bytes and percent, installs through install.js, opens the window; later starts use the cache', async () => {
    const checkout = makeCheckout('first-start');
    const readyFile = path.join(checkout.root, 'ready.json');
    const env = startEnv(checkout, mirror.url);
    const first = start(checkout, env, ['--port', '0', '--readyFile', readyFile]);
    const app = await waitFor(
      () => (fs.existsSync(readyFile) ? fs.readFileSync(readyFile, 'utf8') : undefined),
      60_000,
      'the window (the stand-in app) to open',
    );
    const output = first.output();
    expect(fallbackLines(output)).toEqual([]);
    // The archive's size and progress, in order, to the end.
    expect(output).toContain(`of ${(ARCHIVE.length / 1024 / 1024).toFixed(1)} MB (100%)`);
    const shown = percents(output);
    expect(shown.length).toBeGreaterThan(2);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(shown.at(-1)).toBe(100);
    expect(output).toContain(`Electron ${VERSION} is installed; opening the window.`);
    expect(JSON.parse(app)).toMatchObject({appDir: path.join(checkout.root, 'out', 'main')});
    // Installed as install.js does it, and the checksum file came from the mirror.
    expect(fs.readFileSync(path.join(checkout.packageDir, 'path.txt'), 'utf8')).toBe('electron');
    expect(fs.statSync(path.join(checkout.packageDir, 'dist/electron')).mode & 0o111).not.toBe(0);
    expect(mirror.requests).toContain(`/v${VERSION}/SHASUMS256.txt`);
    first.child.kill('SIGTERM');
    await first.exited;

    // Without the binary again: the archive comes from the cache (only the checksum file, which
    // @electron/get never caches, is fetched again).
    fs.rmSync(path.join(checkout.packageDir, 'dist'), {recursive: true});
    fs.rmSync(readyFile, {force: true});
    const second = start(checkout, env, ['--port', '0', '--readyFile', readyFile]);
    await waitFor(() => fs.existsSync(readyFile), 60_000, 'the window, installed from the cache');
    expect(fallbackLines(second.output())).toEqual([]);
    expect(percents(second.output())).toEqual([]);
    expect(mirror.requests.filter(request => request.endsWith('.zip'))).toHaveLength(1);
    second.child.kill('SIGTERM');
    await second.exited;
  });

  it('a wrong checksum is a failed download: one line naming it, then the headless inspector', async () => {
    const wrong = await startMirror({sha: '0'.repeat(64)});
    try {
      const checkout = makeCheckout('bad-checksum');
      const readyFile = path.join(checkout.root, 'ready.json');
      const started = start(checkout, startEnv(checkout, wrong.url), [
        '--port',
        '0',
        '--headless',
        '--isolated',
        '--readyFile',
        readyFile,
      ]);
      const url = await waitFor(
        () => /inspector (http:\/\/127\.0\.0\.1:\d+\/)/.exec(started.output())?.[1],
        60_000,
        'the headless inspector',
      );
      const lines = fallbackLines(started.output());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^Electron cannot start here: the Electron binary is not installed and its download failed: .*checksum.*\. Starting the headless inspector instead\.$/i,
      );
      expect((await fetch(url)).status).toBe(200);
      expect(fs.existsSync(path.join(checkout.packageDir, 'dist'))).toBe(false);
      started.child.kill('SIGTERM');
      await started.exited;
    } finally {
      await wrong.close();
    }
  });

  it('Ctrl-C cancels the download cleanly: no fallback, nothing half-downloaded left', async () => {
    const stalling = await startMirror({stall: true});
    try {
      const checkout = makeCheckout('cancel');
      const started = start(checkout, startEnv(checkout, stalling.url), ['--port', '0']);
      await waitFor(() => percents(started.output()).length > 0, 60_000, 'a progress line');
      started.child.kill('SIGINT');
      const exit = await started.exited;
      expect(exit.signal).toBe('SIGINT');
      expect(started.output()).toContain('Cancelled the Electron download; nothing was installed.');
      expect(fallbackLines(started.output())).toEqual([]);
      // @electron/get's temporary download folder went with it, and nothing was unpacked.
      expect(fs.readdirSync(checkout.tmp)).toEqual([]);
      expect(fs.existsSync(path.join(checkout.packageDir, 'dist'))).toBe(false);
    } finally {
      await stalling.close();
    }
  });

  for (const [what, env, reason] of [
    [
      'without a display',
      {DISPLAY: ''},
      /^Electron cannot start here: there is no display \(DISPLAY and WAYLAND_DISPLAY are unset\)\. Starting/,
    ],
    [
      'with ELECTRON_SKIP_BINARY_DOWNLOAD',
      {ELECTRON_SKIP_BINARY_DOWNLOAD: '1'},
      /^Electron cannot start here: the Electron binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set \(unset it, and npm start downloads Electron \d+\.\d+\.\d+\)\. Starting/,
    ],
  ] as const) {
    it(`${what}: no download, one line naming why, the headless inspector`, async () => {
      const checkout = makeCheckout('no-download');
      const readyFile = path.join(checkout.root, 'ready.json');
      const before = mirror.requests.length;
      const started = start(checkout, {...startEnv(checkout, mirror.url), ...env}, [
        '--port',
        '0',
        '--headless',
        '--isolated',
        '--readyFile',
        readyFile,
      ]);
      await waitFor(() => fs.existsSync(readyFile), 60_000, 'the headless server');
      const lines = fallbackLines(started.output());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(reason);
      expect(started.output()).not.toContain('Downloading Electron');
      expect(mirror.requests.length).toBe(before);
      started.child.kill('SIGTERM');
      await started.exited;
    });
  }

  it('a download that stalls ends after the bound, saying so', async () => {
    const stalling = await startMirror({stall: true});
    try {
      const checkout = makeCheckout('stall');
      const result = await downloadElectron({
        packageDir: checkout.packageDir,
        env: {...startEnv(checkout, stalling.url)},
        signal: new AbortController().signal,
        onProgress: () => undefined,
        stallMs: 1_000,
      });
      expect(result).toEqual({ok: false, reason: 'no data arrived for 1 s'});
      expect(fs.existsSync(path.join(checkout.packageDir, 'dist'))).toBe(false);
    } finally {
      await stalling.close();
    }
  });

  it('without a network (as here), or a mirror that refuses: names the failed download and falls back', async () => {
    const checkout = makeCheckout('offline');
    const readyFile = path.join(checkout.root, 'ready.json');
    // Where github.com resolves, a refused connection stands in: never a real 100 MB download.
    const online = await dns.lookup('github.com').then(
      () => true,
      () => false,
    );
    const started = start(
      checkout,
      startEnv(checkout, online ? `http://127.0.0.1:${await freePort()}/` : undefined),
      ['--port', '0', '--headless', '--isolated', '--readyFile', readyFile],
    );
    const url = await waitFor(
      () => /inspector (http:\/\/127\.0\.0\.1:\d+\/)/.exec(started.output())?.[1],
      60_000,
      'the headless inspector',
    );
    const lines = fallbackLines(started.output());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      online
        ? /its download failed: connect ECONNREFUSED 127\.0\.0\.1:\d+ — no network, or the host is unreachable \(set ELECTRON_MIRROR, or HTTPS_PROXY, or run npm start where downloads work\)\. Starting the headless inspector instead\.$/
        : /its download failed: getaddrinfo (ENOTFOUND|EAI_AGAIN) github\.com — no network, or the host is unreachable \(set ELECTRON_MIRROR, or HTTPS_PROXY, or run npm start where downloads work\)\. Starting the headless inspector instead\.$/,
    );
    expect((await fetch(url)).status).toBe(200);
    started.child.kill('SIGTERM');
    await started.exited;
  });
});

describe('the progress line', () => {
  it('shows bytes and percent, in place on a terminal (at most every 100 ms), ending its line', () => {
    let written = '';
    let clock = 0;
    const writer = progressWriter(
      {isTTY: true, write: (text: string) => (written += text)},
      '45.5.0',
      () => clock,
    );
    writer.update({transferred: 0, total: null});
    clock = 50;
    writer.update({transferred: 1024 * 1024, total: 110 * 1024 * 1024});
    clock = 150;
    writer.update({transferred: 55 * 1024 * 1024, total: 110 * 1024 * 1024});
    clock = 160;
    writer.update({transferred: 110 * 1024 * 1024, total: 110 * 1024 * 1024});
    writer.end();
    expect(written.split('\r').slice(1)).toEqual([
      'Downloading Electron 45.5.0 (first start only; Ctrl-C cancels): 0 B\u001b[K',
      'Downloading Electron 45.5.0 (first start only; Ctrl-C cancels): 55.0 MB of 110.0 MB (50%)\u001b[K',
      'Downloading Electron 45.5.0 (first start only; Ctrl-C cancels): 110.0 MB of 110.0 MB (100%)\u001b[K\n',
    ]);
  });

  it('writes a line per tenth into a log', () => {
    const lines: string[] = [];
    const writer = progressWriter({write: (text: string) => lines.push(text)}, '45.5.0');
    for (let kb = 0; kb <= 1000; kb += 10) {
      writer.update({transferred: kb * 1024, total: 1000 * 1024});
    }
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe(
      'Downloading Electron 45.5.0 (first start only; Ctrl-C cancels): 1000.0 KB of 1000.0 KB (100%)\n',
    );
  });
});
