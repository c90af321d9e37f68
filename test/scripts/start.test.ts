/**
 * `npm start` for real: scripts/start.mjs on this machine. Where Electron cannot start it must say
 * why in ONE line, run the headless inspector (whose URL answers), and leave no process behind.
 * ELECTRON_OVERRIDE_DIST_PATH (honoured by electron's own launcher too) points the script at an
 * empty folder (binary missing) or at a fake Electron, so each path runs on any machine.
 *
 * Tests: scripts/start.mjs
 */
import {spawn, type ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, afterEach, describe, expect, it} from 'vitest';
import {ROOT, waitFor} from '../helpers/engine.js';

const START = path.join(ROOT, 'scripts', 'start.mjs');
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-start-test-'));
const running: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{code: number | null; signal: NodeJS.Signals | null}>;
}

function startScript(args: string[], env: Record<string, string | undefined>): Started {
  const cleanEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries({...process.env, ...env})) {
    if (value !== undefined && !['DISPLAY', 'WAYLAND_DISPLAY'].includes(key)) {
      cleanEnv[key] = value;
    }
  }
  for (const key of ['DISPLAY', 'WAYLAND_DISPLAY']) {
    const value = env[key];
    if (value !== undefined) {
      cleanEnv[key] = value;
    }
  }
  const child = spawn(process.execPath, [START, ...args], {
    cwd: ROOT,
    env: {...cleanEnv, MBI_SKIP_BUILD: '1'},
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tempDir(name: string): string {
  const dir = path.join(tempRoot, `${name}-${Math.random().toString(36).slice(2)}`);
  fs.mkdirSync(dir, {recursive: true});
  return dir;
}

/** A stand-in Electron: a Node script named like the binary, doing what `behaviour` says. */
function fakeElectron(behaviour: 'fail' | 'ready' | 'hand-over'): string {
  const dist = tempDir('fake-electron');
  const script = {
    fail: `process.stderr.write('fake electron: Missing X server or $DISPLAY\\n'); process.exit(1);`,
    'hand-over': `process.exit(0);`,
    ready: `
      const fs = require('node:fs');
      const args = process.argv.slice(2);
      const readyFile = args[args.indexOf('--readyFile') + 1];
      // As the app writes it (readyFiles.ts): renamed into place, never read half written.
      fs.writeFileSync(readyFile + '.tmp', JSON.stringify({pid: process.pid, appDir: args[0]}));
      fs.renameSync(readyFile + '.tmp', readyFile);
      process.on('SIGTERM', () => process.exit(0));
      setInterval(() => undefined, 1000);`,
  }[behaviour];
  const name = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
  const binary = path.join(dist, name);
  fs.mkdirSync(path.dirname(binary), {recursive: true});
  fs.writeFileSync(binary, `#!${process.execPath}\n${script}\n`, {mode: 0o755});
  return dist;
}

const inspectorUrlIn = (text: string) => /inspector (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text)?.[1];
const reasonLines = (text: string) =>
  text.split('\n').filter(line => line.startsWith('Electron cannot start here:'));

async function expectHeadlessFallback(started: Started, readyFile: string, reason: RegExp) {
  const url = await waitFor(() => inspectorUrlIn(started.output()), 30_000, 'the inspector URL');
  const lines = reasonLines(started.output());
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(reason);
  expect(lines[0]).toMatch(/\. Starting the headless inspector instead\.$/);
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('<div id="root">');

  // The headless server is a child of start.mjs; SIGTERM to the script must take it down too.
  const {pid} = JSON.parse(fs.readFileSync(readyFile, 'utf8')) as {pid: number};
  expect(pid).not.toBe(started.child.pid);
  expect(isAlive(pid)).toBe(true);
  started.child.kill('SIGTERM');
  const exit = await started.exited;
  expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
  await waitFor(() => !isAlive(pid), 10_000, 'the headless server to exit');
  await expect(fetch(url)).rejects.toThrow();
}

afterEach(() => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
  }
});
afterAll(() => fs.rmSync(tempRoot, {recursive: true, force: true}));

const posixOnly = process.platform === 'win32' ? it.skip : it;

