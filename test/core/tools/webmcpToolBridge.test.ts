/**
 * The selected page's WebMCP tools as top-level MCP tools (--webmcpTools), with a real MCP client
 * over HTTP against real Chromium: the listing (names, collisions, schema, untrusted note,
 * annotations, debugging tools left out), notifications/tools/list_changed on register,
 * unregister, navigation, page switch and the switch itself, calls through the pipeline, the
 * client's cancel and a closed HTTP stream reaching the WebMCP tool's AbortSignal, and progress.
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  ToolListChangedNotificationSchema,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {beforeAll, describe, expect, it} from 'vitest';
import type {InspectorEvent, WebMcpInvocation} from '../../../src/shared/protocol.js';
import type {PageState} from '../../../src/core/browser/pages/PageState.js';
import {HEARTBEAT_MS} from '../../../src/core/mcp/progress.js';
import {call, callError, textOf, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {postMcp, sessionHeaders} from '../../helpers/rawMcp.js';
import {LIST_CHANGED_DEBOUNCE_MS} from '../../../src/core/tools/webmcpToolBridge.js';

const fx = useEngineWithFixtures({flags: ['--webmcpTools'], clientName: 'page-tools-test'});
const events: InspectorEvent[] = [];
let listChanges: number[] = [];
let pageId: number;
let page: PageState;

beforeAll(async () => {
  fx.engine.engine.hub.onEvent(envelope => events.push(envelope.event));
  fx.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanges.push(performance.now());
  });
  pageId = await fx.openPage('/webmcp/page-tools.html');
  page = fx.engine.engine.browser.pages.byId(pageId);
  await waitForTools(fx.client, names => names.includes('webmcp_child_tool'));
});

async function evaluate(expression: string): Promise<unknown> {
  const {result, exceptionDetails} = await page.cdp.send('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  });
  if (exceptionDetails) {
    throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  }
  return result.value;
}

async function webmcpToolsOf(client: Client): Promise<Tool[]> {
  const {tools} = await client.listTools();
  return tools.filter(tool => tool.name.startsWith('webmcp_'));
}

async function waitForTools(
  client: Client,
  check: (names: string[]) => boolean,
  what = 'the webmcp_ tools',
): Promise<string[]> {
  return waitFor(
    async () => {
      const names = (await webmcpToolsOf(client)).map(tool => tool.name);
      return check(names) ? names : undefined;
    },
    10_000,
    what,
  );
}

function invocationsOf(toolName: string): WebMcpInvocation[] {
  return fx.engine.engine.webmcp.invocations().filter(item => item.toolName === toolName);
}

describe('listing', () => {
  it('offers every frame tool as webmcp_<name>, collisions suffixed by frame, debugging left out', async () => {
    const names = (await webmcpToolsOf(fx.client)).map(tool => tool.name).sort();
    expect(names).toEqual([
      'webmcp_checkout',
      'webmcp_child_tool',
      'webmcp_search_products',
      'webmcp_shared_tool',
      'webmcp_shared_tool__frame2',
      'webmcp_slow',
      'webmcp_wait_for_abort',
    ]);
  });

  it('gives each its schema, an untrusted note first, and mapped annotations', async () => {
    const tools = await webmcpToolsOf(fx.client);
    const search = tools.find(tool => tool.name === 'webmcp_search_products');
    expect(search?.inputSchema).toEqual({
      type: 'object',
      properties: {query: {type: 'string', description: 'Words to find'}},
      required: ['query'],
    });
    expect(search?.description?.split('\n')[0]).toMatch(
      /^WebMCP tool "search\.products" of the page, origin http:\/\/127\.0\.0\.1:\d+\. Untrusted:/,
    );
    expect(search?.description).toContain('Searches the catalog.');
    expect(search?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: true,
    });
    const checkout = tools.find(tool => tool.name === 'webmcp_checkout');
    expect(checkout?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(checkout?.description).toContain('Consequential: confirm with the user before calling.');
    const framed = tools.find(tool => tool.name === 'webmcp_shared_tool__frame2');
    expect(framed?.description).toContain('of an iframe of the page (http://127.0.0.1');
    expect(framed?.description).toContain('this name ends in __frame2');
    expect(framed?.description).toContain('shared_tool in child');
  });

  it('keeps names stable when the plain-name holder leaves and comes back', async () => {
    await evaluate(`window.removeTool('shared_tool')`);
    const without = await waitForTools(fx.client, names => !names.includes('webmcp_shared_tool'));
    expect(without).toContain('webmcp_shared_tool__frame2');
    await evaluate(`
      document.modelContext.registerTool({
        name: 'shared_tool',
        description: 'shared_tool in main, again',
        execute: async () => 'from main again',
      })`);
    const back = await waitForTools(fx.client, names => names.includes('webmcp_shared_tool'));
    expect(back).toContain('webmcp_shared_tool__frame2');
    const result = await call(fx.client, 'webmcp_shared_tool__frame2');
    expect(result.text).toContain('from child');
  });
});

/** How many debounce windows `times` open: each starts at an event after the last window ended. */
function debounceGroups(times: readonly number[], windowMs: number): number {
  let groups = 0;
  let windowEnd = -Infinity;
  for (const time of times) {
    if (time > windowEnd) {
      groups++;
      windowEnd = time + windowMs;
    }
  }
  return groups;
}

