/**
 * `export` of a crafted recording whose paths name files the user never named: /etc/passwd as an
 * evaluate_script sourcePath, an upload and a file: URL (also as view-source:), a file outside
 * the --workspace folder, a link inside it that leads to /etc/passwd, the server's token in its
 * config folder, and a relative path. None of them is read or handed to a page: each step says why
 * it was left out and how to allow a folder. Files inside the named folder are used: a script's
 * source is written into the test (which then reads no file), an upload and a file: URL keep
 * their canonical path.
 *
 * Tests: src/cli/exportCommand.ts, src/core/recordings/export/exportRecording.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runSubcommand} from '../../src/cli/subcommands.js';
import type {EventEnvelope, InspectorEvent} from '../../src/shared/protocol.js';
import {RECORDING_FORMAT} from '../../src/shared/recordingFile.js';

const PASSWD = '/etc/passwd';
let base = '';
let workspace = '';
let outside = '';
let configDir = '';
let recording = '';

const client = {id: 'c1', name: 'agent', version: '1', transport: 'http'} as const;

function call(
  callId: string,
  tool: string,
  args: Record<string, unknown>,
  during: InspectorEvent[] = [],
): InspectorEvent[] {
  return [
    {type: 'toolCallStarted', callId, tool, args, client},
    ...during,
    ...(tool === 'upload_file'
      ? [
          {
            type: 'callElements' as const,
            callId,
            elements: [
              {param: 'uid', uid: '3', role: 'button', name: 'Attach', ancestry: [], nth: 0},
            ],
          },
        ]
      : []),
    {
      type: 'toolCallEnded',
      callId,
      tool,
      status: 'ok',
      durationMs: 1,
      result: {text: 'ok', images: []},
      pageId: 1,
    },
  ];
}

/** The crafted recording: every path a recording can hand to an export. */
function craftedEvents(): InspectorEvent[] {
  const inside = (name: string): string => path.join(workspace, name);
  return [
    {type: 'pagesChanged', pages: [{id: 1, url: 'https://x.test/', title: '', selected: true}]},
    ...call('1', 'navigate_page', {pageId: 1, type: 'url', url: `file://${PASSWD}`}),
    ...call('2', 'navigate_page', {pageId: 1, type: 'url', url: `view-source:file://${PASSWD}`}),
    ...call('3', 'evaluate_script', {pageId: 1, sourcePath: PASSWD}),
    ...call('4', 'evaluate_script', {pageId: 1, sourcePath: path.join(outside, 'secret.js')}),
    ...call('5', 'evaluate_script', {pageId: 1, sourcePath: inside('passwd-link.js')}),
    ...call('6', 'evaluate_script', {pageId: 1, sourcePath: path.join(configDir, 'token')}),
    ...call('7', 'evaluate_script', {pageId: 1, sourcePath: 'script.js'}),
    ...call('8', 'upload_file', {pageId: 1, uid: '3', filePaths: [PASSWD]}),
    ...call('9', 'upload_file', {
      pageId: 1,
      uid: '3',
      filePaths: [path.join(outside, 'secret.js')],
    }),
    ...call('10', 'new_page', {url: `file://${path.join(outside, 'page.html')}`}),
    ...call('11', 'evaluate_script', {pageId: 1, sourcePath: inside('script.js')}),
    ...call('12', 'upload_file', {pageId: 1, uid: '3', filePaths: [inside('notes.txt')]}),
    ...call('13', 'navigate_page', {pageId: 1, type: 'url', url: `file://${inside('page.html')}`}),
    // A page the recording shows at /etc/passwd without a call that opened it.
    ...call('14', 'press_key', {pageId: 2, key: 'Enter'}, [
      {
        type: 'pagesChanged',
        pages: [
          {id: 1, url: 'https://x.test/', title: '', selected: true},
          {id: 2, url: `file://${PASSWD}`, title: '', selected: false},
        ],
      },
    ]),
  ];
}

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-export-files-'));
  workspace = path.join(base, 'workspace');
  outside = path.join(base, 'outside');
  configDir = path.join(workspace, 'config');
  fs.mkdirSync(configDir, {recursive: true});
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(workspace, 'script.js'), '() => document.title;\n');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'twelve bytes');
  fs.writeFileSync(path.join(workspace, 'page.html'), '<title>Local</title>');
  fs.symlinkSync(PASSWD, path.join(workspace, 'passwd-link.js'));
  fs.writeFileSync(path.join(configDir, 'token'), 'SECRET-TOKEN-VALUE');
  fs.writeFileSync(path.join(outside, 'secret.js'), '() => "OUTSIDE-SECRET"');
  fs.writeFileSync(path.join(outside, 'page.html'), 'OUTSIDE-PAGE');
  const envelopes: EventEnvelope[] = craftedEvents().map((event, index) => ({
    seq: index + 1,
    time: 1_700_000_000_000 + index,
    event,
  }));
  const header = {
    format: RECORDING_FORMAT,
    formatVersion: 1,
    appVersion: 'test',
    startedAt: 1_700_000_000_000,
    flags: {},
  };
  recording = path.join(base, 'crafted.jsonl');
  fs.writeFileSync(
    recording,
    `${[header, ...envelopes].map(line => JSON.stringify(line)).join('\n')}\n`,
  );
});

