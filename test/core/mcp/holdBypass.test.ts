/**
 * Hold rules that must not be slipped past, with real MCP clients over HTTP and real Chromium:
 * a redirect (server or script) into a held URL is stopped before the page loads it, for
 * navigate_page, new_page and a click on a link alike, and so is a history step into one, a tab
 * the page opens (a link, window.open) and what a page's own tool sets in motion (whatever its
 * hints say, and even after it answered); an approved URL loads,
 * a redirect from it into another held URL does not; a call whose page navigated itself into a
 * held URL while the call waited for the page is held then. The queue: capped per client, and
 * published as changes. Read-only by arguments (take_snapshot without a filePath), and a page
 * tool's held call shows (and runs) exactly the arguments the agent sent.
 *
 * Tests: src/core/mcp/hold/HoldGate.ts, src/core/mcp/hold/lockChecked.ts,
 *   src/core/mcp/hold/callNavigations.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import {MAX_HELD_PER_CLIENT} from '../../../src/core/mcp/hold/HoldGate.js';
import {allTools} from '../../../src/core/tools/index.js';
import type {InspectorEvent} from '../../../src/shared/protocol.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {heldOf, valueOf} from '../../helpers/hold.js';
import {uidOf} from '../../helpers/snapshotText.js';
import type {FixtureServer} from '../../helpers/fixtureServer.js';

/** Requests that reached the fixture server, by pathname. */
const hits = new Map<string, number>();

function counted(server: FixtureServer, pathname: string, body: string): void {
  server.route(pathname, (_request, response) => {
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    response.end(body);
  });
}

function redirect(server: FixtureServer, pathname: string, location: string): void {
  server.route(pathname, (_request, response) => {
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    response.writeHead(302, {Location: location, 'Cache-Control': 'no-store'}).end();
  });
}

const BANK = `<!doctype html><title>bank</title><p>bank</p><script>
window.transfers = [];
document.modelContext.registerTool({
  name: 'transfer',
  description: 'Moves money to an account.',
  inputSchema: {type: 'object', properties: {amount: {type: 'number'}, to: {type: 'string'}}},
  execute: async input => { window.transfers.push(input); return 'sent'; },
});
</script>`;

/** WebMCP tools that leave: one moves its page, one (read-only by its own word) opens a tab. */
const NAV_TOOLS = `<!doctype html><title>navtools</title><p>navtools</p><script>
document.modelContext.registerTool({
  name: 'go_held',
  description: 'Moves the page.',
  inputSchema: {type: 'object', properties: {}},
  execute: async () => { location.href = '/held/tool.html'; return 'moved'; },
});
document.modelContext.registerTool({
  name: 'peek_held',
  description: 'Only looks.',
  inputSchema: {type: 'object', properties: {}},
  annotations: {readOnlyHint: true},
  execute: async () => { window.open('/held/peek.html'); return 'looked'; },
});
</script>`;

const fx = useEngineWithFixtures({
  flags: ['--webmcpTools'],
  clientName: 'hold-bypass',
  tmpPrefix: 'mbi-hold-bypass-',
  routes: server => {
    server.html('/plain.html', '<!doctype html><title>plain</title><p>plain</p>');
    server.html('/selfnav.html', '<!doctype html><title>selfnav</title><p>selfnav</p>');
    server.html('/jsnav.html', `<script>location.href = '/held/js.html';</script>`);
    server.html('/bank.html', BANK);
    server.html(
      '/links.html',
      '<!doctype html><title>links</title><a href="/held/landing.html">Go held</a>',
    );
    server.html(
      '/opener.html',
      `<!doctype html><title>opener</title><a href="/held/tab.html" target="_blank">New tab</a>`,
    );
    server.html('/navtools.html', NAV_TOOLS);
    counted(server, '/held/tab.html', '<!doctype html><title>tab</title>');
    counted(server, '/held/win.html', '<!doctype html><title>win</title>');
    counted(server, '/held/tool.html', '<!doctype html><title>tool</title>');
    counted(server, '/held/peek.html', '<!doctype html><title>peek</title>');
    counted(server, '/held/landing.html', '<!doctype html><title>landing</title><p>landing</p>');
    counted(server, '/held/js.html', '<!doctype html><title>js</title>');
    redirect(server, '/start', '/held/landing.html');
    counted(server, '/held/other.html', '<!doctype html><title>other</title>');
    redirect(server, '/held/hop', '/held/other.html');
  },
});
const events: InspectorEvent[] = [];

