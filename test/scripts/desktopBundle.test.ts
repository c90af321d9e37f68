/**
 * The desktop main bundle (out/main) is self-contained: the packaged app carries no node_modules,
 * so everything the main process imports must be inside out/main. Electron cannot run here, so
 * the bundle runs under plain Node with a stand-in `electron` module, from a copy of the app's
 * files in a temp folder (nothing installed around it to fall back on): `--version` answers, and
 * every lazily loaded chunk (Lighthouse, the trace engine, puppeteer's transports) evaluates —
 * Lighthouse's top level reads the files the build inlined, so a missed one fails here.
 *
 * Tests: scripts/build-node.mjs
 */
import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import {builtinModules} from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {bundleBytes, staticallyLoadedBytes} from '../helpers/bundleGraph.js';
import {launchDebuggableChromium} from '../helpers/chromium.js';
import {ROOT} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {scaled} from '../helpers/loadFactor.js';

/** Just enough of Electron's main-process API for the bundle's top level; nothing ever opens. */
const ELECTRON_STUB = `
const noop = () => undefined;
export const app = {
  isPackaged: false,
  setPath: noop,
  enableSandbox: noop,
  on: noop,
  quit: noop,
  whenReady: () => new Promise(noop),
  requestSingleInstanceLock: () => false,
  exit: code => {
    if (process.env.STUB_EXIT_FOR_REAL === '1') process.exit(code);
  },
};
export const protocol = {registerSchemesAsPrivileged: noop, handle: noop};
export const dialog = {showErrorBox: noop, showMessageBox: () => Promise.resolve({response: 1})};
export class BrowserWindow {}
export class Notification {
  static isSupported() {
    return false;
  }
}
export const ipcMain = {handle: noop, on: noop, removeHandler: noop};
export const screen = {};
export const session = {};
export const shell = {openExternal: noop};
export default {app, protocol, dialog, BrowserWindow, Notification, ipcMain, screen, session, shell};
`;

/** Imports the entry, then every chunk of the bundle; prints how many loaded. */
const LOAD_ALL = `
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
const mainDir = process.argv[2];
process.argv = [process.argv[0], path.join(mainDir, 'index.js'), '--help'];
await import(pathToFileURL(path.join(mainDir, 'index.js')).href);
const chunks = fs.readdirSync(path.join(mainDir, 'chunks')).filter(name => name.endsWith('.js'));
const leftOut = [];
for (const chunk of chunks) {
  try {
    await import(pathToFileURL(path.join(mainDir, 'chunks', chunk)).href);
  } catch (error) {
    // Lighthouse's error reporting is replaced by a module that refuses to load.
    if (error.message !== 'Lighthouse error reporting is not part of this bundle.') throw error;
    leftOut.push(chunk);
  }
}
process.stderr.write('loaded ' + chunks.filter(c => !leftOut.includes(c)).join(' ') + '\\n');
process.stderr.write('left out ' + leftOut.join(' ') + '\\n');
process.exit(0);
`;

/** A Lighthouse snapshot audit through the bundle's own Lighthouse chunk, on a page it is given. */
const AUDIT = `
import {pathToFileURL} from 'node:url';
const [chunk, puppeteerFile, browserURL, pageUrl] = process.argv.slice(2);
// The chunk shares code with the entry, whose top level runs first: let it answer --help.
process.argv = [process.argv[0], 'index.js', '--help'];
const lighthouse = await import(pathToFileURL(chunk).href);
const {default: puppeteer} = await import(pathToFileURL(puppeteerFile).href);
const browser = await puppeteer.connect({browserURL});
const page = await browser.newPage();
await page.goto(pageUrl);
const result = await lighthouse.snapshot(page, {flags: {onlyCategories: ['accessibility']}});
const failed = Object.values(result.lhr.audits).filter(audit => audit.score === 0).map(audit => audit.id);
process.stderr.write('RESULT ' + JSON.stringify({score: result.lhr.categories.accessibility.score, failed, errors: Object.values(result.lhr.audits).filter(a => a.errorMessage).map(a => a.id + ': ' + a.errorMessage).slice(0, 5), warnings: result.lhr.runWarnings}) + '\\n');
await browser.disconnect();
process.exit(0);
`;

/** Static imports and re-exports (`import … from "x"`, `import "x"`) and `import("x")`. */
const IMPORT_STATEMENT =
  /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)?\s*from\s*"([\w@$./:-]+)"|(?:^|[;}\n])\s*import\s*"([\w@$./:-]+)"|\bimport\(\s*"([\w@$./:-]+)"\s*\)/g;

let work: string;
let appDir: string;

function runNode(args: string[], env: NodeJS.ProcessEnv = {}): ReturnType<typeof spawnSync> {
  return spawnSync(
    process.execPath,
    ['--import', pathToFileURL(path.join(work, 'register.mjs')).href, ...args],
    {
      cwd: work,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        MCP_BROWSER_INSPECTOR_CONFIG_DIR: path.join(work, 'config'),
        ...env,
      },
    },
  );
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-desktop-bundle-'));
  appDir = path.join(work, 'app');
  for (const dir of ['out/main', 'out/preload', 'out/renderer']) {
    fs.cpSync(path.join(ROOT, dir), path.join(appDir, dir), {recursive: true});
  }
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(appDir, 'package.json'));
  fs.writeFileSync(path.join(work, 'electron-stub.mjs'), ELECTRON_STUB);
  const stubUrl = pathToFileURL(path.join(work, 'electron-stub.mjs')).href;
  fs.writeFileSync(
    path.join(work, 'hooks.mjs'),
    `export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? {url: ${JSON.stringify(stubUrl)}, shortCircuit: true} : next(specifier, context);
}\n`,
  );
  fs.writeFileSync(
    path.join(work, 'register.mjs'),
    `import {register} from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(work, 'hooks.mjs')).href)});\n`,
  );
  fs.writeFileSync(path.join(work, 'load-all.mjs'), LOAD_ALL);
  fs.writeFileSync(path.join(work, 'audit.mjs'), AUDIT);
});