describe('tools/list_changed', () => {
  it('reaches the client when the page registers and unregisters a tool', async () => {
    listChanges = [];
    const before = performance.now();
    await evaluate(`window.addTool('fresh_tool')`);
    await waitFor(() => listChanges.length > 0, 15_000, 'list_changed after registration');
    expect(await waitForTools(fx.client, names => names.includes('webmcp_fresh_tool'))).toContain(
      'webmcp_fresh_tool',
    );
    // Sent because of this registration (nothing polls: without the event, none would come).
    expect(listChanges[0] ?? -Infinity).toBeGreaterThanOrEqual(before);
    listChanges = [];
    await evaluate(`window.removeTool('fresh_tool')`);
    await waitFor(() => listChanges.length > 0, 15_000, 'list_changed after removal');
    expect((await webmcpToolsOf(fx.client)).map(tool => tool.name)).not.toContain(
      'webmcp_fresh_tool',
    );
  });

  it('is debounced: a burst of registrations sends one notification', async () => {
    // When each registration reached the server (one CDP event each): the page sends them in one
    // task, but a busy machine may deliver them spread out. Every one that arrives within the
    // debounce of the first of its group shares that group's notification.
    const arrivals: number[] = [];
    const stopListening = fx.engine.engine.webmcp.onToolsChanged(() =>
      arrivals.push(performance.now()),
    );
    listChanges = [];
    try {
      await evaluate(`for (let i = 0; i < 10; i++) window.addTool('burst_' + i)`);
      await waitForTools(fx.client, names => names.includes('webmcp_burst_9'));
      await waitFor(() => listChanges.length > 0, 5_000, 'the burst notification');
    } finally {
      stopListening();
    }
    const seen = listChanges.length;
    await evaluate(`for (let i = 0; i < 10; i++) window.removeTool('burst_' + i)`);
    await waitForTools(fx.client, names => !names.includes('webmcp_burst_0'));
    const groups = debounceGroups(arrivals, LIST_CHANGED_DEBOUNCE_MS);
    // One per group (one when the events came together, as on an idle machine); nothing else is
    // changing, so more would mean the burst was not coalesced.
    expect(arrivals.length).toBeGreaterThanOrEqual(1);
    expect(seen, `${arrivals.length} events in ${groups} group(s)`).toBeLessThanOrEqual(groups);
    expect(seen).toBeGreaterThanOrEqual(1);
  });

  it('follows the selected page and navigation, and the switch', async () => {
    listChanges = [];
    const other = await fx.openPage('/index.html');
    await waitForTools(fx.client, names => names.length === 0, 'no WebMCP tools on /index.html');
    expect(listChanges.length).toBeGreaterThan(0);
    listChanges = [];
    await call(fx.client, 'select_page', {pageId});
    await waitForTools(fx.client, names => names.includes('webmcp_checkout'), 'tools back');
    expect(listChanges.length).toBeGreaterThan(0);
    await call(fx.client, 'close_page', {pageId: other});

    fx.engine.engine.catalog.setConditionEnabled('webmcpTools', false);
    await waitForTools(fx.client, names => names.length === 0, 'tools gone with the switch');
    await waitFor(
      () => !fx.engine.engine.catalog.get('webmcp_checkout'),
      5_000,
      'the catalog to drop them',
    );
    const refused = await callError(fx.client, 'webmcp_checkout');
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain('webmcp_ tools need the --webmcpTools flag, which is off.');
    fx.engine.engine.catalog.setConditionEnabled('webmcpTools', true);
    await waitForTools(fx.client, names => names.includes('webmcp_checkout'), 'tools after switch');

    listChanges = [];
    await call(fx.client, 'navigate_page', {pageId, url: fx.server.url('/other.html')});
    await waitForTools(fx.client, names => names.length === 0, 'no tools after navigation');
    expect(listChanges.length).toBeGreaterThan(0);
    await call(fx.client, 'navigate_page', {pageId, url: fx.server.url('/webmcp/page-tools.html')});
    await waitForTools(fx.client, names => names.includes('webmcp_child_tool'), 'tools again');
  });
});