beforeAll(() => {
  fx.engine.engine.hub.onEvent(envelope => events.push(envelope.event));
});

afterEach(async () => {
  const engine = fx.engine.engine;
  engine.hold.setRules([]);
  engine.hold.allowAll();
  await waitFor(() => engine.hold.state().queue.length === 0, 5_000, 'an empty queue');
});

let opened = 0;

/** A new tab of a fixture page (a query string of its own, so tests never share a page). */
function openFresh(pathname: string): Promise<number> {
  opened++;
  return fx.openPage(`${pathname}?tab=${opened}`);
}

function urlOf(pageId: number): string {
  return fx.engine.engine.browser.pages.byId(pageId).page.url();
}

describe('URL rules and navigations', () => {
  it('stops a navigate_page whose redirect goes into a held URL, before the page loads it', async () => {
    const pageId = await openFresh('/plain.html');
    const before = urlOf(pageId);
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    const result = await call(fx.client, 'navigate_page', {pageId, url: fx.server.url('/start')});
    expect(result.isError, result.text).toBe(true);
    expect(result.text).toContain(
      `Stopped: ${fx.server.url('/start')} redirected to ${fx.server.url('/held/landing.html')}, which the hold rule url:*/held/* holds and the user has not approved for this call. The page did not load it and stays at ${before}. To go there, call navigate_page with that URL`,
    );
    expect(hits.get('/start')).toBe(1);
    expect(hits.get('/held/landing.html')).toBeUndefined();
    expect(urlOf(pageId)).toBe(before);
    expect(fx.engine.engine.hold.state().queue).toEqual([]);
  });

  it('stops new_page the same way; its tab stays blank', async () => {
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    const result = await call(fx.client, 'new_page', {url: fx.server.url('/start')});
    expect(result.isError, result.text).toBe(true);
    expect(result.text).toContain(
      `${fx.server.url('/start')} redirected to ${fx.server.url('/held/landing.html')}`,
    );
    expect(result.text).toContain('stays at about:blank');
    expect(hits.get('/held/landing.html')).toBeUndefined();
  });

  it('stops a navigation the loading page starts itself (a script redirect)', async () => {
    const pageId = await openFresh('/plain.html');
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    const result = await call(fx.client, 'navigate_page', {
      pageId,
      url: fx.server.url('/jsnav.html'),
    });
    expect(result.isError, result.text).toBe(true);
    expect(result.text).toContain(
      `Stopped: this call made page ${pageId} navigate to ${fx.server.url('/held/js.html')}`,
    );
    expect(hits.get('/held/js.html')).toBeUndefined();
  });

  it('lets an approved URL load, but not a redirect from it into another held URL', async () => {
    const pageId = await openFresh('/plain.html');
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    const direct = call(fx.client, 'navigate_page', {
      pageId,
      url: fx.server.url('/held/landing.html'),
    });
    fx.engine.engine.hold.decide((await heldOf(fx.engine.engine, 'navigate_page')).callId, 'allow');
    const landed = await direct;
    expect(landed.isError, landed.text).toBe(false);
    expect(urlOf(pageId)).toBe(fx.server.url('/held/landing.html'));

    // Approved: the page's URL and the target. Not where the target redirects to.
    const hop = call(fx.client, 'navigate_page', {pageId, url: fx.server.url('/held/hop')});
    fx.engine.engine.hold.decide((await heldOf(fx.engine.engine, 'navigate_page')).callId, 'allow');
    const stopped = await hop;
    expect(stopped.isError, stopped.text).toBe(true);
    expect(stopped.text).toContain(
      `Stopped: ${fx.server.url('/held/hop')} redirected to ${fx.server.url('/held/other.html')}`,
    );
    expect(hits.get('/held/hop')).toBe(1);
    expect(hits.get('/held/other.html')).toBeUndefined();
    expect(urlOf(pageId)).toBe(fx.server.url('/held/landing.html'));
  });

  it('stops a click whose link goes into a held URL', async () => {
    const pageId = await openFresh('/links.html');
    const before = urlOf(pageId);
    const landings = hits.get('/held/landing.html');
    const {text: snapshot} = await call(fx.client, 'take_snapshot', {pageId});
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    const result = await call(fx.client, 'click', {pageId, uid: uidOf(snapshot, 'link "Go held"')});
    expect(result.isError, result.text).toBe(true);
    expect(result.text).toContain(
      `Stopped: this call made page ${pageId} navigate to ${fx.server.url('/held/landing.html')}`,
    );
    expect(hits.get('/held/landing.html')).toBe(landings);
    expect(urlOf(pageId)).toBe(before);
  });

  it('stops a tab the page opens into a held URL: a target=_blank link, a window.open', async () => {
    const pageId = await openFresh('/opener.html');
    const {text: snapshot} = await call(fx.client, 'take_snapshot', {pageId});
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    const clicked = await call(fx.client, 'click', {
      pageId,
      uid: uidOf(snapshot, 'link "New tab"'),
    });
    expect(clicked.isError, clicked.text).toBe(true);
    expect(clicked.text).toContain(
      `Stopped: this call made page ${pageId} open a new tab at ${fx.server.url('/held/tab.html')}, which the hold rule url:*/held/* holds and the user has not approved for this call. The new tab did not load it and stays blank.`,
    );
    const script = await call(fx.client, 'evaluate_script', {
      pageId,
      function: `() => { window.open('/held/win.html'); return 'opened'; }`,
    });
    expect(script.isError, script.text).toBe(true);
    expect(script.text).toContain(
      `this call made page ${pageId} open a new tab at ${fx.server.url('/held/win.html')}`,
    );
    expect(hits.get('/held/tab.html')).toBeUndefined();
    expect(hits.get('/held/win.html')).toBeUndefined();
    const urls = fx.engine.engine.browser.pages.list().map(page => page.page.url());
    expect(urls.filter(url => /\/held\/(tab|win)\.html/.test(url))).toEqual([]);
  });

  it("watches a page's own tools whatever they say: a tool moving its page, one opening a tab", async () => {
    const pageId = await openFresh('/navtools.html');
    await waitFor(
      async () =>
        (await fx.client.listTools()).tools.some(tool => tool.name === 'webmcp_peek_held'),
      10_000,
      'the WebMCP tools',
    );
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    // The page's tool answers before the browser starts its request: still stopped.
    const moved = await call(fx.client, 'webmcp_go_held', {});
    expect(moved.isError, moved.text).toBe(true);
    expect(moved.text).toContain(
      `Stopped: this call made page ${pageId} navigate to ${fx.server.url('/held/tool.html')}`,
    );
    const peeked = await call(fx.client, 'webmcp_peek_held', {});
    expect(peeked.isError, peeked.text).toBe(true);
    expect(peeked.text).toContain(
      `this call made page ${pageId} open a new tab at ${fx.server.url('/held/peek.html')}`,
    );
    expect(hits.get('/held/tool.html')).toBeUndefined();
    expect(hits.get('/held/peek.html')).toBeUndefined();
    expect(urlOf(pageId)).toContain('/navtools.html');
  });

  it('checks the target of a history step before going there', async () => {
    const pageId = await openFresh('/plain.html');
    const before = urlOf(pageId);
    const page = fx.engine.engine.browser.pages.byId(pageId);
    // The page goes there and back by itself (not a call).
    await page.page.goto(fx.server.url('/held/landing.html'));
    await page.page.goBack();
    expect(urlOf(pageId)).toBe(before);
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    const result = await call(fx.client, 'navigate_page', {pageId, type: 'forward'});
    expect(result.isError, result.text).toBe(true);
    expect(result.text).toContain(
      `Stopped: this call made page ${pageId} navigate to ${fx.server.url('/held/landing.html')}`,
    );
    expect(urlOf(pageId)).toBe(before);
  });

  it('holds a call whose page went to a held URL while the call waited for the page', async () => {
    const pageId = await openFresh('/selfnav.html');
    const page = fx.engine.engine.browser.pages.byId(pageId);
    fx.engine.engine.hold.setRules(['url:*/held/*']);
    // Another client keeps the page busy until the text "landing" shows.
    const other = await fx.engine.connect('hold-bypass-other');
    const busy = call(other, 'wait_for', {pageId, text: ['landing'], timeout: 20_000});
    await waitFor(() => page.lock.busyWith.length === 1, 10_000, 'the page to be busy');
    const waiting = call(fx.client, 'list_console_messages', {pageId});
    await waitFor(() => page.lock.waiting === 1, 10_000, 'the call to wait for the page');
    // The page navigates itself (not a call of anyone) while the call waits.
    await page.cdp.send('Runtime.evaluate', {
      expression: `location.href = ${JSON.stringify(fx.server.url('/held/landing.html'))}`,
    });
    const held = await heldOf(fx.engine.engine, 'list_console_messages');
    expect(held.reason).toBe(
      `page ${pageId} went to ${fx.server.url('/held/landing.html')} while the call waited for it; ${fx.server.url('/held/landing.html')} matches */held/*`,
    );
    expect(held.pageUrl).toBe(fx.server.url('/held/landing.html'));
    const busyResult = await busy;
    expect(busyResult.isError, busyResult.text).toBe(false);
    // Held without the page's lock: other calls on the page can go on.
    await waitFor(() => page.lock.busyWith.length === 0, 10_000, 'the page lock to be free');
    fx.engine.engine.hold.decide(held.callId, 'deny', {reason: 'not on that page'});
    expect((await waiting).text).toContain('Denied by the user: not on that page');
  });
});

