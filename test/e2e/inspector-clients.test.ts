/**
 * Several agents in the inspector, end to end: the real headless server, two real MCP agents over
 * HTTP and the UI in headless Chromium. Pages are grouped by the client that opened them (label
 * and colour) with who selected each; the Connection panel lists only live clients, with the
 * ones that left apart (when and why), the isolation switch, and a WebMCP line that agrees with
 * the WebMCP tab; a held call shows its client and the client that opened its page. Screenshots,
 * light and dark, in test-results/screenshots/.
 *
 * Tests: src/renderer/src/features/connection/clientsModel.ts, src/core/inspector/InspectorPeer.ts
 */
import type {Page} from 'puppeteer-core';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {uidOf} from '../helpers/snapshotText.js';
import {
  connectMcp,
  type InspectorFixture,
  type McpTestClient,
  openPanel,
  screenshot,
  startInspectorFixture,
  unnamedControls,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

const PAGE = (name: string): string =>
  `<!doctype html><title>${name}'s page</title><h1>${name}</h1><button onclick="document.title='clicked'">Go</button>`;

let fixture: InspectorFixture | undefined;
let site: FixtureServer | undefined;
let cursor: McpTestClient | undefined;
let page: Page;
let claudePage: number;
let cursorPage: number;

function ready<T>(value: T | undefined, what: string): T {
  if (value === undefined) {
    throw new Error(`no ${what}`);
  }
  return value;
}

async function opened(client: McpTestClient, url: string): Promise<number> {
  const reply = await call(client.client, 'new_page', {url});
  expect(reply.isError, reply.text).toBe(false);
  return Number(/^Opened page (\d+)\./.exec(reply.text)?.[1]);
}

/** Light, then dark, then back to light. */
async function screenshots(name: string): Promise<void> {
  await screenshot(page, `${name}-light`);
  await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'dark'}]);
  await screenshot(page, `${name}-dark`);
  await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}]);
}

async function panelText(): Promise<string> {
  return page.$eval('[role=tabpanel]:not([hidden])', element => element.textContent);
}

beforeAll(async () => {
  site = await new FixtureServer().start();
  site.html('/claude.html', PAGE('claude'));
  site.html('/cursor.html', PAGE('cursor'));
  fixture = await startInspectorFixture({
    flags: ['--hold=tool:click'],
    clientName: 'claude-code',
  });
  page = fixture.page;
  cursor = await connectMcp(fixture.serve, 'cursor');
  claudePage = await opened(fixture.agent, site.url('/claude.html'));
  cursorPage = await opened(cursor, site.url('/cursor.html'));
  // A client that ends its session, and one that just goes away.
  const done = await connectMcp(fixture.serve, 'finished-cli-run');
  await call(done.client, 'list_pages');
  const transport = done.client.transport;
  if (transport instanceof StreamableHTTPClientTransport) {
    await transport.terminateSession();
  }
  const quiet = await connectMcp(fixture.serve, 'crashed-agent');
  await call(quiet.client, 'list_pages');
  await quiet.close();
});

afterAll(async () => {
  await cursor?.close();
  await fixture?.dispose();
  await site?.stop();
});

