/**
 * No value from a page or a client can take the server down: a script result nested 7,000 deep,
 * a tools/call whose arguments nest 6,000 deep (a 12 KB body) or hold 200,000 keys (2 MB), WebMCP
 * tools with a schema and a result nested thousands deep, and a page whose URL and title are
 * megabytes long. Each call answers (a result with a marker, or a short error),
 * the recording and a UI's WebSocket stay readable, and another client keeps being served.
 *
 * Tests: src/shared/boundedValue.ts, src/core/mcp/ToolRunner.ts, src/core/mcp/callResult.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {beforeAll, describe, expect, it, vi} from 'vitest';
import {
  deeperMarker,
  nestsDeeperThan,
  REQUEST_VALUE_LIMIT,
  SHOWN_TITLE_CHARS,
  SHOWN_URL_CHARS,
  VALUE_DEPTH_LIMIT,
} from '../../../src/shared/boundedValue.js';
import {LOCK_WAIT_MS} from '../../../src/core/browser/lock.js';
import {parseRecordingText} from '../../../src/shared/recordingFile.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {openInspectorSocket, type InspectorSocket} from '../../helpers/inspectorSocket.js';
import {PROTOCOL_VERSION, rawRequest, rawClientSession} from '../../helpers/rawMcp.js';
import {boundUnder} from '../../helpers/loadFactor.js';

const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalWebmcp', '--webmcpTools'],
  clientName: 'hostile',
});
let other: Client;
let ui: InspectorSocket;
const MARKER = deeperMarker(VALUE_DEPTH_LIMIT);

beforeAll(async () => {
  other = await fx.engine.connect('bystander');
  ui = await openInspectorSocket(fx.engine);
});

/**
 * Another client is answered without waiting on the hostile call (a call stuck behind it would
 * wait out the lock wait; this machine answers well before: the bound grows with its load, kept
 * under the wait), the first still works, the UI still streams.
 */
const ANSWERED_WITHIN_MS = boundUnder(LOCK_WAIT_MS / 3, LOCK_WAIT_MS);

async function expectStillServing(): Promise<void> {
  const started = performance.now();
  const listed = await call(other, 'list_pages');
  expect(listed.isError, listed.text).toBe(false);
  expect(performance.now() - started).toBeLessThan(ANSWERED_WITHIN_MS);
  const own = await call(fx.client, 'list_pages');
  expect(own.isError, own.text).toBe(false);
  const last = fx.engine.engine.hub.nextSeq - 1;
  await waitFor(() => (ui.events.at(-1)?.seq ?? 0) >= last, 10_000, 'the UI stream');
  expect(ui.open).toBe(true);
}

/** How long another client's list_pages takes, started now (while a hostile request runs). */
async function timedListPages(): Promise<number> {
  const started = performance.now();
  const listed = await call(other, 'list_pages');
  expect(listed.isError, listed.text).toBe(false);
  return performance.now() - started;
}

/** The recording so far, flushed and parsed: every line readable. */
function recordedText(): string {
  const recorder = fx.engine.engine.recordings.recorder;
  if (recorder === undefined) {
    throw new Error('the test engine records');
  }
  recorder.flush();
  const text = fs.readFileSync(recorder.file, 'utf8');
  expect(parseRecordingText(text).skippedLines).toBe(0);
  return text;
}

function nestedArraySource(depth: number): string {
  return `() => { let v = []; for (let i = 1; i < ${depth}; i++) v = [v]; return v; }`;
}