describe('the held queue', () => {
  it('caps the calls one client has held, naming the cap; another client is still held', async () => {
    fx.engine.engine.hold.setRules(['tool:list_pages']);
    const firstSeq = fx.engine.engine.hub.nextSeq;
    const calls = Array.from({length: MAX_HELD_PER_CLIENT}, () => call(fx.client, 'list_pages'));
    await waitFor(
      () => fx.engine.engine.hold.state().queue.length === MAX_HELD_PER_CLIENT,
      10_000,
      'a full queue',
    );
    const refused = await call(fx.client, 'list_pages');
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      `Not run: hold-bypass already has ${MAX_HELD_PER_CLIENT} calls waiting for approval in the inspector, the most one client may have held at once. Wait until the user has decided on them (each returns its own result), then send this call again.`,
    );
    const other = await fx.engine.connect('hold-bypass-second');
    const second = call(other, 'list_pages');
    await heldOf(fx.engine.engine, 'list_pages', held => held.client.name === 'hold-bypass-second');
    const state = valueOf(await fx.engine.engine.handleCommand({type: 'holdGetState'}));
    expect(state.queue).toHaveLength(MAX_HELD_PER_CLIENT + 1);
    expect(state.seq).toBe(fx.engine.engine.hub.nextSeq - 1);

    fx.engine.engine.hold.allowAll();
    for (const result of await Promise.all([...calls, second])) {
      expect(result.isError, result.text).toBe(false);
    }
    // What changed, once each: no event carries the queue.
    const holdEvents = fx.engine.engine.hub
      .range(firstSeq, 10_000)
      .map(envelope => envelope.event)
      .filter(event => event.type.toLowerCase().includes('hold') || event.type === 'callHeld');
    expect(holdEvents.filter(event => event.type === 'callHeld')).toHaveLength(
      MAX_HELD_PER_CLIENT + 1,
    );
    expect(holdEvents.filter(event => event.type === 'callHoldEnded')).toHaveLength(
      MAX_HELD_PER_CLIENT + 1,
    );
    expect(holdEvents.some(event => event.type === 'holdChanged')).toBe(false);
  });
});