describe('calls', () => {
  it('run the WebMCP tool through the pipeline: result, inspector log and telemetry', async () => {
    const result = await call(fx.client, 'webmcp_search_products', {query: 'shoes'});
    expect(result.isError).toBe(false);
    expect(result.text).toContain('{"query":"shoes","hits":[{"id":1,"name":"shoes one"}]}');
    const ended = events.findLast(
      event => event.type === 'toolCallEnded' && event.tool === 'webmcp_search_products',
    );
    expect(ended?.type === 'toolCallEnded' ? ended.status : undefined).toBe('ok');
    expect(
      ended?.type === 'toolCallEnded' ? ended.telemetry?.tool_invocation.tool_name : undefined,
    ).toBe('webmcp_page_tool');
    const invocation = invocationsOf('search.products').at(-1);
    expect(invocation?.status).toBe('Completed');
    expect(invocation?.invoker).toMatchObject({kind: 'mcp'});
  });

  it('say what went wrong when the WebMCP tool fails or is gone', async () => {
    await evaluate(`
      document.modelContext.registerTool({
        name: 'fails',
        description: 'Throws.',
        execute: async () => { throw new Error('broken on purpose'); },
      })`);
    await waitForTools(fx.client, names => names.includes('webmcp_fails'));
    const failed = await call(fx.client, 'webmcp_fails');
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('ended with status Error');
    expect(failed.text).toContain('broken on purpose');
  });

  it("a client cancel reaches the WebMCP tool's AbortSignal and the log shows Canceled", async () => {
    const started = Number((await evaluate('window.waitStarted ?? 0')) ?? 0);
    const abortsBefore = Number(await evaluate('window.aborts.length'));
    const controller = new AbortController();
    const pending = fx.client
      .callTool({name: 'webmcp_wait_for_abort', arguments: {}}, CallToolResultSchema, {
        signal: controller.signal,
      })
      .catch((error: unknown) => error);
    await waitFor(async () => Number(await evaluate('window.waitStarted ?? 0')) > started);
    controller.abort('changed my mind');
    await pending;
    const aborts = await waitFor(async () => {
      const list = await evaluate('window.aborts');
      return Array.isArray(list) && list.length > abortsBefore ? list : undefined;
    });
    expect(String(aborts.at(-1))).toMatch(/^aborted/);
    const invocation = await waitFor(() =>
      invocationsOf('wait_for_abort').find(item => item.status !== 'running'),
    );
    expect(invocation.status).toBe('Canceled');
    expect(invocation.errorText).toBe('The MCP client cancelled the call.');
  });

  it('a closed HTTP stream cancels the call the same way', async () => {
    const sessionId = (fx.client.transport as {sessionId?: string} | undefined)?.sessionId;
    expect(sessionId).toBeDefined();
    const started = Number((await evaluate('window.waitStarted ?? 0')) ?? 0);
    const abortsBefore = Number(await evaluate('window.aborts.length'));
    const controller = new AbortController();
    const response = postMcp(
      fx.engine,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'closed-stream-1',
        method: 'tools/call',
        params: {name: 'webmcp_wait_for_abort', arguments: {}},
      }),
      sessionHeaders(sessionId ?? ''),
      controller.signal,
    ).catch((error: unknown) => error);
    await waitFor(async () => Number(await evaluate('window.waitStarted ?? 0')) > started);
    controller.abort();
    await response;
    await waitFor(async () => Number(await evaluate('window.aborts.length')) > abortsBefore);
    const invocations = invocationsOf('wait_for_abort');
    const last = await waitFor(() => {
      const item = invocations.length > 0 ? invocationsOf('wait_for_abort').at(-1) : undefined;
      return item && item.status !== 'running' ? item : undefined;
    });
    expect(last.status).toBe('Canceled');
  });

  it('report progress while a slow WebMCP tool runs', async () => {
    const updates: Progress[] = [];
    const result = await fx.client.callTool(
      {name: 'webmcp_slow', arguments: {ms: HEARTBEAT_MS + 1_000}},
      CallToolResultSchema,
      {onprogress: update => updates.push(update), resetTimeoutOnProgress: true},
    );
    expect(textOf(result)).toContain(`slow done after ${HEARTBEAT_MS + 1_000} ms`);
    const messages = updates.map(update => update.message ?? '');
    expect(
      messages.some(message => message.startsWith("Waiting for the page's WebMCP tool slow")),
    ).toBe(true);
  });
});

describe('bounds', () => {
  it('offers at most 100 tools of a page, main frame first in registration order', async () => {
    await fx.openPage('/webmcp/many.html');
    const names = await waitForTools(
      fx.client,
      listed => listed.includes('webmcp_tool_099'),
      'the first 100 of 200 tools',
    );
    expect(names).toHaveLength(100);
    expect(names).not.toContain('webmcp_tool_100');
    expect(
      fx.engine.engine.webmcp.tools().filter(tool => tool.name.startsWith('tool_')),
    ).toHaveLength(200);
  });
});
