/**
 * The npm package as users get it: `npm pack`, then `npm i -g --prefix <tmp> --ignore-scripts`
 * of the tarball (offline: the package must need nothing from the registry), then the installed
 * `mcp-browser-inspector --stdio` driven by the MCP SDK client — tools listed, a fixture page
 * navigated and snapshotted, Lighthouse and a performance trace run from the bundle's lazy chunks —
 * and the inspector UI served by the installed copy, open in a browser, showing those calls.
 * Packed once per file from the current build (globalSetup keeps out/ fresh; prepack would
 * rebuild it, so it is skipped here).
 *
 * Tests: package.json
 */
import {execFileSync, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {Browser} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call, ROOT} from '../helpers/engine.js';
import {waitForReadyFile} from '../helpers/readyFile.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {launchUiBrowser, openInspector, waitForRows} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

/** Budgets from the issue (sizes, not timings: those are measured, not asserted). */
const MAX_TARBALL_BYTES = 12_000_000;
const MAX_INSTALLED_BYTES = 40_000_000;

interface PackedFile {
  path: string;
  size: number;
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}

let work: string;
let tarball: string;
let packed: PackResult;
let prefix: string;
let installedDir: string;
let bin: string;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false'},
    timeout: scaled(120_000),
  });
}

function directorySize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? directorySize(full) : fs.lstatSync(full).size;
  }
  return total;
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-npm-package-'));
  const [result] = JSON.parse(
    npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT),
  ) as PackResult[];
  if (!result) {
    throw new Error('npm pack reported no tarball');
  }
  packed = result;
  tarball = path.join(work, packed.filename);
  prefix = path.join(work, 'prefix');
  npm(['install', '--global', '--prefix', prefix, '--ignore-scripts', '--offline', tarball], work);
  installedDir =
    process.platform === 'win32'
      ? path.join(prefix, 'node_modules', 'mcp-browser-inspector')
      : path.join(prefix, 'lib', 'node_modules', 'mcp-browser-inspector');
  bin = path.join(prefix, process.platform === 'win32' ? '' : 'bin', 'mcp-browser-inspector');
}, scaled(180_000));

afterAll(() => fs.rmSync(work, {recursive: true, force: true}));

describe('the packed tarball', () => {
  it('holds the bundles, the built UI and the notices, nothing else', () => {
    const paths = packed.files.map(file => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'out/node/cli/index.js',
        'out/node/THIRD_PARTY_NOTICES.md',
        'out/renderer/index.html',
        'out/renderer/THIRD_PARTY_NOTICES.md',
        'out/heap/heapSnapshotWorker.js',
        'out/heap/LICENSE.chrome-devtools-frontend',
      ]),
    );
    const unexpected = paths.filter(
      file =>
        !['package.json', 'README.md', 'LICENSE'].includes(file) &&
        !/^out\/node\/(cli|chunks)\/[^/]+\.js$/.test(file) &&
        file !== 'out/node/THIRD_PARTY_NOTICES.md' &&
        !/^out\/heap\/(heapSnapshotWorker\.js|LICENSE\.chrome-devtools-frontend)$/.test(file) &&
        !file.startsWith('out/renderer/'),
    );
    expect(unexpected).toEqual([]);
    expect(paths.filter(file => file.endsWith('.map'))).toEqual([]);
    expect(paths.some(file => /^out\/node\/chunks\/lighthouseRuntime-.*\.js$/.test(file))).toBe(
      true,
    );
  });

  it('fits the size budgets: tarball and installed', () => {
    expect(packed.size).toBeLessThanOrEqual(MAX_TARBALL_BYTES);
    expect(directorySize(installedDir)).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
  });

  it('matches the sizes the README states (download and installed, within 5%)', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const prose = /about ([\d.]+) MB to\s+download, ([\d.]+) MB\s+installed/.exec(readme);
    const table =
      /npm package: download \/ installed \/ packages\s*\|\s*([\d.]+) MB \/ ([\d.]+) MB/.exec(
        readme,
      );
    expect(prose, 'the README states the package sizes in its install section').not.toBeNull();
    expect(table, 'the README states the package sizes in its speed table').not.toBeNull();
    const megabytes = (bytes: number): number => bytes / 1_000_000;
    for (const [download, installed] of [prose, table].map(match => [
      Number(match?.[1]),
      Number(match?.[2]),
    ])) {
      expect(Math.abs((download ?? 0) - megabytes(packed.size))).toBeLessThan(
        megabytes(packed.size) * 0.05,
      );
      expect(Math.abs((installed ?? 0) - megabytes(packed.unpackedSize))).toBeLessThan(
        megabytes(packed.unpackedSize) * 0.05,
      );
    }
  });

  it('declares no runtime dependency and installs none (everything is bundled)', () => {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(installedDir, 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    // A library the server needs belongs in devDependencies: scripts/build-node.mjs bundles it.
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.private).toBeUndefined();
    expect(manifest.bin).toEqual({'mcp-browser-inspector': 'out/node/cli/index.js'});
    expect(fs.existsSync(path.join(installedDir, 'node_modules'))).toBe(false);
  });

  it('runs through npx from the tarball', () => {
    // `./file.tgz` is a package spec; an absolute path would be run as a command.
    const result = spawnSync('npx', ['--yes', `./${packed.filename}`, '--version'], {
      cwd: work,
      encoding: 'utf8',
      timeout: 120_000,
      env: {...process.env, npm_config_cache: path.join(work, 'npx-cache')},
    });
    expect(result.stderr).not.toMatch(/EBADENGINE|ERR!/);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(
      (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {version: string})
        .version,
    );
  });
});

