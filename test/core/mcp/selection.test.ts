/**
 * Each client session has its own selected page. A queued call that names no page acts on its
 * caller's page selected when it runs, not when it was queued, and another client's select_page
 * never moves it. Two clients interleaving new_page, select_page, calls without pageId and
 * close_page each act only on their own selection. Real MCP clients over HTTP, a real Chromium,
 * and a page call held open by the test.
 *
 * Tests: src/core/browser/pages/PageRegistry.ts, src/core/mcp/callLocks.ts,
 *   src/core/mcp/ToolRunner.ts
 */
import type {ServerResponse} from 'node:http';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {afterEach, describe, expect, it} from 'vitest';
import type {EventEnvelope} from '../../../src/shared/protocol.js';
import {call, openPage, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

/** Requests to /hold wait here until the test answers them. */
const held: ServerResponse[] = [];

const fx = useEngineWithFixtures({
  flags: ['--no-pageIdRouting'],
  clientName: 'long-caller',
  routes: server =>
    server.route('/hold', (_request, response) => {
      held.push(response);
    }),
});

function answerHeld(): void {
  for (const response of held.splice(0)) {
    response.writeHead(200, {'Content-Type': 'text/plain'}).end('go');
  }
}

afterEach(answerHeld);

const HOLD_THEN_SEARCH = "async () => { await fetch('/hold'); return location.search; }";
const SEARCH = '() => location.search';

/** The calls that ended while `body` ran. */
async function endedDuring(body: () => Promise<void>): Promise<EventEnvelope[]> {
  const ended: EventEnvelope[] = [];
  const unsubscribe = fx.engine.engine.hub.onEvent(envelope => {
    if (envelope.event.type === 'toolCallEnded') {
      ended.push(envelope);
    }
  });
  try {
    await body();
  } finally {
    unsubscribe();
  }
  return ended;
}

/** The id marked [selected] in a page list. */
function selectedIn(text: string): number | undefined {
  const line = text.split('\n').find(l => /^\d+: .*\[selected\]/.test(l));
  return line === undefined ? undefined : Number(line.split(':')[0]);
}

describe('page resolution under the lock', () => {
  it("a queued call without pageId runs on its caller's page selected while it waited", async () => {
    const caller = await fx.engine.connect('selecting-caller');
    const pageA = await openPage(caller, fx.server.url('/index.html?page=a'));
    const pageB = await openPage(caller, fx.server.url('/index.html?page=b'));
    expect((await call(caller, 'select_page', {pageId: pageA})).isError).toBe(false);
    const ended = await endedDuring(async () => {
      const long = call(caller, 'evaluate_script', {function: HOLD_THEN_SEARCH});
      await waitFor(() => held.length === 1, 10_000, 'the long call to hold page A');

      const lockA = fx.engine.engine.browser.pages.byId(pageA).lock;
      const queued = call(caller, 'evaluate_script', {function: SEARCH});
      await waitFor(() => lockA.waiting === 1, 10_000, 'the queued call to wait for page A');

      const selected = await call(caller, 'select_page', {pageId: pageB});
      expect(selected.isError, selected.text).toBe(false);
      answerHeld();

      const longResult = await long;
      expect(longResult.isError, longResult.text).toBe(false);
      expect(longResult.text).toContain('"?page=a"');
      const queuedResult = await queued;
      expect(queuedResult.isError, queuedResult.text).toBe(false);
      expect(queuedResult.text).toContain('"?page=b"');
      expect(queuedResult.text).not.toContain('"?page=a"');
    });
    const queuedEnd = ended
      .map(envelope => envelope.event)
      .find(event => event.type === 'toolCallEnded' && event.result.text.includes('?page=b'));
    expect(queuedEnd).toMatchObject({pageId: pageB, status: 'ok'});
  });

  it("another client's select_page does not move a queued call", async () => {
    const owner = await fx.engine.connect('queued-owner');
    const other = await fx.engine.connect('other-selector');
    const pageC = await openPage(owner, fx.server.url('/index.html?page=c'));
    const pageD = await openPage(other, fx.server.url('/index.html?page=d'));
    const long = call(owner, 'evaluate_script', {function: HOLD_THEN_SEARCH});
    await waitFor(() => held.length === 1, 10_000, 'the long call to hold page C');
    const lockC = fx.engine.engine.browser.pages.byId(pageC).lock;
    const queued = call(owner, 'evaluate_script', {function: SEARCH});
    await waitFor(() => lockC.waiting === 1, 10_000, 'the queued call to wait for page C');

    // The other client moves its own selection around, onto the owner's page and off it.
    expect((await call(other, 'select_page', {pageId: pageC})).isError).toBe(false);
    expect((await call(other, 'select_page', {pageId: pageD})).isError).toBe(false);
    answerHeld();

    expect((await long).text).toContain('"?page=c"');
    const queuedResult = await queued;
    expect(queuedResult.isError, queuedResult.text).toBe(false);
    expect(queuedResult.text).toContain('"?page=c"');
  });
});

describe('two clients, one browser', () => {
  let alice: Client;
  let bob: Client;

  it('each new_page selects the page for its own client only', async () => {
    alice = await fx.engine.connect('alice');
    bob = await fx.engine.connect('bob');
    const aliceOpened = await call(alice, 'new_page', {
      url: fx.server.url('/index.html?who=alice'),
    });
    const bobOpened = await call(bob, 'new_page', {url: fx.server.url('/other.html?who=bob')});
    const alicePage = Number(/^Opened page (\d+)\.$/m.exec(aliceOpened.text)?.[1]);
    const bobPage = Number(/^Opened page (\d+)\.$/m.exec(bobOpened.text)?.[1]);
    expect(alicePage).toBeGreaterThan(0);
    expect(bobPage).toBe(alicePage + 1);
    expect(aliceOpened.text.split('\n')[0]).toBe(`Opened page ${alicePage}.`);
    // Bob's newer page is not alice's selection, in bob's reply or in hers.
    expect(selectedIn(bobOpened.text)).toBe(bobPage);
    const aliceList = await call(alice, 'list_pages');
    expect(selectedIn(aliceList.text)).toBe(alicePage);
    expect(aliceList.result.structuredContent).toMatchObject({
      pages: expect.arrayContaining([
        expect.objectContaining({id: alicePage, selected: true}),
        expect.objectContaining({id: bobPage, selected: false}),
      ]) as unknown,
    });
    expect(selectedIn((await call(bob, 'list_pages')).text)).toBe(bobPage);

    // Calls without pageId act on the caller's own page, interleaved.
    const [aliceSearch, bobSearch] = await Promise.all([
      call(alice, 'evaluate_script', {function: SEARCH}),
      call(bob, 'evaluate_script', {function: SEARCH}),
    ]);
    expect(aliceSearch.text).toContain('"?who=alice"');
    expect(bobSearch.text).toContain('"?who=bob"');

    // Bob selects alice's page: only his selection moves.
    const bobSelects = await call(bob, 'select_page', {pageId: alicePage});
    expect(selectedIn(bobSelects.text)).toBe(alicePage);
    expect((await call(bob, 'evaluate_script', {function: SEARCH})).text).toContain('?who=alice');
    expect(selectedIn((await call(alice, 'list_pages')).text)).toBe(alicePage);
    expect((await call(bob, 'select_page', {pageId: bobPage})).isError).toBe(false);

    // Alice closes her own page: her selection falls back with today's note; bob's stays.
    const closed = await call(alice, 'close_page', {pageId: alicePage});
    expect(closed.text).toMatch(
      /^Note: the previously selected page was closed\. Page \d+ is now selected\.$/m,
    );
    const fallback = selectedIn(closed.text);
    expect(fallback).toBeDefined();
    expect(fallback).not.toBe(bobPage);
    expect(selectedIn((await call(bob, 'list_pages')).text)).toBe(bobPage);
    expect((await call(bob, 'evaluate_script', {function: SEARCH})).text).toContain('?who=bob');
  });

  it('a page another client closed is reported once to the client that had it selected', async () => {
    const bobPage = selectedIn((await call(bob, 'list_pages')).text);
    expect(bobPage).toBeDefined();
    const closed = await call(alice, 'close_page', {pageId: bobPage});
    expect(closed.isError, closed.text).toBe(false);

    const next = await call(bob, 'evaluate_script', {function: SEARCH});
    expect(next.isError).toBe(true);
    const lines = next.text.split('\n');
    expect(lines[0]).toBe(
      `Note: page ${bobPage}, which you had selected, was closed by another client (alice). No page is selected now: call list_pages, then select_page, or new_page.`,
    );
    expect(next.text).toContain('No page selected.');
    const listed = await call(bob, 'list_pages');
    expect(listed.text).not.toContain('Note:');
    expect(selectedIn(listed.text)).toBeUndefined();

    // Alice, who closed it, is told nothing of the sort.
    expect((await call(alice, 'list_pages')).text).not.toContain('closed by another client');
    const reopened = await openPage(bob, fx.server.url('/other.html?who=bob2'));
    expect((await call(bob, 'evaluate_script', {function: SEARCH})).text).toContain('?who=bob2');
    expect(reopened).toBeGreaterThan(0);
  });
});
