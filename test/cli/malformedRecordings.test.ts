/**
 * `export` and `replay` of recordings that parse but no recorder writes (hand-made or
 * damaged): a 200,000-deep argument or result, a start time no date holds, a navigation type the
 * tool never accepts, prototype names where a lookup happens. Each ends with one line on stderr
 * and exit code 2, never a stack trace; what a real recording may hold (a page's deep JSON in a
 * result text, tools this version does not know) is exported with a note instead.
 *
 * Tests: src/cli/exportCommand.ts, src/cli/replayCommand.ts, src/shared/recordingFile.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {runCli, type CliRun} from '../helpers/cliRun.js';

let dir = '';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-malformed-'));
});

afterAll(() => {
  fs.rmSync(dir, {recursive: true, force: true});
});

function cli(...args: string[]): Promise<CliRun> {
  return runCli(args, path.join(dir, 'config'), 60_000);
}

const CLIENT = '{"id":"c1","name":"agent","version":"1","transport":"http"}';
const HEADER = (startedAt: string): string =>
  `{"format":"mcp-browser-inspector-session","formatVersion":1,"appVersion":"test","startedAt":${startedAt},"flags":{}}`;

function started(seq: number, callId: string, tool: string, args: string): string {
  return `{"seq":${seq},"time":1700000000000,"event":{"type":"toolCallStarted","callId":"${callId}","tool":"${tool}","args":${args},"client":${CLIENT}}}`;
}

function ended(seq: number, callId: string, tool: string, result: string): string {
  return `{"seq":${seq},"time":1700000000001,"event":{"type":"toolCallEnded","callId":"${callId}","tool":"${tool}","status":"ok","durationMs":1,"result":${result}}}`;
}

/** A recording of one call (its start and end lines) after a header. */
function recordingFile(name: string, lines: string[], startedAt = '1700000000000'): string {
  const file = path.join(dir, `${name}.jsonl`);
  fs.writeFileSync(file, `${[HEADER(startedAt), ...lines].join('\n')}\n`);
  return file;
}

const DEEP = `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`;
const OK_RESULT = '{"text":"ok","images":[]}';

function expectOneLineRefusal(result: CliRun, message: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stdout).toBe('');
}

describe('a recording no recorder writes', () => {
  it('refuses a 200,000-deep argument, for export and replay', async () => {
    const file = recordingFile('deep-arg', [
      started(1, 'a', 'navigate_page', `{"url":"https://example.com/","x":${DEEP}}`),
      ended(2, 'a', 'navigate_page', OK_RESULT),
    ]);
    expectOneLineRefusal(
      await cli('export', file, '--format', 'playwright'),
      /line 2 nests deeper than 128 levels/,
    );
    expectOneLineRefusal(await cli('replay', file), /line 2 nests deeper than 128 levels/);
  });

  it('refuses a 200,000-deep result', async () => {
    const file = recordingFile('deep-result', [
      started(1, 'a', 'evaluate_script', '{"function":"() => 1"}'),
      ended(
        2,
        'a',
        'evaluate_script',
        `{"text":"x","images":[],"structuredContent":{"r":${DEEP}}}`,
      ),
    ]);
    expectOneLineRefusal(await cli('export', file), /line 3 nests deeper than 128 levels/);
  });

  it.each(['1e20', '1e300'])('refuses a start time no date can hold (%s)', async startedAt => {
    const file = recordingFile(`far-future-${startedAt}`, [], startedAt);
    expectOneLineRefusal(await cli('export', file), /not a recording header \(startedAt: /);
    expectOneLineRefusal(await cli('replay', file), /not a recording header \(startedAt: /);
  });

  it.each(['constructor', '__proto__', 'toString', 'teleport'])(
    'refuses a navigate_page of type %s',
    async type => {
      const file = recordingFile(`navigate-${type}`, [
        started(1, 'a', 'navigate_page', `{"type":"${type}","url":"https://example.com/"}`),
        ended(2, 'a', 'navigate_page', OK_RESULT),
      ]);
      expectOneLineRefusal(
        await cli('export', file),
        new RegExp(`call #1 navigate_page has type "${type}", which navigate_page never accepts`),
      );
    },
  );
});

describe('what a real recording may hold', () => {
  it('exports tools it does not know, prototype names included, as notes', async () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'webmcp_buy'];
    const file = recordingFile(
      'unknown-tools',
      names.flatMap((tool, index) => [
        started(2 * index + 1, `c${index}`, tool, '{"__proto__":{"x":1},"constructor":"y"}'),
        ended(2 * index + 2, `c${index}`, tool, OK_RESULT),
      ]),
    );
    const result = await cli('export', file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    for (const [index, tool] of names.entries()) {
      expect(result.stdout).toContain(`// #${index + 1} ${tool} `);
    }
    expect(
      result.stdout.match(/not exported: no tool of this version has that name/g),
    ).toHaveLength(names.length);
  });

  it("exports a script whose result text holds a page's 200,000-deep JSON with a note", async () => {
    const text = JSON.stringify(
      `Script ran on page and returned:\n\`\`\`json\n${'['.repeat(200_000)}${']'.repeat(200_000)}\n\`\`\``,
    );
    const file = recordingFile('deep-text', [
      started(1, 'a', 'evaluate_script', '{"function":"() => 1"}'),
      ended(2, 'a', 'evaluate_script', `{"text":${text},"images":[]}`),
    ]);
    const result = await cli('export', file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '(not exported: the recorded result nests deeper than 64 levels)',
    );
  });
});
