/**
 * Tests: src/core/browser/collectors/index.ts, src/core/browser/collectors/NavigationLog.ts,
 *   src/core/browser/collectors/ConsoleCollector.ts,
 *   src/core/browser/collectors/NetworkCollector.ts
 */
import {describe, expect, it} from 'vitest';
import {
  consoleCollectorFeature,
  networkCollectorFeature,
} from '../../../src/core/browser/collectors/index.js';
import {
  NavigationLog,
  PRESERVED_NAVIGATIONS,
} from '../../../src/core/browser/collectors/NavigationLog.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

interface Item {
  id: number;
  label: string;
}

function makeLog(limit: number, evicted: {item: Item; reason: string}[] = []): NavigationLog<Item> {
  return new NavigationLog<Item>({
    perNavigationLimit: limit,
    preservedNavigations: PRESERVED_NAVIGATIONS,
    onEvict: (item, reason) => evicted.push({item, reason}),
  });
}

function add(log: NavigationLog<Item>, label: string): number {
  const id = log.allocateId();
  log.add({id, label});
  return id;
}

describe('NavigationLog', () => {
  it('changes its version on every change a listing could show, and only then', () => {
    const log = makeLog(5);
    const versions = [log.version];
    add(log, 'a');
    versions.push(log.version);
    log.touch();
    versions.push(log.version);
    log.startNavigation();
    versions.push(log.version);
    expect(new Set(versions).size).toBe(4);
    log.entries(true);
    log.find(1);
    expect(log.version).toBe(versions.at(-1));
  });

  it('caps each navigation, dropping (and counting) the oldest entries', () => {
    const evicted: {item: Item; reason: string}[] = [];
    const log = makeLog(5, evicted);
    for (let i = 1; i <= 12; i++) {
      add(log, `item ${i}`);
    }
    expect(log.entries().map(item => item.id)).toEqual([8, 9, 10, 11, 12]);
    expect(log.dropped()).toBe(7);
    expect(evicted.map(entry => entry.item.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(evicted.every(entry => entry.reason === 'full')).toBe(true);
    expect(log.find(3)).toBeUndefined();
    expect(log.find(10)?.label).toBe('item 10');
  });

  it('keeps the current and the last 3 navigations, with ids that never repeat', () => {
    const evicted: {item: Item; reason: string}[] = [];
    const log = makeLog(100, evicted);
    for (let navigation = 0; navigation < 10; navigation++) {
      if (navigation > 0) {
        log.startNavigation();
      }
      add(log, `nav ${navigation} a`);
      add(log, `nav ${navigation} b`);
    }
    expect(log.navigationCount).toBe(4);
    expect(log.entries().map(item => item.label)).toEqual(['nav 9 a', 'nav 9 b']);
    expect(log.entries(true).map(item => item.id)).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
    expect(log.find(12)).toBeUndefined();
    expect(log.find(13)?.label).toBe('nav 6 a');
    expect(evicted).toHaveLength(12);
    expect(evicted.every(entry => entry.reason === 'navigation')).toBe(true);
    expect(log.lastId).toBe(20);
  });

  it('moves the entries of a new document into its navigation', () => {
    const log = makeLog(100);
    add(log, 'old page script');
    add(log, 'old page image');
    add(log, 'navigation request');
    add(log, 'late old request');
    log.startNavigation(entries => entries.findIndex(item => item.label === 'navigation request'));
    add(log, 'new page script');
    expect(log.entries().map(item => item.label)).toEqual([
      'navigation request',
      'late old request',
      'new page script',
    ]);
    expect(log.entries(true).map(item => item.id)).toEqual([1, 2, 3, 4, 5]);
    // Lookups by id still work in both navigations.
    expect(log.find(2)?.label).toBe('old page image');
    expect(log.find(3)?.label).toBe('navigation request');
  });

  it('stays flat over thousands of navigations', () => {
    const evicted: {item: Item; reason: string}[] = [];
    const log = makeLog(50, evicted);
    let added = 0;
    let maxRetained = 0;
    for (let navigation = 0; navigation < 5_000; navigation++) {
      log.startNavigation(entries => entries.length - 1);
      // Some navigations overflow their cap.
      const count = navigation % 7 === 0 ? 80 : 3;
      for (let i = 0; i < count; i++) {
        add(log, 'x');
        added++;
      }
      maxRetained = Math.max(maxRetained, log.retainedCount);
    }
    expect(log.navigationCount).toBe(PRESERVED_NAVIGATIONS + 1);
    expect(maxRetained).toBeLessThanOrEqual((PRESERVED_NAVIGATIONS + 1) * 50);
    expect(added - evicted.length).toBe(log.retainedCount);
    expect(log.lastId).toBe(added);
  });
});

describe('collectors on a real page', () => {
  const fx = useEngineWithFixtures({
    routes: server => {
      server.route('/net/item', (_request, response) => {
        response.writeHead(200, {'Content-Type': 'text/plain', 'Cache-Control': 'no-store'});
        response.end('item');
      });
      server.route('/favicon.ico', (_request, response) => {
        response.writeHead(204).end();
      });
    },
  });

  async function waitForConsole(
    pageId: number,
    fragment: string,
    timeoutMs = 30_000,
  ): Promise<void> {
    await waitFor(
      async () =>
        (await call(fx.client, 'list_console_messages', {pageId})).text.includes(fragment),
      timeoutMs,
      fragment,
    );
  }

  it('keeps at most 1,000 requests per navigation, with stable ids', async () => {
    const id = await fx.openPage('/network-many.html?count=1030');
    await waitForConsole(id, 'many done', 60_000);
    const {text} = await call(fx.client, 'list_network_requests', {pageId: id});
    const ids = [...text.matchAll(/^reqid=(\d+)/gm)].map(match => Number(match[1]));
    expect(ids).toHaveLength(1_000);
    expect(text).toContain('Showing 1-1000 of 1000 (Page 1 of 1).');
    // The newest are kept, contiguous, in order; the document request was among the dropped.
    const last = ids[ids.length - 1] ?? 0;
    expect(ids).toEqual(Array.from({length: 1_000}, (_, index) => last - 999 + index));
    expect(text).not.toContain('network-many.html');
    const dropped = Number(/Note: (\d+) older requests were dropped/.exec(text)?.[1]);
    expect(dropped).toBe(last - 1_000);
    expect(text).toContain('(at most 1000 are kept per navigation)');

    const state = fx.engine.engine.browser.pages.byId(id);
    expect(networkCollectorFeature.get(state).log.retainedCount).toBe(1_000);

    // After a navigation the same requests keep their ids. (The new document's request entered
    // the full navigation before it committed, pushing the oldest one out, then moved on.)
    await call(fx.client, 'navigate_page', {pageId: id, url: fx.server.url('/other.html')});
    const preserved = await call(fx.client, 'list_network_requests', {
      pageId: id,
      includePreservedRequests: true,
    });
    const preservedIds = [...preserved.text.matchAll(/^reqid=(\d+)/gm)].map(match =>
      Number(match[1]),
    );
    expect(preservedIds.length).toBeGreaterThanOrEqual(1_000);
    expect(preservedIds.slice(0, 999)).toEqual(ids.slice(1));
    expect(preserved.text).toMatch(
      new RegExp(`^reqid=${last + 1} GET \\S*/other\\.html \\[200\\]$`, 'm'),
    );
  });

  it('keeps at most 10,000 console messages per navigation', async () => {
    const id = await fx.openPage('/console-nav.html?spam');
    await waitForConsole(id, 'loaded ?spam');
    await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { for (let i = 0; i < 10050; i++) console.log("spam " + i); return true; }',
    });
    const text = await waitFor(async () => {
      const result = await call(fx.client, 'list_console_messages', {
        pageId: id,
        pageSize: 1,
        pageIdx: 9_999,
      });
      return result.text.includes('spam 10049') ? result.text : undefined;
    }, 30_000);
    expect(text).toContain('Showing 10000-10000 of 10000 (Page 10000 of 10000).');
    expect(text).toContain(
      'Note: 51 older messages were dropped (at most 10000 are kept per navigation).',
    );
    const first = await call(fx.client, 'list_console_messages', {pageId: id, pageSize: 1});
    expect(first.text).toMatch(/^msgid=\d+ \[log\] spam 50$/m);
    expect(
      consoleCollectorFeature.get(fx.engine.engine.browser.pages.byId(id)).log.retainedCount,
    ).toBe(10_000);
  });

  it('holds only the current and last 3 navigations over many navigations', async () => {
    const hops = 40;
    // The page may have moved on by the time new_page answers.
    const id = await fx.openPage(`/console-hop.html?n=0&max=${hops}`, '/console-hop.html');
    await waitFor(
      async () => {
        const {text} = await call(fx.client, 'list_console_messages', {pageId: id});
        return text.includes('hops done');
      },
      60_000,
      'the page to finish navigating',
    );
    const state = fx.engine.engine.browser.pages.byId(id);
    const consoleLog = consoleCollectorFeature.get(state).log;
    const networkLog = networkCollectorFeature.get(state).log;
    expect(consoleLog.navigationCount).toBe(PRESERVED_NAVIGATIONS + 1);
    expect(networkLog.navigationCount).toBe(PRESERVED_NAVIGATIONS + 1);
    // Each hop logs one line (the last two) and makes two requests (document, fetch).
    expect(consoleLog.retainedCount).toBe(5);
    // Two requests per hop (document, fetch), plus the browser's favicon requests, which may
    // start in one document and land in the next.
    expect(networkLog.retainedCount).toBeLessThanOrEqual(16);
    const requests = await call(fx.client, 'list_network_requests', {
      pageId: id,
      includePreservedRequests: true,
    });
    const urls = [...requests.text.matchAll(/^reqid=\d+ GET \S*?(\/console-\S+) \[/gm)].map(
      match => match[1],
    );
    const expected = [];
    for (let hop = hops - 3; hop <= hops; hop++) {
      expected.push(`/console-hop.html?n=${hop}&max=${hops}`, `/console-nav.html?from=${hop}`);
    }
    expect(urls).toEqual(expected);
    // Ids kept counting up through all 41 documents.
    expect(consoleLog.lastId).toBe(hops + 2);

    const preserved = await call(fx.client, 'list_console_messages', {
      pageId: id,
      includePreservedMessages: true,
    });
    const texts = [...preserved.text.matchAll(/^msgid=\d+ \[log\] (.*)$/gm)].map(match => match[1]);
    expect(texts).toEqual([
      `hop ${hops - 3}`,
      `hop ${hops - 2}`,
      `hop ${hops - 1}`,
      `hop ${hops}`,
      'hops done',
    ]);
  });
});
