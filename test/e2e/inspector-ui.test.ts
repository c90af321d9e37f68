/**
 * Pages and live view, the telemetry preview, export of the log as a recording and opening it again, the bad-token screen and
 * reconnecting after a server restart — end to end against the real headless server.
 *
 * Tests: src/renderer/src/features/pages/pagesModel.ts, src/core/inspector/LiveView.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {Browser, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call, openPage, waitFor} from '../helpers/engine.js';
import {restartablePort} from '../helpers/ports.js';
import {
  clickRow,
  connectMcp,
  type InspectorFixture,
  logRows,
  type McpTestClient,
  openInspector,
  openPanel,
  screenshot,
  type ServeProcess,
  startInspectorFixture,
  startServe,
  rowEnded,
  waitForRows,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PAGE_URL =
  'data:text/html,<title>Live page</title><body style="margin:0;background:%23c8e6ff"><h1 style="margin:40px">Live view page</h1></body>';

let fixture: InspectorFixture | undefined;
let serve: ServeProcess;
let browser: Browser;
let page: Page;
let agent: McpTestClient;
let work: string;
let telemetryLog: string;
let livePageId: number;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-ui-'));
  telemetryLog = path.join(work, 'telemetry.jsonl');
  fixture = await startInspectorFixture({
    flags: ['--experimentalVision', '--telemetryLog', telemetryLog],
    clientName: 'ui-agent',
    // The reconnect test restarts the server on this port: one nobody is handed meanwhile.
    port: await restartablePort(),
  });
  ({serve, browser, page, agent} = fixture);
});

afterAll(async () => {
  await fixture?.dispose();
  // The reconnect test replaces the fixture's server and agent with new ones.
  for (const cleanup of [() => agent.close(), () => serve.stop()]) {
    await Promise.resolve()
      .then(cleanup)
      .catch(() => undefined);
  }
  fs.rmSync(work, {recursive: true, force: true});
});

describe('pages and live view (e2e)', () => {
  it('shows the open pages, who selected each, and a live view of the page selected last', async () => {
    await openPanel(page, 'Pages');
    await page.waitForFunction(() => document.body.textContent.includes('No pages yet'));
    livePageId = await openPage(agent.client, PAGE_URL, 'Live page');
    await page.waitForSelector('[data-testid=live-view] img', {timeout: scaled(30_000)});
    // Selected by the agent that opened it (each client has its own selection).
    const selectors = await page.waitForSelector(
      `[data-page-id="${livePageId}"] .page-item__selectors`,
    );
    expect(await selectors?.evaluate(element => element.textContent)).toMatch(/^selected by/);
    const item = await page.$eval(`[data-page-id="${livePageId}"]`, element => element.textContent);
    expect(item).toContain('Live page');
    const src = await page.$eval('[data-testid=live-view] img', image =>
      image instanceof HTMLImageElement ? image.src : '',
    );
    expect(src.startsWith('data:image/jpeg;base64,/9j/')).toBe(true);
  });

  it('outlines the element the last tool acted on, for a moment', async () => {
    const clicked = await call(agent.client, 'click_at', {pageId: livePageId, x: 200, y: 60});
    expect(clicked.isError, clicked.text).toBe(false);
    const outline = await page.waitForSelector('[data-testid=acted-on-outline]', {
      timeout: scaled(10_000),
    });
    const box = await outline?.evaluate(element => {
      const frame = element.parentElement?.getBoundingClientRect();
      const rect = element.getBoundingClientRect();
      return frame ? {x: (rect.x - frame.x) / frame.width, w: rect.width / frame.width} : undefined;
    });
    await screenshot(page, 'pages-live-view');
    // 196..204 of a 1280-px-wide default viewport (headless default is 1280x720? the frame says).
    expect(box?.x).toBeGreaterThan(0.05);
    expect(box?.x).toBeLessThan(0.3);
    await page.waitForSelector('[data-testid=acted-on-outline]', {
      hidden: true,
      timeout: scaled(5_000),
    });
  });
});

describe('telemetry preview (e2e)', () => {
  it('shows each record exactly as produced, field help, and that nothing is sent', async () => {
    await openPanel(page, 'Telemetry');
    const panel = await page.$('[role=tabpanel]:not([hidden])');
    const text = (await panel?.evaluate(element => element.textContent)) ?? '';
    expect(text).toContain('Nothing is sent.');
    expect(text).toContain('--telemetryLog');
    expect(text).toContain(telemetryLog);
    expect(text).toContain('Operating system: 1 Windows, 2 macOS, 3 Linux, 0 other.');
    await screenshot(page, 'telemetry');

    const written = (): unknown[] =>
      fs
        .readFileSync(telemetryLog, 'utf8')
        .trim()
        .split('\n')
        .map(line => JSON.parse(line) as unknown);
    const shown = await waitFor(
      async () => {
        const records = await page.$$eval('.telemetry-record pre', blocks =>
          blocks.map(block => JSON.parse(block.textContent) as unknown),
        );
        return records.length === written().length ? records : undefined;
      },
      10_000,
      'every record in the preview',
    );
    expect(shown.length).toBeGreaterThanOrEqual(2);
    // In the Log's order (oldest first), each row linked to its call there.
    expect(shown).toEqual(written());
    const rows = await page.$$eval('[data-testid=telemetry-row]', found =>
      found.map(row => ({
        tool: row.children[1]?.textContent,
        os: row.closest('[role=tabpanel]')?.querySelector('.telemetry-common')?.textContent,
      })),
    );
    expect(rows[0]?.os).toContain('os_type3 (Linux)');
    const last = rows.at(-1)?.tool ?? '';
    await page.click(
      `[data-testid=telemetry-row]:last-child button[aria-label^="Show the ${last} call"]`,
    );
    await page.waitForSelector('[role=tabpanel]:not([hidden]) .log-row--selected', {
      timeout: scaled(10_000),
    });
    const selected = await page.$eval(
      '[role=tabpanel]:not([hidden]) .log-row--selected',
      element => element.textContent,
    );
    expect(selected).toContain(last);
  });
});

describe('export and import (e2e)', () => {
  it('exports the log as a recording and opens it again offline', async () => {
    await openPanel(page, 'Log');
    // Compared with the import below: captured once every call shows its end, as the file will.
    const before = await waitForRows(
      page,
      rows => rows.length >= 2 && rows.every(rowEnded),
      'ended calls to export',
    );
    const downloads = path.join(work, 'downloads');
    fs.mkdirSync(downloads);
    const cdp = await page.createCDPSession();
    await cdp.send('Browser.setDownloadBehavior', {behavior: 'allow', downloadPath: downloads});
    await page.click('aria/Export…');
    const file = await waitFor(
      () => fs.readdirSync(downloads).find(name => name.endsWith('.jsonl')),
      10_000,
      'the exported file',
    );
    const lines = fs.readFileSync(path.join(downloads, file), 'utf8').trim().split('\n');
    // The one recording format, the same the server's recorder writes.
    expect(file).toMatch(/^session-.*-log\.jsonl$/);
    const header: unknown = JSON.parse(lines[0] ?? '');
    expect(header).toMatchObject({format: 'mcp-browser-inspector-session', formatVersion: 1});
    expect(header).toHaveProperty('exportedAt');
    expect(lines.length).toBeGreaterThan(before.length * 2);

    await page.click('aria/Clear');
    await page.waitForFunction(() => document.body.textContent.includes('No tool calls yet'));
    const input = await page.$('input[data-testid=import-recording]');
    await input?.uploadFile(path.join(downloads, file));
    await page.waitForFunction(
      (name: string) => document.body.textContent.includes(`Viewing ${name} offline`),
      {},
      file,
    );
    expect(await logRows(page)).toEqual(before);
    await clickRow(page, 'new_page');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=call-detail]')?.textContent.includes('Live view page'),
    );
    await screenshot(page, 'log-offline');
    await page.click('aria/Back to the live log');
    await page.waitForFunction(() => !document.body.textContent.includes('offline'));
  });

  it('opens a file in the former Log export format, images shown as images', async () => {
    const file = path.join(work, 'with-image.jsonl');
    const client = {id: 'x', name: 'saved-agent', version: '1', transport: 'http'};
    fs.writeFileSync(
      file,
      [
        JSON.stringify({format: 'mcp-browser-inspector.session', version: 1}),
        JSON.stringify({
          seq: 1,
          time: 1_700_000_000_000,
          event: {
            type: 'toolCallStarted',
            callId: 'shot',
            tool: 'take_screenshot',
            args: {},
            client,
          },
        }),
        JSON.stringify({
          seq: 2,
          time: 1_700_000_000_050,
          event: {
            type: 'toolCallEnded',
            callId: 'shot',
            tool: 'take_screenshot',
            status: 'ok',
            durationMs: 50,
            result: {
              text: 'Took a screenshot.',
              images: [{mimeType: 'image/png', data: ONE_PIXEL_PNG}],
              structuredContent: {width: 1, height: 1},
            },
          },
        }),
        'this line is not an event',
      ].join('\n'),
    );
    const input = await page.$('input[data-testid=import-recording]');
    await input?.uploadFile(file);
    await waitForRows(page, rows => rows.length === 1, 'the saved call');
    await page.waitForFunction(() => document.body.textContent.includes('skipped 1 line(s)'));
    await clickRow(page, 'take_screenshot');
    const image = await page.waitForSelector('[data-testid=call-detail] img');
    expect(await image?.evaluate(element => element.getAttribute('src'))).toBe(
      `data:image/png;base64,${ONE_PIXEL_PNG}`,
    );
    expect(await image?.evaluate(element => element.getAttribute('alt'))).toBe(
      'Image 1 returned by take_screenshot',
    );
    const detail = await page.$eval('[data-testid=call-detail]', element => element.textContent);
    expect(detail).toContain('Structured content');
    expect(detail).toContain('"width": 1');
    await page.click('aria/Back to the live log');
  });
});

describe('token screen (e2e)', () => {
  it('explains how to get the right URL when the token is wrong', async () => {
    const wrong = await openInspector(
      browser,
      `${serve.inspectorUrl}#token=wrong-token-0123456789`,
      {
        waitConnected: false,
      },
    );
    await wrong.page.waitForSelector('aria/MCP Browser Inspector needs its token', {
      timeout: scaled(15_000),
    });
    // This server's own token file, as the server names it (not the default path).
    const file = path.join(serve.configDir, 'token');
    await wrong.page.waitForFunction(
      (expected: string) =>
        document.querySelector('[data-testid=token-location]')?.textContent.includes(expected),
      {timeout: scaled(10_000)},
      file,
    );
    const text = await wrong.page.$eval('main', element => element.textContent);
    expect(text).toContain('refused this token');
    expect(text).toContain('#token=');
    expect(wrong.page.url()).toBe(serve.inspectorUrl);
    await screenshot(wrong.page, 'bad-token');
    await wrong.page.close();
  });

  it('connects when a #token= URL is pasted into the same tab, and clears it from the address bar', async () => {
    const missing = await openInspector(browser, serve.inspectorUrl, {waitConnected: false});
    await missing.page.waitForSelector('aria/MCP Browser Inspector needs its token');
    // A hash-only navigation, as pasting the printed URL into the address bar is.
    await missing.page.evaluate((token: string) => {
      window.location.hash = `token=${token}`;
    }, serve.token);
    await missing.page.waitForFunction(
      () => document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
      {timeout: scaled(20_000)},
    );
    expect(missing.page.url()).toBe(serve.inspectorUrl);
    await missing.page.close();
  });

  it('says the token is missing when the URL has none', async () => {
    const missing = await openInspector(browser, serve.inspectorUrl, {waitConnected: false});
    await missing.page.waitForSelector('aria/MCP Browser Inspector needs its token');
    const text = await missing.page.$eval('main', element => element.textContent);
    expect(text).toContain('needs the inspector token');
    await missing.page.close();
  });
});

describe('reconnect (e2e)', () => {
  it('reconnects by itself after the server restarts on the same port, keeping the log', async () => {
    await openPanel(page, 'Log');
    await agent.client.callTool({name: 'list_pages', arguments: {}});
    // The agent has its reply; the row is compared once the UI shows the call ended too (the end
    // event may reach the UI after the reply reaches the agent).
    const before = await waitForRows(
      page,
      rows => rows.length > 0 && rows.every(rowEnded),
      'a call before the restart, ended',
    );
    const port = serve.port;
    await agent.close();
    await serve.stop();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid=connection-status]')
          ?.textContent.startsWith('Reconnecting'),
      {timeout: scaled(15_000)},
    );
    await screenshot(page, 'reconnecting');

    serve = await startServe({port, configDir: serve.configDir});
    await page.waitForFunction(
      () => document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
      {timeout: scaled(30_000)},
    );
    agent = await connectMcp(serve, 'after-restart');
    await agent.client.callTool({name: 'list_pages', arguments: {}});
    const rows = await waitForRows(
      page,
      found => found.some(row => row.client === 'after-restart'),
      'a call made after the restart',
    );
    expect(rows.slice(0, before.length)).toEqual(before);
    await openPanel(page, 'Connection');
    await page.waitForFunction(() =>
      document.querySelector('.clients')?.textContent.includes('after-restart'),
    );
    const clients = await page.$eval('.clients', element => element.textContent);
    expect(clients).not.toContain('ui-agent');
    await screenshot(page, 'connection');
  });
});
