/**
 * The inspector against hostile or careless input, end to end: the URL opened exactly as printed
 * ("#token=<token>") gets the token help screen, bidi controls and other invisible characters from
 * pages, clients and tool results are shown visibly in every panel (Log grid and call detail,
 * Pages, Recordings, Hold, Connection), and client sessions the server closes are explained in the
 * Connection panel.
 *
 * Tests: src/renderer/src/ui/revealInvisible.ts, src/core/inspector/InspectorSocket.ts
 */
import {CallToolResultSchema} from '@modelcontextprotocol/sdk/types.js';
import type {Browser, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {
  INITIALIZED,
  postMcp,
  PROTOCOL_VERSION,
  rawInitialize,
  sessionHeaders,
} from '../helpers/rawMcp.js';
import {
  clickRow,
  connectMcp,
  type InspectorFixture,
  invisibleShown,
  type McpTestClient,
  openInspector,
  openPanel,
  rowEnded,
  screenshot,
  type ServeProcess,
  startInspectorFixture,
  waitForRows,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

const RLO = '\u202E';
const ISOLATE = '\u2066';

let fixture: InspectorFixture | undefined;
let serve: ServeProcess;
let browser: Browser;
let page: Page;
let hostile: McpTestClient;

beforeAll(async () => {
  fixture = await startInspectorFixture({
    flags: ['--sessionIdleTimeout', '2', '--hold=tool:fill'],
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
      timeout: scaled(15_000),
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
    // The client's own row, ended, before the click: the name can show elsewhere on the page
    // (the connection summary) before the grid has its rows, and a click then finds none.
    await waitForRows(
      page,
      rows =>
        rows.some(
          row =>
            row.tool === 'list_pages' &&
            row.client.includes('evil⟨U+202E⟩gnp.exe⟨U+2066⟩') &&
            rowEnded(row),
        ),
      "the client's list_pages row",
    );
    await clickRow(page, 'list_pages', undefined, 'evil⟨U+202E⟩gnp.exe⟨U+2066⟩');
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

describe('invisible characters in every panel', () => {
  // Bidi overrides and isolates, zero-width, a control character, a line separator, a tag.
  const HIDDEN = `\u202Eexe.\u2066png\u2069\u200B\u0007\u2028\u{E0041}`;

  it('are shown as ⟨U+XXXX⟩ in the log, the call detail, pages, recordings and hold', async () => {
    const site = await new FixtureServer().start();
    const url = site.html(
      '/hostile-invisible.html',
      `<title>bill${HIDDEN}</title><p>x</p><input aria-label="Name">` +
        `<script>console.log(${JSON.stringify(`console says ${HIDDEN}`)});</script>`,
    );
    const client = hostile.client;
    const opened = await client.callTool({name: 'new_page', arguments: {url}});
    const pageId = Number(/^(\d+): [^\n]*hostile-invisible/m.exec(textOfResult(opened))?.[1]);
    await client.callTool({name: 'list_console_messages', arguments: {pageId}});
    await client.callTool({
      name: 'evaluate_script',
      arguments: {pageId, function: `() => ${JSON.stringify(`result ${HIDDEN}`)}`},
    });

    await openPanel(page, 'Log');
    await waitForRows(page, rows => rows.some(row => row.tool === 'evaluate_script'), 'the calls');
    await clickRow(page, 'evaluate_script');
    await waitFor(
      async () => (await panelText()).includes('result ⟨U+202E⟩exe.'),
      10_000,
      'result',
    );
    expect(await invisibleShown(page)).toEqual([]);
    await screenshot(page, 'invisible-log-detail');
    await clickRow(page, 'list_console_messages');
    await waitFor(async () => (await panelText()).includes('console says'), 10_000, 'console');
    expect(await invisibleShown(page)).toEqual([]);

    await openPanel(page, 'Pages');
    await waitFor(
      async () => (await panelText('.page-groups')).includes('hostile-invisible'),
      10_000,
      'the page',
    );
    expect(await invisibleShown(page)).toEqual([]);

    await openPanel(page, 'Recordings');
    await page.type('[role=search] input', 'hostile-invisible');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await panelText()).includes('match'), 15_000, 'search hits');
    expect(await invisibleShown(page)).toEqual([]);

    const held = client.callTool({
      name: 'fill',
      arguments: {pageId, uid: `1_1${HIDDEN}`, value: `pay ${HIDDEN}`},
    });
    await openPanel(page, 'Hold');
    await page.waitForSelector('[data-testid=held-call]', {timeout: scaled(10_000)});
    await waitFor(async () => (await panelText()).includes('pay ⟨U+202E⟩'), 10_000, 'held args');
    expect(await invisibleShown(page)).toEqual([]);
    await screenshot(page, 'invisible-hold');
    await page.keyboard.press('d');
    await page.keyboard.press('Enter');
    await held;
    await site.stop();
  });
});

function textOfResult(result: unknown): string {
  const parsed = CallToolResultSchema.parse(result);
  return parsed.content.map(item => (item.type === 'text' ? item.text : '')).join('\n');
}

describe('client sessions the server closes', () => {
  it('are listed as ended, with why, under "Not connected" in the Connection panel', async () => {
    const sessionId = await rawInitialize(
      serve,
      'forgetful-client',
      JSON.stringify({
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: {name: 'forgetful-client', version: '0.1'},
      }),
    );
    // It finishes the handshake, then never sends anything again: the server expires it.
    const initialized = await postMcp(serve, INITIALIZED, sessionHeaders(sessionId));
    expect(initialized.status).toBe(202);
    await openPanel(page, 'Connection');
    const endedRow = '.not-connected__list li[data-ended=true]';
    await waitFor(
      async () =>
        (await page.$$eval(endedRow, rows => rows.map(row => row.textContent))).length > 0,
      15_000,
      'the expired client session',
    );
    const text = await panelText(endedRow);
    expect(text).toContain('forgetful-client');
    expect(text).toContain('expired: no request for the idle timeout');
    await page.$eval('.not-connected', element => element.scrollIntoView());
    await screenshot(page, 'expired-client-sessions');
  });
});