afterAll(() => {
  fs.rmSync(base, {recursive: true, force: true});
});

/** Runs `export` in-process, as the CLI does; its exit code, stdout and stderr. */
async function exportWith(...flags: string[]): Promise<{code: number; out: string; log: string}> {
  let out = '';
  const log: string[] = [];
  const code = await runSubcommand(['export', recording, ...flags], {
    version: 'test',
    out: text => (out += text),
    log: line => log.push(line),
    env: {...process.env, MCP_BROWSER_INSPECTOR_CONFIG_DIR: configDir},
  });
  return {code: code ?? -1, out, log: log.join('\n')};
}

/** The note under the comment of call #n. */
function noteOf(text: string, index: number): string {
  const lines = text.split('\n');
  const at = lines.findIndex(line => line.trim().startsWith(`// #${index} `));
  return lines[at + 1]?.trim() ?? '';
}

/** What no export may hold: a file's content, a file read, a local file opened or uploaded. */
function expectNothingLeaked(text: string): void {
  const passwd = fs.readFileSync(PASSWD, 'utf8').split('\n')[0] ?? 'root:';
  expect(text).not.toContain(passwd);
  expect(text).not.toContain('OUTSIDE-SECRET');
  expect(text).not.toContain('OUTSIDE-PAGE');
  expect(text).not.toContain('SECRET-TOKEN-VALUE');
  expect(text).not.toContain('readFileSync');
  expect(text).not.toMatch(/goto\("(?:view-source:)?file:\/\/(?:\/etc|[^"]*outside)/);
  expect(text).not.toMatch(/uploadFiles\([^\n]*(?:\/etc\/passwd|outside)/);
}

describe('export of a recording that names local files', () => {
  it('reads none and hands none to a page without --workspace, and says why per step', async () => {
    const {code, out} = await exportWith();
    expect(code).toBe(0);
    expectNothingLeaked(out);
    expect(out).toContain(
      `const page2 = await context.newPage();\n  // (not opened: it opens the local file "file://${PASSWD}", and no folder was named;`,
    );
    for (let index = 1; index <= 13; index++) {
      expect(noteOf(out, index)).toMatch(
        /^\/\/ {3}\(not exported: (its script is|it uploads|it opens the local file) .*no folder was named; export with --workspace <folder>/,
      );
    }
  });

  it('uses only files inside the --workspace folder, the source written into the test', async () => {
    const {code, out} = await exportWith('--workspace', workspace);
    expect(code).toBe(0);
    expectNothingLeaked(out);
    const outsideNote = /outside the folders named with --workspace \(or in the config folder\)/;
    // /etc/passwd, a file beside the workspace, a link out of it, the token, a relative path.
    for (const index of [1, 2, 3, 4, 5, 6, 8, 9, 10]) {
      expect(noteOf(out, index)).toMatch(outsideNote);
    }
    expect(noteOf(out, 7)).toContain('not an absolute path');
    const real = fs.realpathSync(workspace);
    expect(noteOf(out, 11)).toBe(
      'await page.evaluate(source => globalThis.eval(source)(), "(\\n() => document.title\\n)");',
    );
    expect(noteOf(out, 12)).toContain(`${JSON.stringify([path.join(real, 'notes.txt')])});`);
    expect(noteOf(out, 13)).toBe(`await page.goto("file://${path.join(real, 'page.html')}");`);
  });

  it('refuses a --workspace that is not a folder', async () => {
    const {code, log} = await exportWith('--workspace', path.join(base, 'missing'));
    expect(code).toBe(2);
    expect(log).toContain('is not a folder');
  });
});
