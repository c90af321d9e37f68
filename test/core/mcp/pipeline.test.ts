/**
 * Each branch of the call pipeline, through real MCP clients over HTTP and a real Chromium.
 * A block's step number is the step of ToolRunner's numbered list it tests; steps 4 and 6 (the
 * hold gate) are tested in hold.test.ts and holdBypass.test.ts.
 *
 * Tests: src/core/mcp/ToolRunner.ts, src/core/mcp/callEvents.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {beforeAll, describe, expect, it} from 'vitest';
import type {EventEnvelope} from '../../../src/shared/protocol.js';
import {
  call,
  callError,
  openPage,
  pageIdFrom,
  startEngine,
  useEngineWithFixtures,
  waitFor,
} from '../../helpers/engine.js';
import {makeOutsideDir} from '../../helpers/outsideDir.js';

const fx = useEngineWithFixtures({
  flags: ['--telemetryLog', path.join(os.tmpdir(), `mbi-telemetry-${process.pid}.jsonl`)],
  clientName: 'pipeline-client',
});
const events: EventEnvelope[] = [];

beforeAll(() => {
  fx.engine.engine.hub.onEvent(envelope => events.push(envelope));
});

describe('step 2: disabled tools', () => {
  it('are not listed, and calling one names the switch that enables it', async () => {
    await fx.engine.engine.handleCommand({
      type: 'setCategoryEnabled',
      category: 'debugging',
      enabled: false,
    });
    try {
      const {tools} = await fx.client.listTools();
      expect(tools.map(tool => tool.name)).not.toContain('take_snapshot');
      // Not in tools/list, so unknown to the client: a JSON-RPC error that names the switch.
      const {code, message} = await callError(fx.client, 'take_snapshot', {pageId: 1});
      expect(code).toBe(-32602);
      expect(message).toContain('Tool take_snapshot is in category Debugging, which is off.');
      expect(message).toContain('--categoryDebugging');
    } finally {
      await fx.engine.engine.handleCommand({
        type: 'setCategoryEnabled',
        category: 'debugging',
        enabled: true,
      });
    }
  });

  it('a condition flag names itself too', async () => {
    const restricted = await startEngine(['--no-javascript-evaluation']);
    try {
      const c = await restricted.connect();
      const {tools} = await c.listTools();
      expect(tools.map(tool => tool.name)).not.toContain('evaluate_script');
      const result = await callError(c, 'evaluate_script', {pageId: 1, function: '() => 1'});
      expect(result.message).toBe(
        'Tool evaluate_script is disabled by --no-javascript-evaluation. Restart without that flag to use it.',
      );
      const nav = await call(c, 'new_page', {url: 'javascript:alert(1)'});
      expect(nav.text).toContain('javascript: URLs are disabled by --no-javascript-evaluation.');
    } finally {
      await restricted.stop();
    }
  });
});

describe('step 2: argument checks', () => {
  it("answers an unknown argument with chrome-devtools-mcp's self-healing text", async () => {
    const one = await call(fx.client, 'navigate_page', {
      pageId: 1,
      url: fx.server.url('/index.html'),
      selector: '#x',
    });
    expect(one.isError).toBe(true);
    expect(one.text).toBe(
      'Unknown argument for tool "navigate_page": "selector". Expected arguments: "type", "url", "ignoreCache", "handleBeforeUnload", "initScript", "timeout", "pageId". Remove it and retry.',
    );
    const two = await call(fx.client, 'new_page', {url: 'about:blank', a: 1, b: 2});
    expect(two.text).toContain('Unknown arguments for tool "new_page": "a", "b".');
    expect(two.text).toContain('Remove them and retry.');
    const none = await call(fx.client, 'list_pages', {verbose: true});
    expect(none.text).toBe(
      'Unknown argument for tool "list_pages": "verbose". This tool does not accept any arguments. Remove it and retry.',
    );
  });

  it('explains invalid and missing arguments, and unknown tools', async () => {
    const missingPage = await call(fx.client, 'navigate_page', {url: fx.server.url('/index.html')});
    expect(missingPage.text).toBe(
      'Invalid arguments for tool "navigate_page": pageId is required. Call list_pages to see page ids.',
    );
    const wrongType = await call(fx.client, 'new_page', {url: 42});
    expect(wrongType.text).toContain('Invalid arguments for tool "new_page": url:');
    const badEnum = await call(fx.client, 'navigate_page', {pageId: 1, type: 'sideways'});
    expect(badEnum.text).toContain('type:');
    // By the specification (and as chrome-devtools-mcp answers): a JSON-RPC error, -32602, that
    // still lists the tools; the invalid arguments above stay tool results.
    const unknownTool = await callError(fx.client, 'teleport', {});
    expect(unknownTool.code).toBe(-32602);
    expect(unknownTool.message).toMatch(
      /^Unknown tool "teleport"\. Available tools: .*navigate_page/,
    );
    // The inspector still shows the call, as failed.
    const teleport = events.find(
      e => e.event.type === 'toolCallStarted' && e.event.tool === 'teleport',
    );
    expect(
      events.some(
        e =>
          e.event.type === 'toolCallEnded' &&
          teleport?.event.type === 'toolCallStarted' &&
          e.event.callId === teleport.event.callId &&
          e.event.status === 'error',
      ),
    ).toBe(true);
    const unknownPage = await call(fx.client, 'navigate_page', {
      pageId: 4242,
      url: fx.server.url('/index.html'),
    });
    expect(unknownPage.text).toContain('No page with id 4242.');
  });
});

describe('step 5: locks (serialization)', () => {
  it('calls on different pages do not wait for each other; calls on one page run one at a time', async () => {
    const other = await fx.engine.connect('second-client');
    const pageA = await fx.openPage('/index.html?a');
    const pageB = await openPage(other, fx.server.url('/index.html?b'), '/index.html?b');
    const stateA = fx.engine.engine.browser.pages.byId(pageA);
    const inPageA = async (expression: string): Promise<unknown> =>
      (await stateA.cdp.send('Runtime.evaluate', {expression, returnByValue: true})).result.value;
    const order: string[] = [];
    // The slow call ends only when the test lets it (over raw CDP, past the page's lock).
    const slow = call(fx.client, 'evaluate_script', {
      pageId: pageA,
      function:
        '() => new Promise(resolve => { window.release = () => { (window.ran ??= []).push("slow"); resolve("slow"); }; })',
    }).then(r => {
      order.push('slowA');
      return r;
    });
    await waitFor(
      async () => (await inPageA('typeof window.release')) === 'function',
      10_000,
      'the slow call to run',
    );
    const fast = await call(other, 'evaluate_script', {pageId: pageB, function: '() => "fast"'});
    order.push('fastB');
    expect(fast.text).toContain('"fast"');
    const samePage = call(other, 'evaluate_script', {
      pageId: pageA,
      function: '() => { (window.ran ??= []).push("queued"); return "queued"; }',
    }).then(r => {
      order.push('queuedA');
      return r;
    });
    await waitFor(() => stateA.lock.waiting === 1, 10_000, 'the second call on page A to queue');
    expect(order).toEqual(['fastB']);
    await inPageA('window.release()');
    const [slowResult, queuedResult] = await Promise.all([slow, samePage]);
    expect(slowResult.text).toContain('"slow"');
    expect(queuedResult.text).toContain('"queued"');
    expect(order).toEqual(['fastB', 'slowA', 'queuedA']);
    expect(await inPageA('window.ran')).toEqual(['slow', 'queued']);
  });
});

describe('step 3: lazy start and reconnect', () => {
  it('brings the browser back after it is killed, with a one-time note and new page ids', async () => {
    const fresh = await startEngine();
    try {
      const c = await fresh.connect();
      expect(fresh.engine.browser.status.state).toBe('idle');
      const first = await call(c, 'list_pages');
      expect(fresh.engine.browser.status.state).toBe('running');
      const oldId = pageIdFrom(first.text, 'about:blank');
      const browserProcess = fresh.engine.browser.chromium?.process();
      browserProcess?.kill('SIGKILL');
      await waitFor(
        () => fresh.engine.browser.status.state === 'disconnected',
        10_000,
        'disconnect',
      );
      const again = await call(c, 'list_pages');
      expect(
        again.text.startsWith(
          'Note: the browser was restarted or reconnected since the last call. Page ids have changed. Call list_pages to see open pages.',
        ),
      ).toBe(true);
      expect(pageIdFrom(again.text, 'about:blank')).toBeGreaterThan(oldId);
      const stale = await call(c, 'navigate_page', {pageId: oldId, type: 'reload'});
      expect(stale.text).toContain(`No page with id ${oldId}`);
      const third = await call(c, 'list_pages');
      expect(third.text).not.toContain('Note: the browser was restarted');
    } finally {
      await fresh.stop();
    }
  });
});

describe('step 8: file paths against the allowed roots', () => {
  it("uses the client's roots and --workspace, resolves symlinks, and asks for roots within the call", async () => {
    // None of them under the temp dir, which is always allowed.
    const workspace = makeOutsideDir('mbi-ws-');
    const clientRoot = makeOutsideDir('mbi-root-');
    const outside = makeOutsideDir('mbi-outside-');
    const withRoots = await startEngine(['--workspace', workspace]);
    try {
      const c = await withRoots.connect('roots-client', {
        capabilities: {roots: {listChanged: true}},
      });
      c.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: [{uri: pathToFileURL(clientRoot).href, name: 'project'}],
      }));
      const {text} = await call(c, 'new_page', {url: fx.server.url('/index.html')});
      const id = pageIdFrom(text, 'index.html');
      const inRoot = await call(c, 'take_screenshot', {
        pageId: id,
        filePath: path.join(clientRoot, 'shots', 'a.png'),
      });
      expect(inRoot.text).toContain(
        `Saved screenshot to ${path.join(clientRoot, 'shots', 'a.png')}.`,
      );
      expect(fs.existsSync(path.join(clientRoot, 'shots', 'a.png'))).toBe(true);
      const inWorkspace = await call(c, 'take_screenshot', {
        pageId: id,
        filePath: path.join(workspace, 'b.png'),
      });
      expect(inWorkspace.isError).toBe(false);
      const denied = await call(c, 'take_screenshot', {
        pageId: id,
        filePath: path.join(outside, 'c.png'),
      });
      expect(denied.isError).toBe(true);
      expect(denied.text).toContain(`Access denied: path ${path.join(outside, 'c.png')}`);
      fs.symlinkSync(outside, path.join(clientRoot, 'escape'));
      const viaLink = await call(c, 'take_screenshot', {
        pageId: id,
        filePath: path.join(clientRoot, 'escape', 'd.png'),
      });
      expect(viaLink.isError).toBe(true);
      expect(viaLink.text).toContain(`(canonical: ${path.join(outside, 'd.png')})`);
      expect(fs.existsSync(path.join(outside, 'd.png'))).toBe(false);
    } finally {
      await withRoots.stop();
      for (const dir of [workspace, clientRoot, outside]) {
        fs.rmSync(dir, {recursive: true, force: true});
      }
    }
  });

  it('a client that never answers roots/list does not stall the call beyond the roots timeout', async () => {
    const silent = await startEngine();
    try {
      const c = await silent.connect('silent-roots', {capabilities: {roots: {listChanged: true}}});
      let asked = 0;
      c.setRequestHandler(ListRootsRequestSchema, () => {
        asked++;
        return new Promise(() => undefined);
      });
      const {text} = await call(c, 'new_page', {url: fx.server.url('/index.html')});
      const id = pageIdFrom(text, 'index.html');
      const shot = await call(c, 'take_screenshot', {
        pageId: id,
        filePath: path.join(os.tmpdir(), `mbi-${process.pid}.png`),
      });
      expect(shot.isError).toBe(false);
      // Each call asked, and each wait was ended by the roots timeout (a call that waited for
      // an answer instead would never end).
      const failures = silent.logs.filter(line =>
        line.includes('roots/list failed for silent-roots'),
      );
      expect(asked).toBe(2);
      expect(failures).toHaveLength(2);
      for (const failure of failures) {
        expect(failure).toMatch(/timed out/i);
      }
    } finally {
      await silent.stop();
    }
  });
});

describe('step 8: the open-dialog gate', () => {
  it('refuses blocked tools while a dialog is open and shows the dialog in every response', async () => {
    const gated = await startEngine();
    try {
      const c = await gated.connect();
      const {text} = await call(c, 'new_page', {url: fx.server.url('/dialogs.html')});
      const id = pageIdFrom(text, 'dialogs.html');
      const state = gated.engine.browser.pages.byId(id);
      await state.page.evaluate(() => {
        setTimeout(() => alert('Hello alert'), 0);
      });
      await waitFor(() => state.dialog, 5_000, 'dialog');
      const blocked = await call(c, 'take_snapshot', {pageId: id});
      expect(blocked.isError).toBe(true);
      expect(blocked.text).toContain(
        '# Open dialog\nalert: Hello alert.\nCall handle_dialog to handle it before continuing.',
      );
      expect(blocked.text).toContain('Error: A dialog is open (alert: Hello alert).');
      const notBlocked = await call(c, 'list_pages');
      expect(notBlocked.isError).toBe(false);
      await state.dialog?.dialog.dismiss().catch(() => undefined);
    } finally {
      await gated.stop();
    }
  });
});

describe('step 8: handler errors', () => {
  it('renders a handler error as isError text', async () => {
    const id = await fx.openPage('/index.html?err');
    const result = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { throw new TypeError("nope") }',
    });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error: TypeError: nope/m);
  });
});

describe('step 9: cancellation', () => {
  it('a client cancel aborts the call and frees the page at once', async () => {
    const id = await fx.openPage('/index.html?cancel');
    const controller = new AbortController();
    const pending = fx.client.callTool(
      {name: 'evaluate_script', arguments: {pageId: id, function: '() => new Promise(() => {})'}},
      undefined,
      {signal: controller.signal},
    );
    await waitFor(
      () =>
        events.some(
          e =>
            e.event.type === 'toolCallStarted' &&
            e.event.pageId === id &&
            e.event.tool === 'evaluate_script',
        ),
      5_000,
      'call start',
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(
      () =>
        events.some(
          e =>
            e.event.type === 'toolCallEnded' &&
            e.event.pageId === id &&
            e.event.status === 'cancelled',
        ),
      5_000,
      'cancelled event',
    );
    // Freed at once: nothing holds or waits for the page's lock any more.
    const state = fx.engine.engine.browser.pages.byId(id);
    await waitFor(() => state.lock.busyWith.length === 0, 10_000, 'the page lock to be free');
    expect(state.lock.waiting).toBe(0);
    const next = await call(fx.client, 'evaluate_script', {pageId: id, function: '() => "free"'});
    expect(next.text).toContain('"free"');
  });
});

describe('steps 1 and 11: inspector events and telemetry', () => {
  it('publishes start and end events with arguments, client, page, timing and a sanitized telemetry record', async () => {
    const id = await fx.openPage('/index.html?events');
    // Only this call's events: other calls (other tests' clients) may publish meanwhile.
    const from = events.length;
    await call(fx.client, 'evaluate_script', {pageId: id, function: '() => document.title'});
    const mine = events.slice(from);
    const started = mine.find(
      e =>
        e.event.type === 'toolCallStarted' &&
        e.event.tool === 'evaluate_script' &&
        e.event.pageId === id,
    );
    const callId = started?.event.type === 'toolCallStarted' ? started.event.callId : undefined;
    const ended = mine.find(e => e.event.type === 'toolCallEnded' && e.event.callId === callId);
    if (started?.event.type !== 'toolCallStarted' || ended?.event.type !== 'toolCallEnded') {
      throw new Error('missing events');
    }
    expect(started.event.args).toEqual({pageId: id, function: '() => document.title'});
    expect(started.event.client).toMatchObject({
      name: 'pipeline-client',
      version: '1.0.0',
      transport: 'http',
    });
    expect(ended.event.callId).toBe(started.event.callId);
    expect(ended.event.status).toBe('ok');
    expect(ended.event.pageId).toBe(id);
    expect(ended.event.durationMs).toBeGreaterThan(0);
    expect(ended.event.result.text).toContain('Fixture home');
    expect(ended.seq).toBeGreaterThan(started.seq);
    // Telemetry keeps the reference's bucket for the call's latency, which is measured before the
    // end event's duration: a bucket of the reference's, and never above the duration's.
    const buckets = [50, 100, 250, 500, 1000, 2500, 5000, 10_000];
    const duration = ended.event.durationMs;
    const latency = ended.event.telemetry?.tool_invocation.latency_ms ?? -1;
    const bucketOf = (ms: number): number => buckets.find(bucket => ms <= bucket) ?? 10_000;
    expect(buckets).toContain(latency);
    expect(latency).toBeLessThanOrEqual(bucketOf(duration));
    expect(ended.event.telemetry?.tool_invocation).toEqual({
      tool_name: 'evaluate_script',
      success: true,
      latency_ms: latency,
      tool_params: {evaluate_script_params: {page_id: id, function_length: 20}},
      context: {is_localhost: true},
    });
    expect(ended.event.telemetry?.mcp_client).toBe(3);
    expect(ended.event.telemetry?.raw_client_name).toBe('pipeline-client');
    // The log is appended through a write stream: wait for the line to land.
    const log = await waitFor(
      () => {
        const lines = fs
          .readFileSync(path.join(os.tmpdir(), `mbi-telemetry-${process.pid}.jsonl`), 'utf8')
          .trim()
          .split('\n');
        return lines.at(-1)?.includes('"tool_name":"evaluate_script"') ? lines : undefined;
      },
      5_000,
      'the telemetry line for evaluate_script',
    );
    const last = JSON.parse(log.at(-1) ?? '{}') as {tool_invocation?: {tool_name?: string}};
    expect(last.tool_invocation?.tool_name).toBe('evaluate_script');
    expect(log.join('\n')).not.toContain('document.title');
  });
});

describe('runtime tool switches', () => {
  it('a category switch notifies every connected client and changes the list', async () => {
    const a = await fx.engine.connect('watcher-a');
    const b = await fx.engine.connect('watcher-b');
    let notifiedA = 0;
    let notifiedB = 0;
    a.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notifiedA++;
    });
    b.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notifiedB++;
    });
    const before = (await a.listTools()).tools.map(tool => tool.name);
    expect(before).toContain('take_snapshot');
    expect(before).toEqual([...before].sort());
    const reply = await fx.engine.engine.handleCommand({
      type: 'setCategoryEnabled',
      category: 'debugging',
      enabled: false,
    });
    expect(reply.ok).toBe(true);
    await waitFor(() => notifiedA > 0 && notifiedB > 0, 5_000, 'tools/list_changed');
    const after = (await b.listTools()).tools.map(tool => tool.name);
    expect(after).not.toContain('take_snapshot');
    expect(after).toContain('navigate_page');
    await fx.engine.engine.handleCommand({
      type: 'setCategoryEnabled',
      category: 'debugging',
      enabled: true,
    });
    await waitFor(() => notifiedA > 1, 5_000, 'second tools/list_changed');
    expect((await a.listTools()).tools.map(tool => tool.name)).toContain('take_snapshot');
  });

  it('--memoryDebugging switches like a category; --no-javascript-evaluation does not', async () => {
    const client = await fx.engine.connect('condition-watcher');
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notified++;
    });
    const refused = await callError(client, 'get_heapsnapshot_summary', {
      filePath: '/tmp/none.heapsnapshot',
    });
    expect(refused.message).toBe(
      'Tool get_heapsnapshot_summary requires the --memoryDebugging flag, which is off. Turn it on with the "Memory debugging" switch in the inspector\'s Tools panel, or start the server with --memoryDebugging.',
    );
    const on = await fx.engine.engine.handleCommand({
      type: 'setConditionEnabled',
      condition: 'memoryDebugging',
      enabled: true,
    });
    expect(on.ok).toBe(true);
    await waitFor(() => notified > 0, 5_000, 'tools/list_changed');
    const names = (await client.listTools()).tools.map(tool => tool.name);
    expect(names).toContain('get_heapsnapshot_summary');
    expect(names).toContain('compare_heapsnapshots');
    const state = fx.engine.engine.state().conditions ?? [];
    expect(state.find(condition => condition.id === 'memoryDebugging')).toMatchObject({
      enabled: true,
      flag: '--memoryDebugging',
      switchable: true,
    });
    await fx.engine.engine.handleCommand({
      type: 'setConditionEnabled',
      condition: 'memoryDebugging',
      enabled: false,
    });
    await waitFor(() => notified > 1, 5_000, 'second tools/list_changed');
    expect((await client.listTools()).tools.map(tool => tool.name)).not.toContain(
      'get_heapsnapshot_summary',
    );

    const safety = await fx.engine.engine.handleCommand({
      type: 'setConditionEnabled',
      condition: 'javascriptEvaluation',
      enabled: false,
    });
    expect(safety).toEqual({
      ok: false,
      error:
        '--no-javascript-evaluation is set when the server starts. Restart the server to change it.',
    });
  });
});

describe('--slim', () => {
  it('offers only navigate, evaluate and screenshot, with plain answers', async () => {
    const slim = await startEngine(['--slim']);
    try {
      const c = await slim.connect();
      const {tools} = await c.listTools();
      expect(tools.map(tool => tool.name)).toEqual(['evaluate', 'navigate', 'screenshot']);
      expect(JSON.stringify(tools).length).toBeLessThan(1_500);
      const nav = await call(c, 'navigate', {url: fx.server.url('/index.html')});
      expect(nav.text).toBe(`Navigated to ${fx.server.url('/index.html')}.`);
      const evaluated = await call(c, 'evaluate', {script: 'document.title'});
      expect(evaluated.text).toBe('"Fixture home"');
      const shot = await call(c, 'screenshot', {});
      expect(shot.text).toMatch(/screenshot\.png$/);
      expect(fs.readFileSync(shot.text).subarray(1, 4).toString()).toBe('PNG');
      const full = await callError(c, 'take_snapshot', {});
      expect(full.message).toBe(
        'Tool take_snapshot is not available with --slim. Restart without --slim to use it.',
      );
    } finally {
      await slim.stop();
    }
  });
});
