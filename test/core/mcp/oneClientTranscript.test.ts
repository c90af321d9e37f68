/**
 * One client alone must see exactly the replies it saw before selection became per client: a fixed
 * sequence of calls (pages opened, listed, selected, navigated, closed by the client and by the
 * person; snapshots, scripts, error cases) against a transcript recorded before that change, with
 * the volatile parts (the fixture server's port) normalised. Real MCP client over HTTP, real
 * Chromium; one engine with pageId routing (the default) and one without (the selected page).
 *
 * `UPDATE_TRANSCRIPT=1` writes the transcript instead of comparing (only ever done on the code
 * before the change; the test states every deliberate difference below).
 *
 * Tests: src/core/mcp/ToolRunner.ts, src/core/mcp/render.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call, startEngine, type TestEngine} from '../../helpers/engine.js';
import {FixtureServer} from '../../helpers/fixtureServer.js';

const TRANSCRIPT = path.resolve(
  import.meta.dirname,
  '../../fixtures/transcripts/one-client-replies.json',
);

interface TranscriptEntry {
  tool: string;
  args: Record<string, unknown>;
  isError: boolean;
  text: string;
  structuredContent?: unknown;
}

/** A call's arguments may name a page by the URL it was opened with: `{$page: '?a'}`. */
type Step =
  {tool: string; args?: Record<string, unknown>} | {personCloses: string} | {note: string};

const OPEN = (query: string, extra: Record<string, unknown> = {}): Step => ({
  tool: 'new_page',
  args: {url: {$url: `/index.html?${query}`}, ...extra},
});

/** Page ids are named by the query of the URL the page was opened with. */
const ROUTED: Step[] = [
  {tool: 'list_pages'},
  OPEN('a'),
  OPEN('b', {background: true}),
  {tool: 'list_pages'},
  {tool: 'select_page', args: {pageId: {$page: 'a'}}},
  {tool: 'take_snapshot', args: {pageId: {$page: 'a'}}},
  {tool: 'evaluate_script', args: {pageId: {$page: 'b'}, function: '() => location.search'}},
  {tool: 'evaluate_script', args: {function: '() => 1'}},
  {tool: 'take_snapshot'},
  {
    tool: 'evaluate_script',
    args: {pageId: {$page: 'a'}, function: '() => { throw new Error("boom"); }'},
  },
  {tool: 'navigate_page', args: {pageId: {$page: 'a'}, url: {$url: '/other.html'}}},
  {tool: 'navigate_page', args: {pageId: {$page: 'a'}, type: 'back'}},
  {tool: 'navigate_page', args: {pageId: {$page: 'a'}, type: 'forward'}},
  {tool: 'navigate_page', args: {pageId: {$page: 'a'}, type: 'reload'}},
  {tool: 'navigate_page', args: {pageId: {$page: 'a'}}},
  {tool: 'select_page', args: {pageId: 9999}},
  {tool: 'take_snapshot', args: {pageId: 9999}},
  {tool: 'close_page', args: {pageId: 9999}},
  {tool: 'new_page', args: {url: 'not a url'}},
  {tool: 'list_pages', args: {bogus: 1}},
  // The selected page closed by the client itself: the note, and the fallback selection.
  {tool: 'close_page', args: {pageId: {$page: 'a'}}},
  {tool: 'list_pages'},
  {tool: 'evaluate_script', args: {pageId: {$page: 'a'}, function: '() => 1'}},
  OPEN('c'),
  OPEN('iso', {isolatedContext: 'alice'}),
  {tool: 'list_pages'},
  // The selected page closed by the person (in the browser): the note once, then not again.
  {personCloses: 'iso'},
  {tool: 'list_pages'},
  {tool: 'list_pages'},
  {tool: 'close_page', args: {pageId: {$page: 'b'}}},
  {tool: 'close_page', args: {pageId: {$page: 'c'}}},
  {tool: 'close_page', args: {pageId: 1}},
  {tool: 'list_pages'},
];

/** Without pageId routing: calls act on the selected page. */
const SELECTED: Step[] = [
  {tool: 'list_pages'},
  {tool: 'evaluate_script', args: {function: '() => location.href'}},
  OPEN('a'),
  OPEN('b'),
  {tool: 'evaluate_script', args: {function: '() => location.search'}},
  {tool: 'take_snapshot'},
  {tool: 'select_page', args: {pageId: {$page: 'a'}}},
  {tool: 'evaluate_script', args: {function: '() => location.search'}},
  {tool: 'navigate_page', args: {url: {$url: '/other.html?a2'}}},
  {tool: 'evaluate_script', args: {function: '() => location.search'}},
  {tool: 'take_snapshot', args: {pageId: {$page: 'b'}}},
  {tool: 'close_page', args: {pageId: {$page: 'a'}}},
  {tool: 'evaluate_script', args: {function: '() => location.href'}},
  {tool: 'select_page', args: {pageId: {$page: 'b'}}},
  {personCloses: 'b'},
  {tool: 'evaluate_script', args: {function: '() => location.href'}},
  {tool: 'list_pages'},
  {tool: 'take_snapshot'},
  {tool: 'close_page', args: {pageId: 1}},
];