describe('a value nested far deeper than any real one', () => {
  it('evaluate_script returning an array nested 7,000 deep answers with the JSON', async () => {
    const pageId = await fx.openPage('/index.html');
    const result = await call(fx.client, 'evaluate_script', {
      pageId,
      function: nestedArraySource(7_000),
    });
    expect(result.isError, result.text.slice(0, 300)).toBe(false);
    // The text carries the value itself; the structured result is cut with a marker.
    expect(result.text).toContain(`${'['.repeat(7_000)}${']'.repeat(7_000)}`);
    expect(JSON.stringify(result.result.structuredContent)).toContain(MARKER);
    await expectStillServing();
    expect(recordedText()).toContain(MARKER);
  });

  it('a tools/call whose arguments nest 6,000 deep gets a short error', async () => {
    const sessionId = await rawClientSession(fx.engine, 'deep-args');
    const deep = `${'{"a":'.repeat(6_000)}1${'}'.repeat(6_000)}`;
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_pages","arguments":{"x":${deep}}}}`;
    expect(body.length).toBeLessThan(40_000);
    const {status, messages} = await rawRequest(fx.engine, sessionId, body);
    expect(status).toBe(200);
    const text = JSON.stringify(messages);
    expect(text).toContain('isError');
    expect(text).toContain(`nest deeper than ${VALUE_DEPTH_LIMIT} levels`);
    await expectStillServing();
    expect(recordedText()).toContain(MARKER);
  });

  it('an initialize with capabilities nested 6,000 deep and a 100 KB name still serves', async () => {
    const deep = `${'{"a":'.repeat(6_000)}{}${'}'.repeat(6_000)}`;
    const name = 'n'.repeat(100_000);
    const sessionId = await rawClientSession(
      fx.engine,
      name,
      `{"protocolVersion":"${PROTOCOL_VERSION}","capabilities":{"experimental":{"x":${deep}}},"clientInfo":{"name":"${name}","version":"1"}}`,
    );
    const {messages} = await rawRequest(
      fx.engine,
      sessionId,
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_pages","arguments":{}}}',
    );
    expect(JSON.stringify(messages)).toContain('## Pages');
    await expectStillServing();
    // Its name rides in every event of its calls: cut, not 100 KB each time.
    const starts = ui.events.flatMap(({event}) =>
      event.type === 'toolCallStarted' && event.client.name.startsWith('nnn') ? [event] : [],
    );
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.every(event => event.client.name.length <= 201)).toBe(true);
  });

  it('WebMCP tools with a 200-deep schema and a 1,000-deep result are listed and run', async () => {
    const pageId = await fx.openPage('/webmcp/deep.html');
    const listed = await waitFor(async () => {
      const tools = await call(fx.client, 'list_webmcp_tools', {pageId});
      return tools.text.includes('deep_output') ? tools : undefined;
    });
    expect(listed.isError, listed.text.slice(0, 300)).toBe(false);
    // The schema is cut where it nests past the bound, for the agent, the UI and the recording.
    expect(listed.text).toContain('deep_schema');
    expect(listed.text).toContain(MARKER);
    // The selected page's tools follow as webmcp_ tools (the list changes a moment later).
    await waitFor(async () => {
      const {tools} = await fx.client.listTools();
      return tools.some(tool => tool.name === 'webmcp_deep_output');
    });
    const ran = await call(fx.client, 'execute_webmcp_tool', {pageId, toolName: 'deep_output'});
    expect(ran.isError, ran.text.slice(0, 300)).toBe(false);
    // Chromium hands the page's result over as JSON text: the agent gets it whole.
    expect(ran.text).toContain(`${'['.repeat(1_000)}${']'.repeat(1_000)}`);
    const direct = await call(fx.client, 'webmcp_deep_output', {});
    expect(direct.isError, direct.text.slice(0, 300)).toBe(false);
    await expectStillServing();
    recordedText();
    const uiTools = ui.events.flatMap(({event}) =>
      event.type === 'webmcpToolsChanged' ? event.tools : [],
    );
    expect(JSON.stringify(uiTools.filter(tool => tool.name === 'deep_schema'))).toContain(MARKER);
  });

  it('a tools/call with 200,000 argument keys (2 MB) is refused before anything parses it', async () => {
    const sessionId = await rawClientSession(fx.engine, 'wide-args');
    const keys = Array.from({length: 200_000}, (_, index) => `"k${index}":1`).join(',');
    const body = `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list_pages","arguments":{${keys}}}}`;
    expect(body.length).toBeLessThan(4 * 1024 * 1024);
    const bystander = timedListPages();
    const {status, messages} = await rawRequest(fx.engine, sessionId, body);
    // Parsed and walked, it kept every client waiting for seconds (an object's keys are slow).
    expect(status).toBe(413);
    expect(JSON.stringify(messages)).toContain(
      `Request holds more than ${REQUEST_VALUE_LIMIT} JSON values`,
    );
    // Answered while the hostile request was refused, not after it (the bound of its neighbours).
    expect(await bystander).toBeLessThan(ANSWERED_WITHIN_MS);
    await expectStillServing();
  });

  it("arguments of the inspector's own calls over the value bound are refused too", async () => {
    const reply = await fx.engine.engine.handleCommand({
      type: 'runTool',
      tool: 'list_pages',
      args: {x: Array.from({length: REQUEST_VALUE_LIMIT + 1}, () => 1)},
    });
    expect(JSON.stringify(reply)).toContain(
      `The arguments of list_pages hold more than ${REQUEST_VALUE_LIMIT} values; nothing ran.`,
    );
  });

  it("a page's URL and title of megabytes are cut in every page list and event", async () => {
    const pageId = await fx.openPage('/index.html');
    const firstSeq = fx.engine.engine.hub.nextSeq;
    await call(fx.client, 'evaluate_script', {
      pageId,
      function: `() => { history.pushState(null, '', '/' + 'u'.repeat(2_000_000)); document.title = 't'.repeat(3_000_000); return 1; }`,
    });
    const listed = await waitFor(async () => {
      const result = await call(other, 'list_pages');
      return result.text.includes('more characters]') ? result : undefined;
    });
    // Every reply with a page list (and every pagesChanged event) carried the 2 MB URL.
    expect(listed.text.length).toBeLessThan(SHOWN_URL_CHARS + SHOWN_TITLE_CHARS + 2_000);
    const line = listed.text.split('\n').find(text => text.startsWith(`${pageId}: `)) ?? '';
    const urlLength = fx.server.url('/').length + 2_000_000;
    expect(line).toContain(`u[… ${urlLength - SHOWN_URL_CHARS} more characters]`);
    const changes = fx.engine.engine.hub
      .range(firstSeq, 10_000)
      .flatMap(({event}) => (event.type === 'pagesChanged' ? event.pages : []));
    expect(changes.length).toBeGreaterThan(0);
    for (const page of changes) {
      expect(page.url.length).toBeLessThan(SHOWN_URL_CHARS + 40);
      expect(page.title.length).toBeLessThan(SHOWN_TITLE_CHARS + 40);
    }
    // The page itself keeps its whole URL (hold rules look at all of it).
    expect(fx.engine.engine.browser.pages.byId(pageId).url.length).toBeGreaterThan(2_000_000);
    await expectStillServing();
  });

  it("an exception no step of a call expected ends as that call's error; the next is served", async () => {
    const telemetry = fx.engine.engine.telemetry;
    // Outside the handler's own guard: the telemetry record after the handler ran.
    const record = vi.spyOn(telemetry, 'record').mockImplementationOnce(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    try {
      const failed = await call(fx.client, 'list_pages');
      expect(failed.isError).toBe(true);
      expect(failed.text).toBe(
        'Internal error in list_pages: Maximum call stack size exceeded. The server keeps running; retry the call, and if it fails again report it with the arguments that caused it.',
      );
    } finally {
      record.mockRestore();
    }
    await expectStillServing();
  });

  it('keeps the recording free of anything over the depth bound', () => {
    const text = recordedText();
    for (const line of text.split('\n').filter(Boolean)) {
      const value: unknown = JSON.parse(line);
      expect(nestsDeeperThan(value, VALUE_DEPTH_LIMIT + 20)).toBe(false);
    }
    expect(path.basename(fx.engine.engine.recordings.recorder?.file ?? '')).toMatch(/\.jsonl$/);
  });
});
