/**
 * The live call log end to end: the real headless server (`npm run serve`), a real MCP client, and
 * the inspector UI in a separate headless Chromium.
 *
 * Tests: src/renderer/src/features/log/logModel.ts, src/core/inspector/InspectorHub.ts
 */
import type {Browser, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {waitFor} from '../helpers/engine.js';
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
  type UiPage,
  unnamedControls,
  rowEnded,
  waitForRows,
} from '../helpers/ui.js';

let fixture: InspectorFixture | undefined;
let serve: ServeProcess;
let browser: Browser;
let ui: UiPage;
let page: Page;
let agent: McpTestClient;

const PAGE_URL = 'data:text/html,<title>E2E page</title><h1>Hello from the e2e page</h1>';
const HOSTILE = '<img src=x onerror="window.__pwned=1"><b>bold</b>';

beforeAll(async () => {
  fixture = await startInspectorFixture({clientName: 'e2e-agent'});
  ({serve, browser, ui, page, agent} = fixture);
  await browser
    .defaultBrowserContext()
    .setPermission(
      new URL(serve.inspectorUrl).origin,
      {permission: {name: 'clipboard-read'}, state: 'granted'},
      {permission: {name: 'clipboard-write'}, state: 'granted'},
    );
});

afterAll(async () => {
  await fixture?.dispose();
});

async function selectOption(label: string, value: string): Promise<void> {
  await page.select(`aria/${label}[role="combobox"]`, value);
}

async function setSearch(text: string): Promise<void> {
  const search = await page.$('aria/Search[role="searchbox"]');
  if (!search) {
    throw new Error('no search box');
  }
  await search.click({count: 3});
  await page.keyboard.press('Backspace');
  if (text) {
    await search.type(text);
  }
}

