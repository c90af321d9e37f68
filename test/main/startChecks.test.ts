/**
 * The desktop app checks its path flags at start as headless mode does: a bad one is one line on
 * stderr and in a dialog, exit 2, before the single-instance lock, a window or the engine; a stale
 * ready file is removed first. The main process runs with 'electron' mocked, once per case.
 *
 * Tests: src/main/index.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeEach, describe, expect, it, vi} from 'vitest';

const fake = vi.hoisted(() => ({
  app: {
    isPackaged: false,
    setPath: vi.fn(),
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => true),
    whenReady: vi.fn(() => new Promise<void>(() => undefined)),
    on: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
  },
  dialog: {showErrorBox: vi.fn(), showMessageBox: vi.fn()},
  protocol: {registerSchemesAsPrivileged: vi.fn(), handle: vi.fn()},
  windows: 0,
}));

vi.mock('electron', () => ({
  app: fake.app,
  dialog: fake.dialog,
  protocol: fake.protocol,
  BrowserWindow: vi.fn(() => {
    fake.windows++;
  }),
  ipcMain: {handle: vi.fn(), on: vi.fn()},
  screen: {getAllDisplays: () => []},
  session: {defaultSession: {}},
  shell: {openExternal: vi.fn()},
}));

const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-main-checks-'));
const blocker = path.join(configDir, 'a-file');
fs.writeFileSync(blocker, 'x');

afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  fs.rmSync(configDir, {recursive: true, force: true});
});

/** Runs the main process's start with these flags; what it printed to stderr. */
async function startWith(flags: string[]): Promise<string[]> {
  const lines: string[] = [];
  vi.spyOn(process, 'argv', 'get').mockReturnValue([
    '/usr/bin/electron',
    'out/main/index.js',
    ...flags,
  ]);
  vi.spyOn(process.stderr, 'write').mockImplementation(chunk => {
    lines.push(...String(chunk).trimEnd().split('\n'));
    return true;
  });
  vi.resetModules();
  await import('../../src/main/index.js');
  return lines;
}

beforeEach(() => {
  vi.stubEnv('MCP_BROWSER_INSPECTOR_CONFIG_DIR', configDir);
  fake.app.exit.mockClear();
  fake.app.requestSingleInstanceLock.mockClear();
  fake.dialog.showErrorBox.mockClear();
  fake.windows = 0;
});

describe('a desktop start with a bad path flag', () => {
  const writable = 'Pass a path in a writable folder.';
  const cases: [string[], string][] = [
    [['--recordDir', '/proc/nope'], `folders cannot be created there. ${writable}`],
    [['--recordDir', '/etc/passwd/x'], `a folder on its path is a file. ${writable}`],
    [['--telemetryLog', '/etc/passwd/t.jsonl'], `a folder on its path is a file. ${writable}`],
    [['--readyFile', path.join(blocker, 'r.json')], `a folder on its path is a file. ${writable}`],
    [['--userDataDir', '/proc/nope'], `folders cannot be created there. ${writable}`],
    [['--workspace', '/proc/nope'], 'it does not exist. Pass an existing folder.'],
    [
      ['--executablePath', '/etc/passwd/x'],
      'a folder on its path is a file. Point it at a Chrome or Chromium binary.',
    ],
  ];
  for (const [flags, reason] of cases) {
    it(`${flags.join(' ')}: one line, a dialog, exit 2, nothing started`, async () => {
      const message = `Cannot use ${flags[0]} ${flags[1]}: ${reason}`;
      const lines = await startWith(flags);
      expect(lines).toEqual([`MCP Browser Inspector: ${message}`]);
      expect(fake.dialog.showErrorBox).toHaveBeenCalledExactlyOnceWith(
        'MCP Browser Inspector',
        message,
      );
      expect(fake.app.exit).toHaveBeenCalledExactlyOnceWith(2);
      expect(fake.app.requestSingleInstanceLock).not.toHaveBeenCalled();
      expect(fake.windows).toBe(0);
    });
  }

  it('removes a stale ready file first, even when a later flag is bad', async () => {
    const ready = path.join(configDir, 'ready.json');
    fs.writeFileSync(
      ready,
      JSON.stringify({mcpUrl: 'http://127.0.0.1:1/mcp', inspectorUrl: 'x', token: 't', pid: 1}),
    );
    const lines = await startWith(['--readyFile', ready, '--recordDir', '/proc/nope']);
    expect(lines).toEqual([
      `MCP Browser Inspector: Cannot use --recordDir /proc/nope: folders cannot be created there. ${writable}`,
    ]);
    expect(fs.existsSync(ready)).toBe(false);
    expect(fake.app.exit).toHaveBeenCalledExactlyOnceWith(2);
  });
});
