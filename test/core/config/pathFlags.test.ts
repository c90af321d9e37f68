/**
 * Every path flag is checked at start: one line naming the flag and the reason; folders are made
 * with a bounded walk (Node's recursive mkdir never returns for /proc/nope); the ready file of an
 * earlier run is removed, and this run's is written whole and removed only while it is its own.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parseFlags} from '../../../src/core/config/flags.js';
import {
  checkPathFlags,
  makeDirBounded,
  pathFlagProblem,
} from '../../../src/core/config/pathFlags.js';
import {removeOwnReadyFile, writeReadyFile} from '../../../src/core/config/readyFiles.js';
import type {ServerConfig} from '../../../src/core/config/serverConfig.js';

let tmp: string;
let aFile: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-paths-'));
  aFile = path.join(tmp, 'a-file');
  fs.writeFileSync(aFile, 'x');
});

afterAll(() => {
  fs.rmSync(tmp, {recursive: true, force: true});
});

function config(argv: string[]): ServerConfig {
  const parsed = parseFlags(argv, {env: {}, hasDisplay: false});
  if (parsed.kind !== 'config') {
    throw new Error(`expected a config, got ${JSON.stringify(parsed)}`);
  }
  return parsed.config;
}

const problem = (argv: string[]): string | undefined => pathFlagProblem(config(argv));
const WRITABLE = 'Pass a path in a writable folder.';

describe('path flags at start', () => {
  it('names the flag, the path and the reason in one line', () => {
    const under = path.join(aFile, 'x');
    const cases: [string[], string][] = [
      [
        ['--recordDir', '/proc/nope'],
        `Cannot use --recordDir /proc/nope: folders cannot be created there. ${WRITABLE}`,
      ],
      [
        ['--telemetryLog', path.join(aFile, 't.jsonl')],
        `Cannot use --telemetryLog ${path.join(aFile, 't.jsonl')}: a folder on its path is a file. ${WRITABLE}`,
      ],
      [['--telemetryLog', tmp], `Cannot use --telemetryLog ${tmp}: it is a folder. ${WRITABLE}`],
      [
        ['--readyFile', path.join(under, 'r.json')],
        `Cannot use --readyFile ${path.join(under, 'r.json')}: a folder on its path is a file. ${WRITABLE}`,
      ],
      [['--readyFile', tmp], `Cannot use --readyFile ${tmp}: it is a folder. ${WRITABLE}`],
      [
        ['--userDataDir', under],
        `Cannot use --userDataDir ${under}: a folder on its path is a file. ${WRITABLE}`,
      ],
      [
        ['--executablePath', '/nonexistent/chrome'],
        'Cannot use --executablePath /nonexistent/chrome: it does not exist. Point it at a Chrome or Chromium binary.',
      ],
      [
        ['--executablePath', aFile],
        `Cannot use --executablePath ${aFile}: it is not executable. Point it at a Chrome or Chromium binary.`,
      ],
      [
        ['--executablePath', tmp],
        `Cannot use --executablePath ${tmp}: it is not a file. Point it at a Chrome or Chromium binary.`,
      ],
      [
        ['--workspace', tmp, '--filesystemRoot', path.join(tmp, 'missing')],
        `Cannot use --workspace ${path.join(tmp, 'missing')}: it does not exist. Pass an existing folder.`,
      ],
      [
        ['--workspace', aFile],
        `Cannot use --workspace ${aFile}: it is a file, not a folder. Pass an existing folder.`,
      ],
    ];
    for (const [argv, message] of cases) {
      expect(problem(argv), argv.join(' ')).toBe(message);
    }
  });

  it('makes the folders a good path needs (private where the run keeps its own files)', () => {
    const base = path.join(tmp, 'good');
    const argv = [
      '--readyFile',
      path.join(base, 'ready', 'r.json'),
      '--telemetryLog',
      path.join(base, 'logs', 'deep', 't.jsonl'),
      '--recordDir',
      path.join(base, 'sessions'),
      '--userDataDir',
      path.join(base, 'profile'),
      '--workspace',
      tmp,
      '--executablePath',
      process.execPath,
    ];
    expect(problem(argv)).toBeUndefined();
    expect(fs.statSync(path.join(base, 'ready')).isDirectory()).toBe(true);
    // The log exists (empty, private) as its first record would make it.
    const log = fs.statSync(path.join(base, 'logs', 'deep', 't.jsonl'));
    expect([log.size, (log.mode & 0o777).toString(8)]).toEqual([0, '600']);
    for (const dir of ['sessions', 'profile']) {
      expect((fs.statSync(path.join(base, dir)).mode & 0o777).toString(8)).toBe('700');
    }
  });

  it('refuses where the kernel refuses a file, whoever runs it (root passes the access check in /proc)', () => {
    // Root: the file cannot be made (ENOENT); anyone else: permission denied.
    const refused = '(files cannot be created there|permission denied)';
    for (const [flag, file] of [
      ['recordDir', '/proc'],
      ['userDataDir', '/proc'],
      ['readyFile', '/proc/r.json'],
      ['telemetryLog', '/proc/t.jsonl'],
    ] as const) {
      expect(problem([`--${flag}`, file]), flag).toMatch(
        new RegExp(`^Cannot use --${flag} ${file}: ${refused}\\. ${WRITABLE}$`),
      );
    }
  });

  it('writes through nothing but a regular file: a pipe or a link at the path is refused, and kept', () => {
    const pipe = path.join(tmp, 'a-pipe');
    execFileSync('mkfifo', [pipe]);
    const link = path.join(tmp, 'a-link');
    fs.symlinkSync(aFile, link);
    for (const flag of ['readyFile', 'telemetryLog']) {
      // A pipe opened for writing would block the start until someone reads it.
      expect(problem([`--${flag}`, pipe])).toBe(
        `Cannot use --${flag} ${pipe}: it is not a regular file. ${WRITABLE}`,
      );
      expect(problem([`--${flag}`, link])).toBe(
        `Cannot use --${flag} ${link}: it is a link (never followed). ${WRITABLE}`,
      );
    }
    expect(fs.lstatSync(pipe).isFIFO()).toBe(true);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(aFile, 'utf8')).toBe('x');
  });

  it('removes only a ready file as stale: an empty file is taken, anyone else’s file is kept', () => {
    const empty = path.join(tmp, 'empty-ready.json');
    fs.writeFileSync(empty, '');
    expect(problem(['--readyFile', empty])).toBeUndefined();
    expect(fs.existsSync(empty)).toBe(false);

    const notes = path.join(tmp, 'notes.txt');
    fs.writeFileSync(notes, 'my notes');
    expect(problem(['--readyFile', notes])).toBe(
      `Cannot use --readyFile ${notes}: it holds something other than a ready file. Pass a path of its own: the ready file is replaced at each start and removed at exit.`,
    );
    expect(fs.readFileSync(notes, 'utf8')).toBe('my notes');
  });

  it('leaves --recordDir alone with --no-record', () => {
    expect(problem(['--no-record', '--recordDir', '/proc/nope'])).toBeUndefined();
  });

  it('removes a stale ready file first, even when a later flag is bad', () => {
    const ready = path.join(tmp, 'stale.json');
    fs.writeFileSync(ready, JSON.stringify({mcpUrl: 'x', inspectorUrl: 'y', token: 't', pid: 1}));
    expect(problem(['--readyFile', ready, '--recordDir', '/proc/nope'])).toContain('--recordDir');
    expect(fs.existsSync(ready)).toBe(false);
  });

  it('throws nothing but PathProblem for a bad path', () => {
    expect(() => checkPathFlags(config(['--recordDir', '/proc/nope']))).toThrow(
      /^Cannot use --recordDir/,
    );
  });
});

describe('makeDirBounded', () => {
  it('refuses where the kernel refuses, at once (recursive mkdir loops there)', () => {
    expect(() => makeDirBounded('/proc/nope/deeper')).toThrow(
      expect.objectContaining({code: 'ENOENT'}),
    );
  });

  it('makes a nested folder one level at a time, and accepts one that exists', () => {
    const nested = path.join(tmp, 'n1', 'n2', 'n3');
    makeDirBounded(nested, 0o700);
    makeDirBounded(nested, 0o700);
    expect((fs.statSync(path.join(tmp, 'n1')).mode & 0o777).toString(8)).toBe('700');
    expect(fs.statSync(nested).isDirectory()).toBe(true);
  });

  it('refuses a path with more missing levels than any real one has', () => {
    const deep = path.join(tmp, 'deep', ...Array.from({length: 80}, () => 'd'));
    expect(() => makeDirBounded(deep)).toThrow(expect.objectContaining({code: 'ENOENT'}));
    expect(fs.existsSync(path.join(tmp, 'deep'))).toBe(false);
  });
});

describe('the ready file on disk', () => {
  const ready = {mcpUrl: 'http://127.0.0.1:1/mcp', inspectorUrl: 'http://127.0.0.1:1/', token: 't'};

  it('is written whole with mode 0600, without a temp file left', () => {
    const dir = path.join(tmp, 'ready-write');
    const file = path.join(dir, 'r.json');
    // A temp file of an earlier crash with a looser mode does not make the new one loose.
    fs.mkdirSync(dir);
    fs.writeFileSync(`${file}.${process.pid}.tmp`, 'old', {mode: 0o644});
    writeReadyFile(file, {...ready, pid: process.pid});
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({...ready, pid: process.pid});
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(fs.readdirSync(dir)).toEqual(['r.json']);
  });

  it('never replaces what is not a regular file', () => {
    const pipe = path.join(tmp, 'ready-pipe');
    execFileSync('mkfifo', [pipe]);
    expect(() => writeReadyFile(pipe, {...ready, pid: process.pid})).toThrow(
      'it is not a regular file',
    );
    expect(fs.lstatSync(pipe).isFIFO()).toBe(true);
    // Nor is one read on exit (a pipe would block it).
    removeOwnReadyFile(pipe);
    expect(fs.lstatSync(pipe).isFIFO()).toBe(true);
  });

  it('is removed on exit only while it is still this process', () => {
    const file = path.join(tmp, 'ready-own.json');
    writeReadyFile(file, {...ready, pid: process.pid + 1});
    removeOwnReadyFile(file);
    expect(fs.existsSync(file)).toBe(true);
    writeReadyFile(file, {...ready, pid: process.pid});
    removeOwnReadyFile(file);
    expect(fs.existsSync(file)).toBe(false);
  });
});