describe('inspector log (e2e)', () => {
  it('takes the token from the fragment, keeps it for the tab and removes it from the address bar', async () => {
    expect(page.url()).toBe(serve.inspectorUrl);
    const stored = await page.evaluate(() =>
      Object.keys(sessionStorage).map(key => sessionStorage.getItem(key) ?? ''),
    );
    expect(stored).toEqual([serve.token]);
  });

  it('starts with an empty state that says what to do next', async () => {
    const text = await page.$eval('[role=tabpanel]:not([hidden])', element => element.textContent);
    expect(text).toContain('No tool calls yet');
    expect(text).toContain('Connect an MCP client');
  });

  it("shows a row for each of an agent's calls, in order, with tool, client and status", async () => {
    await agent.client.callTool({name: 'list_pages', arguments: {}});
    await agent.client.callTool({name: 'new_page', arguments: {url: PAGE_URL}});
    await agent.client.callTool({name: 'list_pages', arguments: {bogus: HOSTILE}});
    // Rows appear while their calls run: wait for all three to have finished.
    const rows = await waitForRows(
      page,
      found => found.length === 3 && found.every(rowEnded),
      'three finished rows',
    );
    expect(rows).toEqual([
      {tool: 'list_pages', status: 'ok', client: 'e2e-agent'},
      {tool: 'new_page', status: 'ok', client: 'e2e-agent'},
      {tool: 'list_pages', status: 'error', client: 'e2e-agent'},
    ]);
    const grid = await page.$('[role=grid][aria-label="Tool calls"]');
    expect(grid).not.toBeNull();
    await screenshot(page, 'log-rows');
  });

  it('filters by status, tool, client and free text', async () => {
    await selectOption('Status', 'error');
    await waitForRows(page, rows => rows.length === 1, 'error rows only');
    expect((await logRows(page))[0]).toMatchObject({tool: 'list_pages', status: 'error'});
    await selectOption('Status', '');

    await selectOption('Tool', 'new_page');
    await waitForRows(page, rows => rows.length === 1 && rows[0]?.tool === 'new_page', 'new_page');
    await selectOption('Tool', '');

    await setSearch('Hello from the e2e');
    await waitForRows(
      page,
      rows => rows.length === 1 && rows[0]?.tool === 'new_page',
      'text match',
    );
    await setSearch('no call has this text');
    await page.waitForFunction(() =>
      document.body.textContent.includes('No call matches these filters'),
    );
    await screenshot(page, 'log-no-match');
    await page.click('aria/Clear the filters');
    await waitForRows(page, rows => rows.length === 3, 'all rows back');

    const other = await connectMcp(serve, 'second-agent');
    await other.client.callTool({name: 'list_pages', arguments: {}});
    await waitForRows(page, rows => rows.length === 4, 'four rows');
    const clientSelect = await page.$('aria/Client[role="combobox"]');
    const clientId = await clientSelect?.$$eval('option', options =>
      options.find(option => option.textContent === 'second-agent')?.getAttribute('value'),
    );
    expect(clientId).toBeTruthy();
    await selectOption('Client', clientId ?? '');
    await waitForRows(
      page,
      rows => rows.length === 1 && rows[0]?.client === 'second-agent',
      'second agent only',
    );
    await selectOption('Client', '');
    await other.close();
  });

  it('shows arguments, response, timing and telemetry of a call in the detail pane', async () => {
    await clickRow(page, 'new_page');
    const detail = await page.waitForSelector('[data-testid=call-detail]');
    const text = await detail?.evaluate(element => element.textContent);
    expect(text).toContain('new_page');
    expect(text).toContain('e2e-agent 3.1.4');
    expect(text).toContain(PAGE_URL);
    expect(text).toContain('## Pages');
    expect(text).toContain('"tool_name": "new_page"');
    expect(text).toMatch(/Duration\d/);
    await screenshot(page, 'log-detail');
  });

  it('copies a call as JSON', async () => {
    await page.click('aria/Copy call new_page as JSON');
    await page.waitForFunction(() => document.body.textContent.includes('Copied'));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const call = JSON.parse(copied) as {tool: string; args: {url: string}; status: string};
    expect(call).toMatchObject({tool: 'new_page', status: 'ok', args: {url: PAGE_URL}});
  });

  it('renders text from clients inert (no HTML, no script)', async () => {
    await clickRow(page, 'list_pages', 'error');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=call-detail]')?.textContent.includes('bogus'),
    );
    const detail = await page.$eval('[data-testid=call-detail]', element => ({
      text: element.textContent,
      images: element.querySelectorAll('img').length,
      bold: element.querySelectorAll('b').length,
    }));
    expect(detail.text).toContain('<img src=x onerror=');
    expect(detail.images).toBe(0);
    expect(detail.bold).toBe(0);
    expect(await page.evaluate(() => 'pwned' in window || '__pwned' in window)).toBe(false);
  });

  it('moves through calls with the keyboard', async () => {
    await page.focus('[role=grid]');
    await page.keyboard.press('Home');
    await page.waitForFunction(
      () =>
        document.querySelector('[role=row][aria-selected=true] .log-call__tool')?.textContent ===
        'list_pages',
    );
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=call-detail] h2')?.textContent === 'new_page',
    );
    const active = await page.$eval('[role=grid]', grid =>
      grid.getAttribute('aria-activedescendant'),
    );
    expect(active).toMatch(/^call-row-/);
  });

  it('follows new calls at the bottom, and stops following once the user scrolls up', async () => {
    // Moving with the arrow keys stopped following; the follow button starts it again.
    await page.mouse.move(0, 0);
    await page.click('[data-testid=log-follow] button');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=log-follow]')?.textContent === 'Following new calls',
    );
    for (let index = 0; index < 40; index++) {
      await agent.client.callTool({name: 'list_pages', arguments: {}});
    }
    await waitFor(
      async () =>
        (await page.$eval('[role=grid]', grid => grid.getAttribute('aria-rowcount'))) === '45',
      20_000,
      '44 calls in the grid',
    );
    const atBottom = (): Promise<boolean> =>
      page.$eval(
        '[role=grid]',
        grid => grid.scrollHeight - grid.scrollTop - grid.clientHeight < 30,
      );
    await waitFor(() => atBottom(), 5_000, 'the grid to follow the tail');
    await screenshot(page, 'log-following');

    await page.$eval('[role=grid]', grid => {
      grid.scrollTop = 0;
      grid.dispatchEvent(new Event('scroll'));
    });
    await page.waitForSelector('aria/↓ Follow new calls');
    for (let index = 0; index < 3; index++) {
      await agent.client.callTool({name: 'list_pages', arguments: {}});
    }
    await page.waitForFunction(() => document.body.textContent.includes('3 new — follow'));
    expect(await page.$eval('[role=grid]', grid => grid.scrollTop)).toBe(0);
    await screenshot(page, 'log-scrolled-up');
    await page.click('aria/↓ 3 new — follow');
    await waitFor(() => atBottom(), 5_000, 'back at the bottom');
  });

  it('gives every control an accessible name on every panel, and logs no errors', async () => {
    for (const panel of ['Log', 'Tools', 'Run', 'Pages', 'Telemetry', 'Connection', 'WebMCP']) {
      await openPanel(page, panel);
      expect(await unnamedControls(page), panel).toEqual([]);
    }
    await openPanel(page, 'Log');
    expect(ui.errors).toEqual([]);
  });

  it('follows the OS theme (dark)', async () => {
    const dark = await openInspector(browser, `${serve.inspectorUrl}#token=${serve.token}`, {
      dark: true,
    });
    await waitForRows(dark.page, rows => rows.length > 0, 'rows in the dark page');
    const background = await dark.page.evaluate(
      () => getComputedStyle(document.body).backgroundColor,
    );
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const channels = (color: string): number[] => (color.match(/\d+/g) ?? []).map(Number);
    expect(Math.max(...channels(background))).toBeLessThan(60);
    expect(Math.min(...channels(light))).toBeGreaterThan(200);
    await screenshot(dark.page, 'log-dark');
    await dark.page.close();
  });

  it('clears the log', async () => {
    await page.click('aria/Clear');
    await page.waitForFunction(() => document.body.textContent.includes('No tool calls yet'));
    expect(await logRows(page)).toEqual([]);
  });
});
