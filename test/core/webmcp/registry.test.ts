/**
 * The WebMCP registry and invocations against real Chromium: tools added and removed as the page
 * does it (late registration, abort signal, removed form, navigation), frames and out-of-process
 * iframes, every invocation status, cancel, and invocations started by the page itself.
 *
 * Tests: src/core/webmcp/PageWebMcp.ts, src/core/webmcp/WebMcpService.ts
 */
import {beforeAll, describe, expect, it} from 'vitest';
import {z} from 'zod';
import type {
  InspectorEvent,
  WebMcpInvocation,
  WebMcpToolInfo,
} from '../../../src/shared/protocol.js';
import type {PageState} from '../../../src/core/browser/pages/PageState.js';
import {applyWebMcpToolsChanged} from '../../../src/shared/webmcpToolsChange.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {scaled} from '../../helpers/loadFactor.js';

/** Answers for the requests a tool holds the page with, in arrival order. */
const held: (() => void)[] = [];
const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalWebmcp'],
  clientName: 'registry-test',
  routes: server => {
    server.route('/webmcp/hold', (_request, response) => {
      held.push(() => response.writeHead(200, {'Content-Type': 'text/plain'}).end('go'));
    });
  },
});
const events: InspectorEvent[] = [];

beforeAll(() => {
  fx.engine.engine.hub.onEvent(envelope => events.push(envelope.event));
});

async function open(path: string): Promise<PageState> {
  return fx.engine.engine.browser.pages.byId(await fx.openPage(path));
}