describe('npm start (scripts/start.mjs)', () => {
  it('without the Electron binary where ELECTRON_OVERRIDE_DIST_PATH points: one line why, no download, the headless inspector answers, nothing left after SIGTERM', async () => {
    const dir = tempDir('missing');
    const readyFile = path.join(dir, 'ready.json');
    // (The first-start download itself: electronDownload.test.ts, against a local mirror.)
    const started = startScript(
      ['--port', '0', '--headless', '--isolated', '--readyFile', readyFile],
      {
        ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'no-electron-here'),
        MCP_BROWSER_INSPECTOR_CONFIG_DIR: dir,
        DISPLAY: ':0',
      },
    );
    await expectHeadlessFallback(
      started,
      readyFile,
      /the Electron binary is not installed \(.*no-electron-here\/electron is missing; ELECTRON_OVERRIDE_DIST_PATH names that folder\)/,
    );
    expect(started.output()).not.toContain('Downloading Electron');
  });

  posixOnly('without a display: says so and falls back', async () => {
    const dir = tempDir('no-display');
    const readyFile = path.join(dir, 'ready.json');
    const started = startScript(
      ['--port', '0', '--headless', '--isolated', '--readyFile', readyFile],
      {
        ELECTRON_OVERRIDE_DIST_PATH: fakeElectron('ready'),
        MCP_BROWSER_INSPECTOR_CONFIG_DIR: dir,
      },
    );
    await expectHeadlessFallback(
      started,
      readyFile,
      process.platform === 'linux' ? /there is no display/ : /./,
    );
  });

  posixOnly('when Electron exits before its window opens: says so and falls back', async () => {
    const dir = tempDir('crash');
    const readyFile = path.join(dir, 'ready.json');
    const started = startScript(
      ['--port', '0', '--headless', '--isolated', '--readyFile', readyFile],
      {
        ELECTRON_OVERRIDE_DIST_PATH: fakeElectron('fail'),
        MCP_BROWSER_INSPECTOR_CONFIG_DIR: dir,
        DISPLAY: ':0',
      },
    );
    await expectHeadlessFallback(
      started,
      readyFile,
      /Electron exited before its window opened \(exit code 1\)/,
    );
    expect(started.output()).toContain('fake electron: Missing X server');
  });

  posixOnly(
    'when Electron starts: runs the app (no fallback) and stops it on SIGTERM',
    async () => {
      const dir = tempDir('electron');
      const started = startScript(['--port', '0'], {
        ELECTRON_OVERRIDE_DIST_PATH: fakeElectron('ready'),
        MCP_BROWSER_INSPECTOR_CONFIG_DIR: dir,
        DISPLAY: ':0',
      });
      // start.mjs passes its own --readyFile in a private temp dir; find the app through it.
      const electronPid = await waitFor(
        () => {
          const found = fs
            .readdirSync(os.tmpdir())
            .filter(name => name.startsWith('mbi-start-'))
            .map(name => path.join(os.tmpdir(), name, 'ready.json'))
            .filter(file => fs.existsSync(file))
            .flatMap(file => {
              // Another test's app may be writing its file right now: skip a partial one.
              try {
                return [JSON.parse(fs.readFileSync(file, 'utf8')) as {pid: number; appDir: string}];
              } catch {
                return [];
              }
            })
            .find(info => info.appDir === path.join(ROOT, 'out', 'main') && isAlive(info.pid));
          return found?.pid;
        },
        15_000,
        'the fake app to be ready',
      );
      expect(reasonLines(started.output())).toEqual([]);
      started.child.kill('SIGTERM');
      await started.exited;
      await waitFor(() => !isAlive(electronPid), 10_000, 'the app to exit');
    },
  );

  posixOnly(
    'a second launch that hands over to the running app exits cleanly without a fallback',
    async () => {
      const dir = tempDir('hand-over');
      const started = startScript(['--categoryPwa'], {
        ELECTRON_OVERRIDE_DIST_PATH: fakeElectron('hand-over'),
        MCP_BROWSER_INSPECTOR_CONFIG_DIR: dir,
        DISPLAY: ':0',
      });
      const exit = await started.exited;
      expect(exit.code).toBe(0);
      expect(reasonLines(started.output())).toEqual([]);
    },
  );
});