const TRANSCRIPT_RUNS: {name: string; flags: string[]; steps: Step[]}[] = [
  {name: 'pageId routing', flags: [], steps: ROUTED},
  {name: 'selected page', flags: ['--no-pageIdRouting'], steps: SELECTED},
];

/** The fixture server's port changes from run to run. */
function normalise(text: string, origin: string): string {
  return text.split(origin).join('http://127.0.0.1:PORT');
}

function normaliseValue(value: unknown, origin: string): unknown {
  return value === undefined ? undefined : JSON.parse(normalise(JSON.stringify(value), origin));
}

interface RunContext {
  engine: TestEngine;
  client: Client;
  server: FixtureServer;
  /** Page ids by the query they were opened with. */
  ids: Map<string, number>;
}

function resolveArgs(args: Record<string, unknown>, run: RunContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value !== null && typeof value === 'object' && '$url' in value) {
      out[key] = run.server.url(String(value.$url));
    } else if (value !== null && typeof value === 'object' && '$page' in value) {
      const id = run.ids.get(String(value.$page));
      if (id === undefined) {
        throw new Error(`No page was opened with ?${String(value.$page)}`);
      }
      out[key] = id;
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Runs the steps and returns one entry per call, normalised. */
async function runTranscript(steps: Step[], run: RunContext): Promise<TranscriptEntry[]> {
  const entries: TranscriptEntry[] = [];
  for (const step of steps) {
    if ('note' in step) {
      continue;
    }
    if ('personCloses' in step) {
      const id = run.ids.get(step.personCloses);
      if (id === undefined) {
        throw new Error(`No page ?${step.personCloses}`);
      }
      const state = run.engine.engine.browser.pages.list().find(page => page.id === id);
      await state?.page.close();
      continue;
    }
    const args = resolveArgs(step.args ?? {}, run);
    const {text, isError, result} = await call(run.client, step.tool, args);
    if (step.tool === 'new_page' && !isError) {
      const query = /\?([a-z]+)/.exec(String(args.url))?.[1];
      const line = text.split('\n').find(l => l.includes(' [selected]'));
      const id = line === undefined ? undefined : Number(line.split(':')[0]);
      if (query !== undefined && id !== undefined) {
        run.ids.set(query, id);
      }
    }
    const origin = run.server.origin;
    entries.push({
      tool: step.tool,
      args: step.args ?? {},
      isError,
      text: normalise(text, origin),
      ...(result.structuredContent === undefined
        ? {}
        : {structuredContent: normaliseValue(result.structuredContent, origin)}),
    });
  }
  return entries;
}

/**
 * What changed on purpose since the transcript was recorded: new_page's reply starts with the
 * page it opened (its first line); everything after that line is as before.
 */
function expectedNow(entry: TranscriptEntry): TranscriptEntry {
  if (entry.tool !== 'new_page' || entry.isError) {
    return entry;
  }
  const opened = /^(\d+): .* \[selected\]/m.exec(entry.text)?.[1];
  expect(opened, `the recorded new_page reply marks its page:\n${entry.text}`).toBeDefined();
  return {...entry, text: `Opened page ${opened}.\n${entry.text}`};
}

const recorded: Record<string, TranscriptEntry[]> = {};
const update = process.env.UPDATE_TRANSCRIPT === '1';

describe('one client: every reply as before', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await new FixtureServer().start();
  });
  afterAll(async () => {
    await server.stop();
    if (update) {
      fs.mkdirSync(path.dirname(TRANSCRIPT), {recursive: true});
      fs.writeFileSync(TRANSCRIPT, `${JSON.stringify(recorded, null, 2)}\n`);
    }
  });

  for (const {name, flags, steps} of TRANSCRIPT_RUNS) {
    it(`${name}: replies match the recorded transcript`, async () => {
      const engine = await startEngine(flags);
      try {
        const client = await engine.connect('transcript-client');
        const entries = await runTranscript(steps, {engine, client, server, ids: new Map()});
        if (update) {
          recorded[name] = entries;
          return;
        }
        const transcript = JSON.parse(fs.readFileSync(TRANSCRIPT, 'utf8')) as Record<
          string,
          TranscriptEntry[]
        >;
        const expected = (transcript[name] ?? []).map(expectedNow);
        expect(entries.length).toBe(expected.length);
        for (const [index, entry] of entries.entries()) {
          expect(entry, `call ${index + 1}: ${entry.tool} ${JSON.stringify(entry.args)}`).toEqual(
            expected[index],
          );
        }
      } finally {
        await engine.stop();
      }
    });
  }
});
