/**
 * The Playwright export of hostile recordings: arguments, element names and results with quotes,
 * backticks, `*\/`, `${}`, newlines and line separators stay inside their string literals and
 * comments; the file parses, and running it (against a recording stub of the Playwright API)
 * hands every value back exactly as recorded. Roles, names and tools called `toString`,
 * `constructor` or `__proto__` are data too, and the file type-checks in strict mode.
 *
 * Tests: src/core/recordings/export/exportRecording.ts, src/core/recordings/export/playwright.ts,
 *   src/core/recordings/export/steps.ts
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import {afterAll, describe, expect, it} from 'vitest';
import {exportRecording} from '../../../src/core/recordings/export/exportRecording.js';
import type {EventEnvelope, InspectorEvent} from '../../../src/shared/protocol.js';
import {RECORDING_FORMAT, type ParsedRecording} from '../../../src/shared/recordingFile.js';
import {ROOT} from '../../helpers/engine.js';
import {writeStrictTsconfig} from '../../helpers/playwrightRun.js';

const HOSTILE = 'a"b\'c`d${process.exit(3)}e*/f\ng\u2028h\u2029i\\j</script>//k';
const client = {id: 'c1', name: 'agent', version: '1', transport: 'http'} as const;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-export-'));
afterAll(() => fs.rmSync(dir, {recursive: true, force: true}));

function recordingOf(events: InspectorEvent[]): ParsedRecording {
  const envelopes: EventEnvelope[] = events.map((event, index) => ({
    seq: index + 1,
    time: index,
    event,
  }));
  return {
    header: {
      format: RECORDING_FORMAT,
      formatVersion: 1,
      appVersion: HOSTILE,
      startedAt: 0,
      flags: {},
    },
    events: envelopes,
    skippedLines: 0,
    skippedAt: [],
  };
}

function callEvents(
  callId: string,
  tool: string,
  args: Record<string, unknown>,
  text: string,
  extra: InspectorEvent[] = [],
): InspectorEvent[] {
  return [
    {type: 'toolCallStarted', callId, tool, args, client},
    ...extra,
    {
      type: 'toolCallEnded',
      callId,
      tool,
      status: 'ok',
      durationMs: 1,
      result: {text, images: []},
      pageId: 1,
    },
  ];
}

const element = (param: string, uid: string) => ({
  param,
  uid,
  role: 'button',
  name: HOSTILE,
  ancestry: [{role: 'region', name: HOSTILE}],
  nth: 0,
});

const hostileRecording = recordingOf([
  {type: 'pagesChanged', pages: [{id: 1, url: 'about:blank', title: '', selected: true}]},
  ...callEvents('1', 'navigate_page', {pageId: 1, type: 'url', url: HOSTILE}, 'ok', [
    {
      type: 'pagesChanged',
      pages: [{id: 1, url: `https://x.test/${HOSTILE}`, title: HOSTILE, selected: true}],
    },
  ]),
  ...callEvents('2', 'click', {pageId: 1, uid: '5', [HOSTILE]: HOSTILE}, 'ok', [
    {type: 'callElements', callId: '2', elements: [element('uid', '5')]},
  ]),
  ...callEvents('3', 'fill', {pageId: 1, uid: '6', value: HOSTILE}, 'ok', [
    {type: 'callElements', callId: '3', elements: [element('uid', '6')]},
  ]),
  ...callEvents('4', 'press_key', {pageId: 1, key: HOSTILE}, 'ok'),
  ...callEvents('5', 'wait_for', {pageId: 1, text: [HOSTILE, 'plain']}, 'ok'),
  ...callEvents(
    '6',
    'evaluate_script',
    {pageId: 1, function: `() => ${JSON.stringify(HOSTILE)}`},
    `Script ran on page and returned:\n\`\`\`json\n${JSON.stringify({[HOSTILE]: [HOSTILE]})}\n\`\`\``,
  ),
  ...callEvents(
    '7',
    'take_snapshot',
    {pageId: 1},
    `## Latest page snapshot\n0 RootWebArea "t"\n 1 heading ${JSON.stringify(HOSTILE)} level=1`,
  ),
  ...callEvents('8', 'press_key', {pageId: 1, key: 'Enter'}, 'ok'),
  // A run of text after a link (a regular expression) and a status's whole text (exact).
  ...callEvents(
    '9',
    'take_snapshot',
    {pageId: 1},
    [
      '## Latest page snapshot',
      '0 RootWebArea "t"',
      ` 1 heading ${JSON.stringify(HOSTILE)} level=1`,
      ' 2 link "more"',
      ` 3 ${JSON.stringify(`${HOSTILE}?`)}`,
      ' 4 status',
      `  5 ${JSON.stringify(`${HOSTILE}!`)}`,
    ].join('\n'),
  ),
]);