afterAll(() => fs.rmSync(work, {recursive: true, force: true}));

describe('desktop main bundle (out/main)', () => {
  it('runs from a folder without node_modules: --version prints the app version', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const result = runNode([path.join(appDir, 'out/main/index.js'), '--version'], {
      STUB_EXIT_FOR_REAL: '1',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(String(result.stdout).trim()).toBe(pkg.version);
  });

  it('ends a start with a bad path flag before it loads the engine: one line, exit 2', () => {
    const result = runNode([path.join(appDir, 'out/main/index.js'), '--recordDir', '/proc/nope'], {
      STUB_EXIT_FOR_REAL: '1',
    });
    expect(result.status).toBe(2);
    expect(String(result.stderr)).toBe(
      'MCP Browser Inspector: Cannot use --recordDir /proc/nope: folders cannot be created there. Pass a path in a writable folder.\n',
    );
    // What runs before the check is the flags' and the shell's code; the engine (puppeteer,
    // the MCP SDK, the HTTP server) is loaded once the window is to open.
    const entry = staticallyLoadedBytes(path.join(appDir, 'out/main/index.js'));
    expect(entry).toBeLessThan(1_500_000);
    expect(bundleBytes(path.join(appDir, 'out/main'))).toBeGreaterThan(4 * entry);
  });

  it('loads every lazy chunk, Lighthouse and the trace engine included', () => {
    const result = runNode([path.join(work, 'load-all.mjs'), path.join(appDir, 'out/main')]);
    expect(result.status, String(result.stderr)).toBe(0);
    const loaded = /loaded (.*)/.exec(String(result.stderr))?.[1]?.split(' ') ?? [];
    expect(loaded.some(name => name.startsWith('lighthouseRuntime-'))).toBe(true);
    expect(loaded.some(name => name.startsWith('trace-'))).toBe(true);
    expect(/left out (.*)/.exec(String(result.stderr))?.[1]).toMatch(/^\S*sentry\S*\.js$/);
  });

  it(
    'audits a page with its own Lighthouse (its page functions run in the page)',
    async () => {
      const fixtures = await new FixtureServer().start();
      const chromium = await launchDebuggableChromium();
      try {
        const pageUrl = fixtures.html(
          '/unnamed-button.html',
          '<!doctype html><html lang="en"><title>Audit me</title><button></button></html>',
        );
        const chunk = fs
          .readdirSync(path.join(appDir, 'out/main/chunks'))
          .find(name => name.startsWith('lighthouseRuntime-') && name.endsWith('.js'));
        expect(chunk).toBeDefined();
        const child = spawn(
          process.execPath,
          [
            '--import',
            pathToFileURL(path.join(work, 'register.mjs')).href,
            path.join(work, 'audit.mjs'),
            path.join(appDir, 'out/main/chunks', chunk ?? ''),
            path.join(ROOT, 'node_modules/puppeteer-core/lib/esm/puppeteer/puppeteer-core.js'),
            chromium.browserUrl,
            pageUrl,
          ],
          {
            cwd: work,
            env: {PATH: process.env.PATH, HOME: work},
            stdio: ['ignore', 'ignore', 'pipe'],
          },
        );
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const code = await new Promise<number | null>(resolve => child.once('exit', resolve));
        expect(code, stderr).toBe(0);
        const result = JSON.parse(/RESULT (.*)/.exec(stderr)?.[1] ?? '{}') as {
          score?: number;
          failed?: string[];
        };
        expect(result.failed, JSON.stringify(result)).toContain('button-name');
        expect(result.score).toBeLessThan(1);
      } finally {
        await chromium.stop();
        await fixtures.stop();
      }
    },
    scaled(90_000),
  );

  it('imports nothing but electron and Node built-ins from outside the bundle', () => {
    const files = fs
      .readdirSync(path.join(appDir, 'out/main'), {recursive: true, encoding: 'utf8'})
      .filter(name => name.endsWith('.js'));
    const outside = new Set<string>();
    for (const file of files) {
      const code = fs.readFileSync(path.join(appDir, 'out/main', file), 'utf8');
      // esbuild may put several statements on a line: an import starts a statement.
      for (const match of code.matchAll(IMPORT_STATEMENT)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? '';
        if (!specifier.startsWith('.') && !specifier.startsWith('node:')) {
          outside.add(specifier);
        }
      }
    }
    // The scan sees imports at all (the bundle does import electron).
    expect(outside.has('electron')).toBe(true);
    const builtins = new Set(builtinModules);
    expect(
      [...outside].filter(specifier => !builtins.has(specifier) && specifier !== 'electron'),
    ).toEqual([]);
  });
});
