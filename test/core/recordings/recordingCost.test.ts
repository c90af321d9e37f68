/**
 * What recording and the inspector cost follows what happened: a page registering 600 WebMCP
 * tools one every 4 ms records each tool about once (not the whole list each time), and a UI still
 * rebuilds the right list; a WebMCP tool returning 12 MB goes to the agent whole, once, while the
 * event store, the recording and a UI connecting later get a preview with the full size marked.
 *
 * Tests: src/core/recordings/Recorder.ts, src/core/recordings/pageActivity.ts
 */
import fs from 'node:fs';
import {beforeAll, describe, expect, it} from 'vitest';
import {RESULT_TEXT_PREVIEW_CHARS} from '../../../src/shared/boundedValue.js';
import type {EventEnvelope, WebMcpToolInfo} from '../../../src/shared/protocol.js';
import {parseRecordingText} from '../../../src/shared/recordingFile.js';
import {applyWebMcpToolsChanged} from '../../../src/shared/webmcpToolsChange.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {openInspectorSocket, type InspectorSocket} from '../../helpers/inspectorSocket.js';
import {scaled} from '../../helpers/loadFactor.js';

/**
 * Far past the preview (256 KB), and past what the store and a later UI may take (8 MB below),
 * so a store or a recording holding the whole text fails the test; not so large that making and
 * moving it takes most of the test's time.
 */
const BIG_CHARS = 12 * 1024 * 1024;
const TOOLS = 600;

const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalWebmcp'],
  clientName: 'cost',
  routes: server => {
    const html = (body: string): string =>
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cost</title></head><body><script>${body}</script></body></html>`;
    server.route('/many-tools.html', (_request, response) => {
      response.writeHead(200, {'Content-Type': 'text/html'}).end(
        html(`let i = 0;
const timer = setInterval(() => {
  const n = i++;
  document.modelContext.registerTool({
    name: 'tool_' + n,
    description: 'Tool number ' + n + ' does one thing well, with some words to read.',
    inputSchema: {type: 'object', properties: {value: {type: 'string', description: 'The value for tool ' + n}}},
    annotations: {readOnlyHint: true},
    execute: async () => n,
  });
  if (i >= ${TOOLS}) { clearInterval(timer); document.title = 'done'; }
}, 4);`),
      );
    });
    server.route('/big-tool.html', (_request, response) => {
      response.writeHead(200, {'Content-Type': 'text/html'}).end(
        html(`document.modelContext.registerTool({
  name: 'big', description: 'Returns 12 MB.', annotations: {readOnlyHint: true},
  execute: async () => 'x'.repeat(${BIG_CHARS}),
});`),
      );
    });
  },
});
let ui: InspectorSocket;

beforeAll(async () => {
  ui = await openInspectorSocket(fx.engine);
});

function recordingBytes(): number {
  const recorder = fx.engine.engine.recordings.recorder;
  recorder?.flush();
  return recorder === undefined ? 0 : fs.statSync(recorder.file).size;
}

function foldedTools(events: readonly EventEnvelope[], pageId: number): WebMcpToolInfo[] {
  let tools: WebMcpToolInfo[] = [];
  for (const {event} of events) {
    if (event.type === 'webmcpToolsChanged' && event.pageId === pageId) {
      tools = applyWebMcpToolsChanged(tools, event);
    }
  }
  return tools;
}

async function uiCaughtUp(socket: InspectorSocket): Promise<void> {
  const last = fx.engine.engine.hub.nextSeq - 1;
  await waitFor(() => (socket.events.at(-1)?.seq ?? 0) >= last, 20_000, 'the UI stream');
}

describe('a page registering 600 tools, one every 4 ms', () => {
  it('records each tool about once, and a UI rebuilds the same list', async () => {
    const before = recordingBytes();
    const pageId = await fx.openPage('/many-tools.html');
    const page = fx.engine.engine.browser.pages.byId(pageId);
    await waitFor(
      async () =>
        (
          await call(fx.client, 'evaluate_script', {pageId, function: '() => document.title'})
        ).text.includes('"done"'),
      30_000,
      'the 600 tools',
    );
    const tools = await waitFor(async () => {
      const all = await fx.engine.engine.webmcp.toolsOf(page);
      return all.length === TOOLS ? all : undefined;
    });
    await uiCaughtUp(ui);
    const definitions = JSON.stringify(tools).length;
    const grown = recordingBytes() - before;
    // The whole list each time cost ~30 MB here; each tool once costs a few times its size.
    expect(grown).toBeLessThan(5 * definitions);
    expect(foldedTools(ui.events, pageId)).toEqual(tools);
    expect(fx.engine.engine.state().webmcpTools.filter(tool => tool.pageId === pageId)).toEqual(
      tools,
    );
    // A UI connecting now, and the recording, rebuild the same list.
    const later = await openInspectorSocket(fx.engine);
    await uiCaughtUp(later);
    expect(foldedTools(later.events, pageId)).toEqual(tools);
    later.close();
    const recorded = parseRecordingText(
      fs.readFileSync(fx.engine.engine.recordings.recorder?.file ?? '', 'utf8'),
    );
    expect(foldedTools(recorded.events, pageId)).toEqual(tools);
    // Closing the page empties its list everywhere.
    await call(fx.client, 'close_page', {pageId});
    await uiCaughtUp(ui);
    expect(foldedTools(ui.events, pageId)).toEqual([]);
  });
});

describe('a WebMCP tool returning 12 MB', () => {
  it('goes to the agent whole; the store, the recording and a later UI get a marked preview', async () => {
    const pageId = await fx.openPage('/big-tool.html');
    await waitFor(async () =>
      (await call(fx.client, 'list_webmcp_tools', {pageId})).text.includes('big'),
    );
    const before = recordingBytes();
    // Making 12 MB in the page takes seconds on a busy machine: more than the default 30 s limit
    // there, so the limit grows with the load (what is tested is the size, not the speed).
    const ran = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'big',
      timeout: scaled(30_000),
    });
    expect(ran.isError, ran.text.slice(0, 200)).toBe(false);
    expect(ran.text.length).toBeGreaterThan(BIG_CHARS);
    await call(fx.client, 'close_page', {pageId});
    await uiCaughtUp(ui);
    const ended = ui.events.findLast(
      ({event}) => event.type === 'toolCallEnded' && event.tool === 'execute_webmcp_tool',
    )?.event;
    if (ended?.type !== 'toolCallEnded') {
      throw new Error('no toolCallEnded for the call');
    }
    expect(ended.result.textChars).toBe(ran.text.length);
    expect(ended.result.text.length).toBeLessThan(RESULT_TEXT_PREVIEW_CHARS + 100);
    expect(ended.result.text).toMatch(/\[… \d+ more characters\]$/);
    expect(recordingBytes() - before).toBeLessThan(2 * 1024 * 1024);
    const later = await openInspectorSocket(fx.engine);
    await uiCaughtUp(later);
    // Everything the store holds, this call's preview included, in a few MB, not 12 MB again.
    expect(later.receivedChars).toBeLessThan(8 * 1024 * 1024);
    later.close();
  });
});
