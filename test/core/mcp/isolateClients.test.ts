/**
 * --isolateClients: each client session gets its own browser context (cookies are not shared),
 * lists only its own pages, and addresses another's page exactly as a closed one; the inspector
 * still sees every page with who opened it; the context closes with the session. The Connection
 * panel's switch applies to sessions started after it. Real MCP clients over HTTP, real Chromium.
 *
 * Tests: src/core/browser/pages/ClientPages.ts, src/core/browser/pages/BrowserContexts.ts,
 *   src/core/browser/pages/PageRegistry.ts
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({flags: ['--isolateClients'], clientName: 'first'});

function pageIds(text: string): number[] {
  return text
    .split('\n')
    .filter(line => /^\d+: /.test(line))
    .map(line => Number(line.split(':')[0]));
}

async function opened(client: Client, url: string): Promise<number> {
  const reply = await call(client, 'new_page', {url});
  expect(reply.isError, reply.text).toBe(false);
  const id = Number(/^Opened page (\d+)\.$/m.exec(reply.text)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

describe('--isolateClients', () => {
  it('gives each client its own cookies and its own page list', async () => {
    const alice = await fx.engine.connect('alice');
    const bob = await fx.engine.connect('bob');
    // A fresh isolated client sees no page: not even the browser's first one.
    expect(pageIds((await call(alice, 'list_pages')).text)).toEqual([]);

    const alicePage = await opened(alice, fx.server.url('/index.html?who=alice'));
    const bobPage = await opened(bob, fx.server.url('/index.html?who=bob'));
    const set = await call(alice, 'evaluate_script', {
      pageId: alicePage,
      function: "() => { document.cookie = 'who=alice; path=/'; return document.cookie; }",
    });
    expect(set.text).toContain('who=alice');
    const bobCookies = await call(bob, 'evaluate_script', {
      pageId: bobPage,
      function: '() => document.cookie',
    });
    expect(bobCookies.isError, bobCookies.text).toBe(false);
    expect(bobCookies.text).not.toContain('who=alice');
    // Alice's second page shares her context.
    const aliceSecond = await opened(alice, fx.server.url('/other.html?who=alice'));
    const again = await call(alice, 'evaluate_script', {
      pageId: aliceSecond,
      function: '() => document.cookie',
    });
    expect(again.text).toContain('who=alice');

    const aliceList = await call(alice, 'list_pages');
    const bobList = await call(bob, 'list_pages');
    expect(pageIds(aliceList.text)).toEqual([alicePage, aliceSecond]);
    expect(pageIds(bobList.text)).toEqual([bobPage]);
    // The client's own context is its default: no isolatedContext label.
    expect(aliceList.text).not.toContain('isolatedContext=');

    // Another client's page answers exactly as a closed page does.
    const foreign = await call(bob, 'evaluate_script', {
      pageId: alicePage,
      function: '() => 1',
    });
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toBe(
      `No page with id ${alicePage}. Open pages: ${bobPage}. Call list_pages to see them.`,
    );
    const selectForeign = await call(bob, 'select_page', {pageId: alicePage});
    expect(selectForeign.text).toBe(
      `Error: No page with id ${alicePage}. Open pages: ${bobPage}. Call list_pages to see them.`,
    );
    const closeForeign = await call(bob, 'close_page', {pageId: aliceSecond});
    expect(closeForeign.isError).toBe(true);
    expect(fx.engine.engine.browser.pages.list().some(page => page.id === aliceSecond)).toBe(true);

    // The inspector sees every page, with who opened it.
    const pages = fx.engine.engine.state().pages;
    const owners = new Map(pages.map(page => [page.id, page.owner?.name]));
    expect(owners.get(alicePage)).toBe('alice');
    expect(owners.get(aliceSecond)).toBe('alice');
    expect(owners.get(bobPage)).toBe('bob');
    expect(pages.find(page => page.id === alicePage)?.owner?.isolated).toBe(true);
    expect(pages.some(page => page.owner === undefined)).toBe(true);

    // Alice's session ends (DELETE): her context closes, her pages with it; bob's stay.
    const transport = alice.transport;
    expect(transport).toBeInstanceOf(StreamableHTTPClientTransport);
    if (transport instanceof StreamableHTTPClientTransport) {
      await transport.terminateSession();
    }
    await waitFor(
      () =>
        !fx.engine.engine.browser.pages
          .list()
          .some(page => page.id === alicePage || page.id === aliceSecond),
      15_000,
      "alice's pages to close with her session",
    );
    expect(pageIds((await call(bob, 'list_pages')).text)).toEqual([bobPage]);
  });

  it('named isolated contexts stay per client, and the switch applies to sessions started after it', async () => {
    const carol = await fx.engine.connect('carol');
    const dave = await fx.engine.connect('dave');
    const carolPage = await opened(carol, fx.server.url('/index.html?who=carol'));
    await call(carol, 'evaluate_script', {
      pageId: carolPage,
      function: "() => { document.cookie = 'shared=carol; path=/'; }",
    });
    const carolNamed = await call(carol, 'new_page', {
      url: fx.server.url('/index.html?named=carol'),
      isolatedContext: 'same-name',
    });
    expect(carolNamed.text).toContain('isolatedContext=same-name');
    const daveNamed = await call(dave, 'new_page', {
      url: fx.server.url('/index.html?named=dave'),
      isolatedContext: 'same-name',
    });
    const davePage = Number(/^Opened page (\d+)\.$/m.exec(daveNamed.text)?.[1]);
    const carolNamedPage = Number(/^Opened page (\d+)\.$/m.exec(carolNamed.text)?.[1]);
    await call(carol, 'evaluate_script', {
      pageId: carolNamedPage,
      function: "() => { document.cookie = 'named=carol; path=/'; }",
    });
    const daveSees = await call(dave, 'evaluate_script', {
      pageId: davePage,
      function: '() => document.cookie',
    });
    expect(daveSees.text).not.toContain('carol');

    // Switched off: a session started now shares the default context and sees the shared pages.
    expect(fx.engine.engine.roster.setIsolateClients(false)).toEqual({enabled: false});
    const erin = await fx.engine.connect('erin');
    const erinList = pageIds((await call(erin, 'list_pages')).text);
    expect(erinList).toContain(1);
    expect(erinList).not.toContain(carolPage);
    const erinPage = await opened(erin, fx.server.url('/index.html?who=erin'));
    const erinCookies = await call(erin, 'evaluate_script', {
      pageId: erinPage,
      function: '() => document.cookie',
    });
    expect(erinCookies.text).not.toContain('carol');
    // Carol, started before the switch, is still isolated: she does not see erin's page.
    expect(pageIds((await call(carol, 'list_pages')).text)).not.toContain(erinPage);
    const clients = fx.engine.engine.state().clients;
    expect(clients.find(client => client.name === 'carol')?.isolated).toBe(true);
    expect(clients.find(client => client.name === 'erin')?.isolated).toBe(false);
    fx.engine.engine.roster.setIsolateClients(true);
  });
});
