/**
 * The inspector against hostile or careless input, end to end: the URL opened exactly as printed
 * ("#token=<token>") gets the token help screen, bidi controls from pages and clients are shown
 * visibly in every panel, and sessions the server closes are explained in the Connection panel.
 */
import type {Browser, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {
  connectMcp,
  type InspectorFixture,
  type McpTestClient,
  openInspector,
  openPanel,
  screenshot,
  type ServeProcess,
  startInspectorFixture,
} from '../helpers/ui.js';

const RLO = '\u202E';
const ISOLATE = '\u2066';

let fixture: InspectorFixture | undefined;
let serve: ServeProcess;
let browser: Browser;
let page: Page;
let hostile: McpTestClient;

beforeAll(async () => {
  fixture = await startInspectorFixture({
    flags: ['--sessionIdleTimeout', '2'],
    clientName: 'hostile-text-agent',
  });
  ({serve, browser, page} = fixture);
  hostile = await connectMcp(serve, `evil${RLO}gnp.exe${ISOLATE}`);
});

afterAll(async () => {
  await hostile.close().catch(() => undefined);
  await fixture?.dispose();
});

async function panelText(selector = 'body'): Promise<string> {
  return page.$eval(selector, element => element.textContent);
}

describe('the URL opened exactly as printed', () => {
  it('shows the token help screen, not a blank page', async () => {
    const printed = await openInspector(browser, `${serve.inspectorUrl}#token=<token>`, {
      waitConnected: false,
    });
    await printed.page.waitForSelector('aria/MCP Browser Inspector needs its token', {
      timeout: 15_000,
    });
    const text = await printed.page.$eval('main', element => element.textContent);
    expect(text).toContain('not a valid inspector token');
    expect(printed.errors.filter(error => error.includes('WebSocket'))).toEqual([]);
    await screenshot(printed.page, 'malformed-token');
    await printed.page.close();
  });
});

describe('bidi controls from pages and clients', () => {
  it('are shown as ⟨U+XXXX⟩ in the pages, log, detail and connection panels', async () => {
    const title = `invoice${RLO}fdp.exe`;
    const site = await new FixtureServer().start();
    const url = site.html('/hostile-title.html', `<title>${title}</title><p>x</p>`);
    // The context name is client-supplied text shown in the Pages panel.
    await hostile.client.callTool({
      name: 'new_page',
      arguments: {url, isolatedContext: `ctx${RLO}lmth`},
    });
    await hostile.client.callTool({name: 'list_pages', arguments: {}});

    await openPanel(page, 'Pages');
    await waitFor(
      async () => (await panelText()).includes('ctx⟨U+202E⟩lmth'),
      10_000,
      'the context name',
    );
    expect(await panelText('.page-list')).not.toContain(RLO);
    await screenshot(page, 'bidi-pages');

    await openPanel(page, 'Log');
    await waitFor(
      async () => (await panelText()).includes('evil⟨U+202E⟩gnp.exe⟨U+2066⟩'),
      10_000,
      'client',
    );
    const rows = await page.$$('[role=row][data-call-id]');
    const last = rows.at(-1);
    await last?.click();
    await waitFor(async () => (await panelText()).includes('Response'), 5_000, 'detail');
    const logText = await panelText();
    expect(logText).not.toContain(RLO);
    expect(logText).not.toContain(ISOLATE);
    await screenshot(page, 'bidi-log');

    await openPanel(page, 'Connection');
    await waitFor(
      async () => (await panelText('table.clients')).includes('⟨U+202E⟩'),
      10_000,
      'clients',
    );
    expect(await panelText('table.clients')).not.toContain(RLO);
    await site.stop();
  });
});

describe('sessions the server closes', () => {
  it('are listed under "Closed by the server" in the Connection panel', async () => {
    const response = await fetch(serve.mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${serve.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: {name: 'forgetful-client', version: '0.1'},
        },
      }),
    });
    await response.text();
    await openPanel(page, 'Connection');
    await waitFor(
      async () => (await panelText()).includes('Closed by the server'),
      15_000,
      'the expired session',
    );
    const text = await panelText('.expired-sessions');
    expect(text).toContain('forgetful-client');
    expect(text).toMatch(/idle for/);
    await page.$eval('.expired-sessions', element => element.scrollIntoView());
    await screenshot(page, 'expired-sessions');
  });
});