async function evaluate(page: PageState, expression: string): Promise<unknown> {
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

function names(tools: readonly WebMcpToolInfo[]): string[] {
  return tools.map(tool => tool.name);
}

async function toolsOf(page: PageState): Promise<WebMcpToolInfo[]> {
  return fx.engine.engine.webmcp.toolsOf(page);
}

/** The page's tools as a UI knows them from the events (whole lists and changes folded). */
function lastToolsEvent(pageId: number): WebMcpToolInfo[] | undefined {
  let tools: WebMcpToolInfo[] | undefined;
  for (const event of events) {
    if (event.type === 'webmcpToolsChanged' && event.pageId === pageId) {
      tools = applyWebMcpToolsChanged(tools ?? [], event);
    }
  }
  return tools;
}

function invocationEvents(invocationId: string): WebMcpInvocation[] {
  return events.flatMap(event =>
    event.type === 'webmcpInvocation' && event.invocation.invocationId === invocationId
      ? [event.invocation]
      : [],
  );
}

async function run(
  page: PageState,
  toolName: string,
  input: Record<string, unknown> = {},
  options: {timeoutMs?: number; frameId?: string; signal?: AbortSignal} = {},
): Promise<WebMcpInvocation> {
  const outcome = await fx.engine.engine.webmcp.execute({
    page,
    toolName,
    input,
    invoker: {kind: 'inspector'},
    timeoutMs: options.timeoutMs ?? 10_000,
    frameId: options.frameId,
    signal: options.signal,
  });
  return outcome.invocation;
}

describe('registry', () => {
  it('lists imperative tools with annotations, frame, origin and registration location', async () => {
    const page = await open('/webmcp/imperative.html');
    const tools = await toolsOf(page);
    expect(names(tools)).toEqual(
      expect.arrayContaining([
        'echo',
        'add',
        'thrower',
        'slow',
        'busy',
        'self_destruct',
        'buy_now',
      ]),
    );
    const echo = tools.find(tool => tool.name === 'echo');
    expect(echo).toMatchObject({
      pageId: page.id,
      frameId: page.mainFrameId,
      frameUrl: fx.server.url('/webmcp/imperative.html'),
      origin: fx.server.origin,
      description: 'Echoes the text back.',
      declarative: false,
      mainFrame: true,
      annotations: {readOnly: true, untrustedContent: true},
      inputSchema: {type: 'object', required: ['text']},
    });
    expect(echo?.location?.url).toBe(fx.server.url('/webmcp/imperative.js'));
    expect(echo?.location?.line).toBeGreaterThan(0);
    expect(tools.find(tool => tool.name === 'buy_now')?.annotations.consequential).toBe(true);
    // The hub carries the same list for the inspector, and so do the commands and the state.
    await waitFor(() => lastToolsEvent(page.id)?.some(tool => tool.name === 'echo'));
    const listed = await fx.engine.engine.handleCommand({type: 'webmcpListTools', pageId: page.id});
    expect(listed.ok && Array.isArray(listed.value) ? listed.value.length : 0).toBe(tools.length);
    expect(fx.engine.engine.state().webmcpTools.filter(tool => tool.pageId === page.id)).toEqual(
      tools,
    );
    const highlighted = await fx.engine.engine.handleCommand({
      type: 'webmcpHighlightForm',
      pageId: page.id,
      frameId: page.mainFrameId,
      toolName: 'echo',
    });
    expect(highlighted).toEqual({
      ok: false,
      error:
        'Tool echo was registered by script, not by a <form>, so there is no form to highlight.',
    });
  });

  it('adds a tool registered late and removes one whose signal aborts', async () => {
    const page = await open('/webmcp/imperative.html?late');
    await waitFor(
      async () => names(await toolsOf(page)).includes('late_tool'),
      10_000,
      'late_tool',
    );
    await evaluate(page, "window.addTool('on_demand')");
    await waitFor(async () => names(await toolsOf(page)).includes('on_demand'));
    await evaluate(page, "window.unregisterTool('on_demand')");
    await waitFor(async () => !names(await toolsOf(page)).includes('on_demand'));
    await waitFor(() => {
      const published = lastToolsEvent(page.id);
      return published !== undefined && !names(published).includes('on_demand');
    });
  });

  it('drops a tool that unregisters itself while it runs', async () => {
    const page = await open('/webmcp/imperative.html?self');
    const result = await run(page, 'self_destruct');
    expect(result).toMatchObject({status: 'Completed', output: '"gone"'});
    await waitFor(async () => !names(await toolsOf(page)).includes('self_destruct'));
  });

  it('lists declarative tools with their form and drops one whose form is removed', async () => {
    const page = await open('/webmcp/declarative.html');
    const tools = await toolsOf(page);
    const reserve = tools.find(tool => tool.name === 'reserve_table');
    expect(reserve).toMatchObject({
      declarative: true,
      annotations: {autosubmit: true},
      inputSchema: {
        type: 'object',
        properties: {name: {type: 'string', description: 'Who the table is for'}},
      },
    });
    expect(reserve?.formBackendNodeId).toBeTypeOf('number');
    const box = await fx.engine.engine.handleCommand({
      type: 'webmcpHighlightForm',
      pageId: page.id,
      frameId: page.mainFrameId,
      toolName: 'reserve_table',
    });
    const rect = z
      .object({x: z.number(), y: z.number(), width: z.number(), height: z.number()})
      .parse(box.ok ? box.value : undefined);
    expect(rect.width).toBeGreaterThan(0);
    expect(rect.height).toBeGreaterThan(0);
    expect(tools.find(tool => tool.name === 'search_menu')?.annotations.autosubmit).toBeUndefined();

    await evaluate(page, "window.removeForm('reserve')");
    await waitFor(async () => !names(await toolsOf(page)).includes('reserve_table'));
    expect(names(await toolsOf(page))).toContain('search_menu');
  });

  it('keeps tools on a same-document navigation and replaces them on a full one', async () => {
    const page = await open('/webmcp/imperative.html?nav');
    await evaluate(page, "window.addTool('only_this_document')");
    await waitFor(async () => names(await toolsOf(page)).includes('only_this_document'));

    await evaluate(page, "location.hash = 'section'");
    await waitFor(async () =>
      (await toolsOf(page)).some(tool => tool.frameUrl.endsWith('#section')),
    );
    expect(names(await toolsOf(page))).toContain('only_this_document');

    const reloaded = await call(fx.client, 'navigate_page', {pageId: page.id, type: 'reload'});
    expect(reloaded.isError, reloaded.text).toBe(false);
    const after = names(await toolsOf(page));
    expect(after).not.toContain('only_this_document');
    expect(after).toContain('echo');
    // Each tool once: the browser re-registers, nothing is duplicated.
    expect(after.filter(name => name === 'echo')).toHaveLength(1);
  });
});

describe('frames', () => {
  it('sees same-process and out-of-process iframes, and not a blocked cross-origin one', async () => {
    const page = await open('/webmcp/iframes.html');
    await waitFor(
      async () => {
        const list = names(await toolsOf(page));
        return list.includes('same_tool') && list.includes('allowed_tool');
      },
      15_000,
      'iframe tools',
    );
    const tools = await toolsOf(page);
    expect(names(tools)).not.toContain('blocked_tool');
    const shared = tools.filter(tool => tool.name === 'shared_tool');
    expect(shared).toHaveLength(3);
    const remote = tools.find(tool => tool.name === 'allowed_tool');
    expect(remote).toMatchObject({mainFrame: false});
    expect(remote?.origin).toMatch(/^http:\/\/localhost:\d+$/);
    expect(remote?.frameUrl).toContain('label=allowed');

    // Two frames share a name: the frame must be chosen.
    await expect(run(page, 'shared_tool')).rejects.toThrow(/registered by 3 frames.*Pass frameId/);
    const main = await run(page, 'shared_tool', {}, {frameId: page.mainFrameId});
    expect(main.output).toBe('"from main"');
    const inRemote = await run(page, 'shared_tool', {}, {frameId: remote?.frameId ?? ''});
    expect(inRemote).toMatchObject({status: 'Completed', output: '"from allowed"'});
    const remoteOnly = await run(page, 'allowed_tool');
    expect(remoteOnly.output).toBe('"allowed answered"');
  });

  it('reports the blocked iframe in the doctor', async () => {
    const page = await open('/webmcp/iframes.html?doctor');
    await waitFor(async () => names(await toolsOf(page)).includes('allowed_tool'), 15_000);
    const report = await fx.engine.engine.webmcp.doctor(page);
    expect(report.available).toBe(true);
    const blocked = report.problems.filter(problem => problem.code === 'iframe-not-allowed');
    expect(blocked).toHaveLength(1);
    expect(blocked[0]?.frameUrl).toContain('label=blocked');
    expect(blocked[0]?.message).toContain('lacks allow="tools"');
    expect(blocked[0]?.fix).toBe('Add allow="tools" to that <iframe> element and reload the page.');
  });
});

describe('invocations', () => {
  let page: PageState;
  beforeAll(async () => {
    page = await open('/webmcp/imperative.html?invocations');
  });

  it('Completed with the output as JSON text', async () => {
    const result = await run(page, 'echo', {text: 'hi'});
    expect(result).toMatchObject({
      status: 'Completed',
      output: '{"echo":"hi"}',
      toolName: 'echo',
      input: '{"text":"hi"}',
      invoker: {kind: 'inspector'},
      pageId: page.id,
    });
    expect(result.endedAt).toBeGreaterThanOrEqual(result.startedAt);
    const published = invocationEvents(result.invocationId);
    expect(published[0]?.status).toBe('running');
    expect(published.at(-1)?.status).toBe('Completed');
    const nothing = await run(page, 'nothing');
    expect(nothing.status).toBe('Completed');
  });

  it('Error with the exception and its stack', async () => {
    const result = await run(page, 'thrower');
    expect(result.status).toBe('Error');
    expect(result.exception).toContain('Error: boom from thrower');
    expect(result.exception).toContain('imperative.js');
    expect(result.output).toBeUndefined();
  });

  it('Canceled when cancelled by id', async () => {
    const record = await fx.engine.engine.webmcp.start({
      page,
      toolName: 'slow',
      input: {},
      invoker: {kind: 'inspector'},
      timeoutMs: 30_000,
    });
    const id = record.invocation.invocationId;
    const cancelled = await fx.engine.engine.handleCommand({
      type: 'webmcpCancel',
      invocationId: id,
    });
    expect(cancelled.ok).toBe(true);
    const final = await fx.engine.engine.webmcp.settled(record);
    expect(final.invocation.status).toBe('Canceled');
    expect(final.invocation.cancelRequested).toBe(true);
  });

  it('Canceled after the timeout, with the reason', async () => {
    const result = await run(page, 'slow', {}, {timeoutMs: 300});
    expect(result.status).toBe('Canceled');
    expect(result.errorText).toBe('Timed out after 300 ms; the tool was cancelled.');
  });

  it(
    'TimedOut when the page cannot answer the cancel',
    async () => {
      const record = await fx.engine.engine.webmcp.start({
        page,
        toolName: 'busy',
        input: {ms: 0, hold: '/webmcp/hold'},
        invoker: {kind: 'inspector'},
        timeoutMs: 30_000,
      });
      // The page is blocked (its synchronous request is unanswered) before the cancel is sent.
      await waitFor(() => held.length === 1, 10_000, 'the tool to block the page');
      await fx.engine.engine.handleCommand({
        type: 'webmcpCancel',
        invocationId: record.invocation.invocationId,
      });
      const result = (await fx.engine.engine.webmcp.settled(record)).invocation;
      expect(result.status).toBe('TimedOut');
      expect(result.errorText).toBe('The page did not answer the cancel within 3000 ms.');
      // Settled while the page still could not answer: its request is still held.
      expect(held).toHaveLength(1);
      held.splice(0).forEach(answer => answer());
      // The page answers later; the settled status stays.
      await waitFor(async () => (await evaluate(page, '1')) === 1, 15_000, 'page free again');
      expect(fx.engine.engine.webmcp.invocation(result.invocationId)?.status).toBe('TimedOut');
    },
    scaled(30_000),
  );

  it('records invocations the page starts itself', async () => {
    const output = await evaluate(page, "window.runFromPage('echo', {text: 'from page'})");
    expect(output).toBe('{"echo":"from page"}');
    const invocation = await waitFor(() =>
      fx.engine.engine.webmcp
        .invocations()
        .find(
          candidate =>
            candidate.input === '{"text":"from page"}' && candidate.status === 'Completed',
        ),
    );
    expect(invocation.invoker).toEqual({kind: 'page'});
    expect(invocation.output).toBe('{"echo":"from page"}');
  });

  it('Interrupted when the page navigates or closes while the tool runs', async () => {
    const navPage = await open('/webmcp/imperative.html?interrupt');
    const running = await fx.engine.engine.webmcp.start({
      page: navPage,
      toolName: 'slow',
      input: {},
      invoker: {kind: 'inspector'},
      timeoutMs: 60_000,
    });
    await call(fx.client, 'navigate_page', {
      pageId: navPage.id,
      url: fx.server.url('/webmcp/declarative.html'),
    });
    const navigated = await fx.engine.engine.webmcp.settled(running);
    expect(navigated.invocation.status).toBe('Interrupted');
    expect(navigated.invocation.errorText).toContain('The page navigated to');

    const closing = await open('/webmcp/imperative.html?close');
    const pending = await fx.engine.engine.webmcp.start({
      page: closing,
      toolName: 'slow',
      input: {},
      invoker: {kind: 'inspector'},
      timeoutMs: 60_000,
    });
    await call(fx.client, 'close_page', {pageId: closing.id});
    const closed = await fx.engine.engine.webmcp.settled(pending);
    expect(closed.invocation).toMatchObject({
      status: 'Interrupted',
      errorText: 'The page was closed before the tool answered.',
    });
    await waitFor(() => lastToolsEvent(closing.id)?.length === 0);
  });

  it('waits for a declarative form that answers from the next document', async () => {
    const formPage = await open('/webmcp/declarative.html?order');
    const result = await run(formPage, 'order_online', {dish: 'soup'});
    expect(result.status).toBe('Completed');
    expect(result.output).toBe('[{"ordered":true}]');
  });

  it('a form without autosubmit runs until a person submits it', async () => {
    const formPage = await open('/webmcp/declarative.html?manual');
    const record = await fx.engine.engine.webmcp.start({
      page: formPage,
      toolName: 'search_menu',
      input: {dish: 'soup'},
      invoker: {kind: 'inspector'},
      timeoutMs: 30_000,
    });
    expect(record.invocation.status).toBe('running');
    await evaluate(formPage, "document.querySelector('#manual button').click()");
    const final = await fx.engine.engine.webmcp.settled(record);
    expect(final.invocation).toMatchObject({status: 'Completed'});
    expect(JSON.parse(final.invocation.output ?? 'null')).toEqual({form: 'manual', dish: 'soup'});
  });
});