describe('several agents in the inspector (e2e)', () => {
  it('Pages groups the pages by the client that opened them', async () => {
    await openPanel(page, 'Pages');
    await page.waitForSelector(`[data-owner-id] [data-page-id="${cursorPage}"]`);
    const groups = await page.$$eval('.page-group', elements =>
      elements.map(element => ({
        heading: element.querySelector('.page-group__heading')?.textContent ?? '',
        pages: [...element.querySelectorAll('[data-page-id]')].map(item =>
          Number(item.getAttribute('data-page-id')),
        ),
      })),
    );
    expect(groups).toEqual([
      {heading: 'Opened by you or the browser', pages: [1]},
      {heading: 'claude-code', pages: [claudePage]},
      {heading: 'cursor', pages: [cursorPage]},
    ]);
    const selectors = await page.$eval(
      `[data-page-id="${cursorPage}"] .page-item__selectors`,
      element => element.textContent,
    );
    expect(selectors).toBe('selected bycursor');
    // A client has one colour everywhere: its group heading and where it selected a page.
    const colours = await page.$eval(`[data-page-id="${cursorPage}"]`, item => {
      const group = item.closest('.page-group');
      const dot = (root: Element | null): string =>
        root
          ? getComputedStyle(root.querySelector('.client-badge__dot') ?? root).backgroundColor
          : '';
      return [
        dot(group?.querySelector('.page-group__heading') ?? null),
        dot(item.querySelector('.page-item__selectors')),
      ];
    });
    expect(colours[0]).toMatch(/^rgb/);
    expect(colours[0]).toBe(colours[1]);
    expect(await unnamedControls(page)).toEqual([]);
    await screenshots('clients-pages');
  });

  it('Connection lists the live clients, the ones that left apart, and the switch', async () => {
    await openPanel(page, 'Connection');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.not-connected__list li').length === 2 &&
        document.querySelector('.clients tbody')?.children.length === 2,
      {timeout: scaled(20_000)},
    );
    const live = await page.$$eval('.clients tbody tr', rows =>
      rows.map(row => row.querySelector('.client-badge__name')?.textContent ?? ''),
    );
    expect(live.sort()).toEqual(['claude-code', 'cursor']);
    // What the panel is opened for comes first: the live clients, then the setup, folded while
    // clients are connected.
    const order = await page.$eval('[role=tabpanel]:not([hidden])', panel => {
      const clients = panel.querySelector('.clients');
      const setup = panel.querySelector('[data-testid=connection-setup]');
      return {
        clientsFirst:
          clients !== null &&
          setup !== null &&
          (clients.compareDocumentPosition(setup) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
        setupOpen: setup instanceof HTMLDetailsElement && setup.open,
      };
    });
    expect(order).toEqual({clientsFirst: true, setupOpen: false});
    const left = await page.$$eval('.not-connected__list li', items =>
      items.map(item => item.textContent),
    );
    expect(
      left.some(text => text.includes('finished-cli-run') && text.includes('closed by the client')),
    ).toBe(true);
    expect(
      left.some(text => text.includes('crashed-agent') && text.includes('until it expires')),
    ).toBe(true);
    // The browser runs and the pages are on 127.0.0.1 (secure): WebMCP is known.
    const webmcp = await page.$eval('[data-testid=webmcp-line]', element => element.textContent);
    expect(webmcp).toMatch(/^Available/);

    const box = await page.$('.isolation__switch input');
    expect(await box?.evaluate(input => input instanceof HTMLInputElement && input.checked)).toBe(
      false,
    );
    await box?.click();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('.isolation__switch input')?.checked === true,
    );
    expect(await unnamedControls(page)).toEqual([]);
    await page.$eval('.isolation', element => element.scrollIntoView({block: 'start'}));
    await screenshots('clients-connection');
  });

  it('a held call shows its client and the client that opened its page', async () => {
    const agentCursor = ready(cursor, 'cursor');
    const snapshot = (await call(agentCursor.client, 'take_snapshot', {pageId: claudePage})).text;
    const pending = call(agentCursor.client, 'click', {
      pageId: claudePage,
      uid: uidOf(snapshot, 'button "Go"'),
    }).catch(() => undefined);
    await openPanel(page, 'Hold');
    await page.waitForSelector('[data-testid=held-call] .hold-detail__owner', {
      timeout: scaled(15_000),
    });
    const text = await panelText();
    expect(text).toContain('opened by claude-code');
    const queue = await page.$eval('.hold-queue__who', element => element.textContent);
    expect(queue).toContain('cursor');
    await page.waitForSelector('[data-testid=held-target-outline]', {timeout: scaled(15_000)});
    await screenshots('clients-hold');
    await page.keyboard.press('a');
    await pending;
  });

  it('the Log shows each call with its client label and colour', async () => {
    await openPanel(page, 'Log');
    const clients = await page.$$eval('[role=grid] .log-cell--client', cells =>
      cells.map(cell => cell.textContent),
    );
    expect(clients).toContain('cursor');
    expect(clients).toContain('claude-code');
    await screenshots('clients-log');
  });
});