/** The exported TypeScript as plain JavaScript (types stripped, nothing else changed). */
function javascript(text: string): string {
  return ts.transpileModule(text, {
    compilerOptions: {module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022},
  }).outputText;
}

/** Runs the file with a stub of @playwright/test that prints every call it gets, as JSON. */
function runWithStub(text: string): unknown[] {
  const stub = `
const calls = [];
const record = path => new Proxy(function () {}, {
  get: (_target, key) => (key === 'then' ? undefined : record([...path, String(key)])),
  apply: (_target, _self, args) => {
    calls.push([
      path.join('.'),
      ...args
        .filter(arg => typeof arg !== 'function')
        .map(arg => (arg instanceof RegExp ? {regexp: arg.source} : arg)),
    ]);
    return record([...path, '()']);
  },
});
const expect = value => record(['expect']);
const test = async (_name, body) => {
  await body({page: record(['page']), context: record(['context'])});
  process.stdout.write(JSON.stringify(calls));
};
`;
  const file = path.join(dir, 'stubbed.mjs');
  fs.writeFileSync(
    file,
    javascript(text).replace("import { test, expect } from '@playwright/test';", stub),
  );
  const result = spawnSync(process.execPath, [file], {encoding: 'utf8'});
  expect(result.status, result.stderr).toBe(0);
  const parsed: unknown = JSON.parse(result.stdout);
  expect(Array.isArray(parsed)).toBe(true);
  return Array.isArray(parsed) ? parsed : [];
}

function isRegExpArg(value: unknown): value is {regexp: string} {
  return (
    typeof value === 'object' &&
    value !== null &&
    'regexp' in value &&
    typeof value.regexp === 'string'
  );
}