describe('read-only by what the call does', () => {
  it('declares which parameters make a tool write, and only those', () => {
    const declared = allTools()
      .tools.filter(tool => !tool.readOnly && tool.readsOnly({}))
      .map(tool => tool.name)
      .sort();
    expect(declared).toEqual(['get_network_request', 'take_screenshot', 'take_snapshot']);
    const byName = (name: string) => allTools().tools.find(tool => tool.name === name);
    expect(byName('take_snapshot')?.readsOnly({filePath: '/tmp/x.txt'})).toBe(false);
    expect(byName('take_snapshot')?.readsOnly({filePath: ''})).toBe(false);
    expect(byName('get_network_request')?.readsOnly({reqid: 1, responseFilePath: 'a'})).toBe(false);
    expect(byName('evaluate_script')?.readsOnly({function: '() => 1'})).toBe(false);
  });

  it('not-read-only holds take_snapshot and take_screenshot only with a filePath', async () => {
    const pageId = await openFresh('/plain.html');
    fx.engine.engine.hold.setRules(['not-read-only']);
    const snapshot = await call(fx.client, 'take_snapshot', {pageId});
    expect(snapshot.text).toContain('plain');
    const screenshot = await call(fx.client, 'take_screenshot', {pageId});
    expect(screenshot.isError, screenshot.text).toBe(false);
    expect(fx.engine.engine.hold.state().queue).toEqual([]);

    const filePath = path.join(fx.tmp, 'snapshot.txt');
    const saving = call(fx.client, 'take_snapshot', {pageId, filePath});
    const held = await heldOf(fx.engine.engine, 'take_snapshot');
    expect(held.reason).toBe('take_snapshot is not read-only');
    fx.engine.engine.hold.decide(held.callId, 'deny');
    expect((await saving).isError).toBe(true);
    expect(fs.existsSync(filePath)).toBe(false);
    // The advertised hint stays the peer's.
    const {tools} = await fx.client.listTools();
    expect(tools.find(tool => tool.name === 'take_snapshot')?.annotations?.readOnlyHint).toBe(
      false,
    );
  });
});