describe('the installed mcp-browser-inspector --stdio', () => {
  let fixtures: FixtureServer;
  let client: Client;
  let browser: Browser | undefined;
  let readyFile: string;
  let stderr = '';

  beforeAll(async () => {
    fixtures = await new FixtureServer().start();
    const configDir = path.join(work, 'config');
    readyFile = path.join(work, 'ready.json');
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && key !== 'MCP_BROWSER_INSPECTOR_TOKEN') {
        env[key] = value;
      }
    }
    const transport = new StdioClientTransport({
      command: bin,
      args: [
        '--stdio',
        '--headless',
        '--isolated',
        '--memoryDebugging',
        '--port',
        '0',
        '--readyFile',
        readyFile,
      ],
      // Run from elsewhere than the repo: nothing to find in a node_modules around the cwd.
      cwd: work,
      env: {
        ...env,
        CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        MCP_BROWSER_INSPECTOR_CONFIG_DIR: configDir,
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({name: 'npm-package-test', version: '1.0.0'});
    await client.connect(transport);
  }, scaled(60_000));

  afterAll(async () => {
    await browser?.close();
    await client.close();
    await fixtures.stop();
  });

  it('lists the tools, navigates and takes a snapshot', async () => {
    const {tools} = await client.listTools();
    const names = tools.map(tool => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['navigate_page', 'take_snapshot', 'lighthouse_audit']),
    );
    const url = fixtures.html(
      '/package.html',
      '<!doctype html><html lang="en"><title>Installed</title><h1>Served by the package</h1><button>Press</button></html>',
    );
    const navigated = await call(client, 'navigate_page', {pageId: 1, url});
    expect(navigated.isError, navigated.text).toBe(false);
    const snapshot = await call(client, 'take_snapshot', {pageId: 1});
    expect(snapshot.isError, snapshot.text).toBe(false);
    expect(snapshot.text).toContain('heading "Served by the package"');
    expect(snapshot.text).toContain('button "Press"');
  });

  it(
    'analyses a heap snapshot with the bundled heap worker',
    async () => {
      const file = path.join(os.tmpdir(), `mbi-package-${process.pid}.heapsnapshot`);
      try {
        const taken = await call(client, 'take_heapsnapshot', {pageId: 1, filePath: file});
        expect(taken.isError, taken.text).toBe(false);
        const summary = await call(client, 'get_heapsnapshot_summary', {filePath: file});
        expect(summary.isError, summary.text).toBe(false);
        expect(summary.text).toContain('Statistics');
      } finally {
        fs.rmSync(file, {force: true});
      }
    },
    scaled(60_000),
  );

  it(
    'runs Lighthouse and a performance trace from their bundled chunks',
    async () => {
      const audit = await call(client, 'lighthouse_audit', {pageId: 1, mode: 'snapshot'});
      expect(audit.isError, audit.text).toBe(false);
      expect(audit.text).toMatch(/- Accessibility: \d+/);
      expect(audit.text).toMatch(/report\.html/);
      const trace = await call(client, 'performance_start_trace', {
        pageId: 1,
        reload: true,
        autoStop: true,
      });
      expect(trace.isError, trace.text).toBe(false);
      expect(trace.text).toContain('insight set id: NAVIGATION_0');
    },
    scaled(60_000),
  );

  it('serves the inspector UI, which shows the calls', async () => {
    const ready = await waitForReadyFile(readyFile, 10_000);
    browser = await launchUiBrowser();
    const {page, errors} = await openInspector(
      browser,
      `${ready.inspectorUrl}#token=${ready.token}`,
    );
    const rows = await waitForRows(
      page,
      rows => rows.some(row => row.tool === 'take_snapshot'),
      'the calls in the log',
    );
    expect(rows.map(row => row.tool)).toEqual(
      expect.arrayContaining(['navigate_page', 'take_snapshot', 'lighthouse_audit']),
    );
    expect(errors, stderr).toEqual([]);
  });
});