describe('export --format playwright', () => {
  const text = exportRecording(hostileRecording, 'playwright');

  it('writes a file that parses, whatever the recorded strings hold', () => {
    const file = path.join(dir, 'hostile.spec.mjs');
    fs.writeFileSync(file, javascript(text));
    const check = spawnSync(process.execPath, ['--check', file], {encoding: 'utf8'});
    expect(check.status, `${check.stderr}\n${text}`).toBe(0);
    // No raw line terminator from the data: every line is either code we wrote or a comment.
    expect(text).not.toMatch(/[\u2028\u2029]/);
    for (const line of text.split('\n')) {
      expect(line.includes(HOSTILE)).toBe(false);
    }
  });

  it('names each original call in a comment, in order', () => {
    const comments = text.split('\n').filter(line => /^\s*\/\/ #\d+ /.test(line));
    expect(comments.map(line => /#(\d+) (\w+)/.exec(line)?.slice(1).join(' '))).toEqual([
      '1 navigate_page',
      '2 click',
      '3 fill',
      '4 press_key',
      '5 wait_for',
      '6 evaluate_script',
      '7 take_snapshot',
      '8 press_key',
      '9 take_snapshot',
    ]);
  });

  it('hands every recorded value to Playwright exactly as recorded', () => {
    const calls = runWithStub(text);
    expect(calls).toContainEqual(['page.goto', HOSTILE]);
    expect(calls).toContainEqual(['page.getByRole', 'button', {name: HOSTILE, exact: true}]);
    expect(calls).toContainEqual(['page.keyboard.press', HOSTILE]);
    expect(calls).toContainEqual(['page.getByText', HOSTILE]);
    expect(calls).toContainEqual(['page.evaluate', `(\n() => ${JSON.stringify(HOSTILE)}\n)`]);
    expect(calls).toContainEqual(['expect.toEqual', {[HOSTILE]: [HOSTILE]}]);
    expect(calls).toContainEqual(['expect.toHaveURL', `https://x.test/${HOSTILE}`]);
    expect(calls).toContainEqual(['page.getByRole', 'heading', {name: HOSTILE, exact: true}]);
    expect(calls).toContainEqual(['expect.toHaveText', `${HOSTILE}!`.replace(/\s+/g, ' ')]);
    // The run of text is a regular expression that matches the text as the page holds it.
    const patterns = calls.flatMap(call =>
      Array.isArray(call) && call[0] === 'page.getByText' && isRegExpArg(call[1]) ? [call[1]] : [],
    );
    expect(patterns).toHaveLength(1);
    expect(patterns.every(arg => new RegExp(arg.regexp).test(`${HOSTILE}?`))).toBe(true);
  });
});

/** Two emulate calls (a viewport, then none) exported with the header's `flags`. */
function emulationsWithFlags(flags: Record<string, unknown>): string {
  const recording = recordingOf([
    {type: 'pagesChanged', pages: [{id: 1, url: 'https://x.test/', title: '', selected: true}]},
    ...callEvents('1', 'emulate', {pageId: 1, viewport: '500x400'}, 'ok'),
    ...callEvents('2', 'emulate', {pageId: 1, colorScheme: 'dark'}, 'ok'),
  ]);
  return exportRecording({...recording, header: {...recording.header, flags}}, 'playwright');
}

const sized = emulationsWithFlags({browser: {viewport: {width: 800, height: 600}}});

describe('the recorded viewport', () => {
  it("is the test's, and emulate without a viewport goes back to it", () => {
    expect(sized).toContain('test.use({ viewport: { width: 800, height: 600 } });');
    expect(sized).toContain('async ({ page, context, viewport }) => {');
    expect(sized).toContain('await page.setViewportSize({ width: 500, height: 400 });');
    expect(sized).toContain('if (viewport) await page.setViewportSize(viewport);');
  });

  it('is left to the config when the header has none, or none that checks', () => {
    for (const viewport of [undefined, {width: 1e300, height: 600}, {width: '800', height: 600}]) {
      expect(emulationsWithFlags({browser: {viewport}})).not.toContain('test.use(');
    }
  });
});

describe('hostile names', () => {
  const names = ['toString', 'constructor', '__proto__', 'hasOwnProperty'];
  const snapshot = (state: string): string =>
    [
      '## Latest page snapshot',
      '0 RootWebArea "constructor" url="https://x.test/"',
      ` 1 __proto__ "toString" ${state}`,
      ' 2 Iframe "__proto__"',
      '  3 RootWebArea "hasOwnProperty" url="https://y.test/"',
      `   4 button "constructor" ${state}`,
      `   5 combobox "__proto__" value=${state === 'expanded' ? '"toString"' : '""'}`,
      `   6 ${JSON.stringify(state === 'expanded' ? 'valueOf' : 'toString')}`,
    ].join('\n');
  const hostileElement = (param: string, uid: string, role: string, name: string) => ({
    param,
    uid,
    role,
    name,
    field: 'keys' as const,
    ancestry: [{role: 'Iframe', name: '__proto__'}],
    nth: 0,
  });
  const recording = recordingOf([
    {type: 'pagesChanged', pages: [{id: 1, url: 'https://x.test/', title: '', selected: true}]},
    ...callEvents('1', 'take_snapshot', {pageId: 1}, snapshot('collapsed')),
    ...callEvents('2', 'click', {pageId: 1, uid: '4'}, 'ok', [
      {
        type: 'callElements',
        callId: '2',
        elements: [hostileElement('uid', '4', 'button', 'constructor')],
      },
    ]),
    ...callEvents('3', 'fill', {pageId: 1, uid: '5', value: 'toString'}, 'ok', [
      {
        type: 'callElements',
        callId: '3',
        elements: [hostileElement('uid', '5', 'combobox', '__proto__')],
      },
    ]),
    ...callEvents('4', 'take_snapshot', {pageId: 1}, snapshot('expanded')),
    ...names.flatMap((tool, index) => callEvents(`t${index}`, tool, {[tool]: tool}, 'ok')),
  ]);
  const text = exportRecording(recording, 'playwright');

  it('are exported as data, in the frame they were in', () => {
    expect(text).toContain(
      'const frame1 = page.locator(\'iframe\').and(page.getByTitle("__proto__"',
    );
    expect(text).toContain(
      'await frame1.getByRole("button", { name: "constructor", exact: true }).first().click();',
    );
    expect(text).toContain('.pressSequentially("toString");');
    expect(text).toContain('toHaveValue("toString")');
    expect(text).toContain('frame1.getByText(/valueOf\\s*$/)');
    expect(text.match(/not exported: no tool of this version has that name/g)).toHaveLength(
      names.length,
    );
  });

  it('leave a file that type-checks with TypeScript in strict mode', () => {
    fs.mkdirSync(path.join(ROOT, 'scratch'), {recursive: true});
    const checkDir = fs.mkdtempSync(path.join(ROOT, 'scratch', 'export-tsc-'));
    try {
      fs.writeFileSync(path.join(checkDir, 'hostile.spec.ts'), text);
      fs.writeFileSync(
        path.join(checkDir, 'basic.spec.ts'),
        exportRecording(hostileRecording, 'playwright'),
      );
      fs.writeFileSync(path.join(checkDir, 'sized.spec.ts'), sized);
      writeStrictTsconfig(checkDir);
      const tsc = spawnSync(
        process.execPath,
        [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
        {cwd: checkDir, encoding: 'utf8'},
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    } finally {
      fs.rmSync(checkDir, {recursive: true, force: true});
    }
  });
});