describe("a page's own tools", () => {
  it('shows the full arguments of a held webmcp_ call and runs exactly those', async () => {
    const pageId = await openFresh('/bank.html');
    const page = fx.engine.engine.browser.pages.byId(pageId);
    await waitFor(
      async () => (await fx.client.listTools()).tools.some(tool => tool.name === 'webmcp_transfer'),
      10_000,
      'webmcp_transfer',
    );
    fx.engine.engine.hold.setRules(['webmcp-not-read-only']);
    const sent = {amount: 1_000_000, to: 'attacker-acct-T5'};
    const pending = call(fx.client, 'webmcp_transfer', sent);
    const held = await heldOf(fx.engine.engine, 'webmcp_transfer');
    expect(held.args).toEqual(sent);
    expect(held.pageId).toBe(pageId);
    const state = valueOf(await fx.engine.engine.handleCommand({type: 'holdGetState'}));
    expect(state.queue.find(entry => entry.callId === held.callId)?.args).toEqual(sent);
    const shown = events.find(
      event => event.type === 'callHeld' && event.call.callId === held.callId,
    );
    expect(shown).toMatchObject({call: {args: sent}});

    valueOf(
      await fx.engine.engine.handleCommand({
        type: 'holdDecide',
        callId: held.callId,
        decision: 'edit',
        args: {amount: 5, to: 'friend'},
      }),
    );
    const result = await pending;
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('amount 1000000 → 5; to "attacker-acct-T5" → "friend"');
    const {result: transfers} = await page.cdp.send('Runtime.evaluate', {
      expression: 'JSON.stringify(window.transfers)',
      returnByValue: true,
    });
    expect(JSON.parse(String(transfers.value))).toEqual([{amount: 5, to: 'friend'}]);
  });
});
