/**
 * The WebMCP panel end to end: the headless server (`node out/node/cli/index.js`) drives its own
 * Chromium with fixture pages; the inspector runs in a second headless Chromium. Tools grouped by
 * page and frame, Execute/Cancel named per tool, every status, validation before sending, the
 * confirmation step, the form highlight, and a history of invocations by this app, an MCP client
 * and the page itself.
 *
 * Tests: src/renderer/src/features/webmcp/webmcpModel.ts, src/core/webmcp/WebMcpService.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import type {ElementHandle, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call, openPage, waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {
  type InspectorFixture,
  type McpTestClient,
  openPanel,
  screenshot,
  SCREENSHOT_DIR,
  startInspectorFixture,
  type UiPage,
  unnamedControls,
} from '../helpers/ui.js';
import {button, expandTool, toolItem, toolStatus} from '../helpers/webmcpUi.js';
import {scaled} from '../helpers/loadFactor.js';

let fixtures: FixtureServer;
let fixture: InspectorFixture | undefined;
let ui: UiPage;
let page: Page;
let agent: McpTestClient;
let imperativeId: number;

async function openFixture(pathname: string): Promise<number> {
  return openPage(agent.client, fixtures.url(pathname), pathname);
}

async function waitStatus(
  pageId: number,
  name: string,
  status: string,
  timeoutMs = 15_000,
): Promise<void> {
  await waitFor(
    async () => (await toolStatus(await toolItem(page, pageId, name))) === status,
    timeoutMs,
    `${name} ${status}`,
  );
}

async function expand(pageId: number, name: string): Promise<ElementHandle> {
  const item = await toolItem(page, pageId, name);
  await expandTool(item);
  return item;
}

async function historyRows(): Promise<
  {tool: string; status: string; invoker: string; kind: string}[]
> {
  return page.$$eval('.webmcp-history__row', rows =>
    rows.map(row => ({
      tool: row.querySelector('.webmcp-history__tool')?.textContent ?? '',
      status: row.getAttribute('data-status') ?? '',
      invoker: row.querySelector('.webmcp-history__invoker')?.textContent ?? '',
      kind: row.getAttribute('data-invoker') ?? '',
    })),
  );
}

beforeAll(async () => {
  fixtures = await new FixtureServer().start();
  fixture = await startInspectorFixture({
    flags: ['--categoryExperimentalWebmcp'],
    clientName: 'webmcp-agent',
  });
  ({ui, page, agent} = fixture);
  imperativeId = await openFixture('/webmcp/imperative.html');
  await openPanel(page, 'WebMCP');
});

afterAll(async () => {
  await fixture?.dispose();
  await fixtures.stop();
});

describe('WebMCP panel (e2e)', () => {
  it('groups tools by page and frame, with chips and named Execute/Cancel buttons', async () => {
    const echo = await toolItem(page, imperativeId, 'echo');
    const chips = await echo.$$eval('[data-chip]', elements =>
      elements.map(element => element.textContent),
    );
    expect(chips).toEqual(['read-only', 'untrusted output']);
    const buy = await toolItem(page, imperativeId, 'buy_now');
    expect(
      await buy.$$eval('[data-chip]', elements => elements.map(element => element.textContent)),
    ).toEqual(['may change state', 'consequential']);
    // Real buttons, named exactly, inside the list item named after the tool.
    for (const name of ['Execute', 'Cancel']) {
      const control = await button(echo, name);
      expect(await control.evaluate(element => element.tagName)).toBe('BUTTON');
    }
    expect(
      await (
        await button(echo, 'Cancel')
      ).evaluate(element => (element as HTMLButtonElement).disabled),
    ).toBe(true);
    const frameHead = await page.$eval(
      `section[data-page-id="${imperativeId}"] .webmcp-frame__head`,
      element => element.textContent,
    );
    expect(frameHead).toContain('Main frame');
    expect(frameHead).toContain('/webmcp/imperative.html');
    // The late tool appears by itself.
    await toolItem(page, imperativeId, 'late_tool');
    expect(ui.errors).toEqual([]);
    await screenshot(page, 'webmcp-panel');
  });

  it('validates the input before sending, then runs it from the form', async () => {
    const item = await expand(imperativeId, 'echo');
    const before = (await historyRows()).length;
    await (await button(item, 'Execute')).click();
    await item.waitForSelector('[role=alert]');
    const alert = await item.$eval('[role=alert]', element => element.textContent);
    expect(alert).toContain('Not sent');
    expect(alert).toContain('text');
    expect((await historyRows()).length).toBe(before);

    // Every control in the panel (the generated form included) has an accessible name.
    expect(await unnamedControls(page)).toEqual([]);
    const field = await item.waitForSelector('input[id$="_text"]');
    await field?.type('hello panel');
    await (await button(item, 'Execute')).click();
    await waitStatus(imperativeId, 'echo', 'Completed');
    const output = await item.$eval('[data-testid=webmcp-output]', element => element.textContent);
    expect(JSON.parse(output)).toEqual({echo: 'hello panel'});
    const rows = await historyRows();
    expect(rows[0]).toMatchObject({
      tool: 'echo',
      status: 'Completed',
      kind: 'inspector',
      invoker: 'This app',
    });
    await screenshot(page, 'webmcp-executed');
  });

  it('takes raw JSON too', async () => {
    const item = await expand(imperativeId, 'add');
    await (await item.$('aria/Raw JSON[role="radio"]'))?.click();
    const textarea = await item.waitForSelector('textarea');
    await textarea?.click({count: 3});
    await textarea?.evaluate(element => {
      if (element instanceof HTMLTextAreaElement) {
        element.select();
      }
    });
    await page.keyboard.type('{"a": 20, "b": 22}');
    await (await button(item, 'Execute')).click();
    await waitStatus(imperativeId, 'add', 'Completed');
    expect(await item.$eval('[data-testid=webmcp-output]', element => element.textContent)).toBe(
      '42',
    );
  });

  it('asks before running a consequential tool, and runs only when confirmed', async () => {
    const item = await expand(imperativeId, 'buy_now');
    const before = (await historyRows()).length;
    await (await button(item, 'Execute')).click();
    const dialog = await page.waitForSelector('dialog.webmcp-confirm[open]');
    expect(await dialog?.evaluate(element => element.textContent)).toContain('consequential');
    await screenshot(page, 'webmcp-confirm');
    await (await page.waitForSelector('aria/Don\'t run[role="button"]'))?.click();
    await page.waitForSelector('dialog.webmcp-confirm', {hidden: true});
    expect((await historyRows()).length).toBe(before);

    await (await button(item, 'Execute')).click();
    await (await page.waitForSelector('aria/Run it[role="button"]'))?.click();
    await waitStatus(imperativeId, 'buy_now', 'Completed');
  });

  it('shows an Error with the exception and its stack', async () => {
    const item = await expand(imperativeId, 'thrower');
    await (await button(item, 'Execute')).click();
    await (await page.waitForSelector('aria/Run it[role="button"]'))?.click();
    await waitStatus(imperativeId, 'thrower', 'Error');
    const exception = await item.$eval(
      '[data-testid=webmcp-exception]',
      element => element.textContent,
    );
    expect(exception).toContain('Error: boom from thrower');
    expect(exception).toMatch(/at .*imperative\.js:\d+:\d+/);
    await screenshot(page, 'webmcp-error');
  });

  it('cancels from the panel: running → Canceled', async () => {
    const item = await toolItem(page, imperativeId, 'slow');
    await (await button(item, 'Execute')).click();
    await waitStatus(imperativeId, 'slow', 'running');
    const cancel = await button(item, 'Cancel');
    expect(await cancel.evaluate(element => (element as HTMLButtonElement).disabled)).toBe(false);
    await cancel.click();
    await waitStatus(imperativeId, 'slow', 'Canceled');
  });

  it('shows Timed out when the page cannot answer the cancel', async () => {
    const item = await toolItem(page, imperativeId, 'busy');
    await expand(imperativeId, 'busy');
    await (await item.waitForSelector('input[id$="_ms"]'))?.type('7000');
    await (await button(item, 'Execute')).click();
    await (await page.waitForSelector('aria/Run it[role="button"]'))?.click();
    await waitStatus(imperativeId, 'busy', 'running');
    await (await button(item, 'Cancel')).click();
    await waitStatus(imperativeId, 'busy', 'TimedOut', 15_000);
    expect(await item.$eval('.webmcp-status', element => element.textContent)).toBe('Timed out');
    expect(
      await item.$eval('[data-testid=webmcp-error]', element => element.textContent),
    ).toContain('did not answer the cancel');
    // Let the page finish its busy loop before the next test drives it.
    await waitFor(
      async () =>
        (
          await call(agent.client, 'evaluate_script', {pageId: imperativeId, function: '() => 1'})
        ).text.includes('1'),
      20_000,
    );
  });

  it("records an MCP client's invocation and its cancel, and the page's own", async () => {
    const controller = new AbortController();
    const pending = agent.client.callTool(
      {name: 'execute_webmcp_tool', arguments: {pageId: imperativeId, toolName: 'slow'}},
      undefined,
      {signal: controller.signal},
    );
    await waitFor(
      async () => {
        const rows = await historyRows();
        return rows[0]?.tool === 'slow' && rows[0].status === 'running' && rows[0].kind === 'mcp';
      },
      15_000,
      'the agent invocation to show',
    );
    expect((await historyRows())[0]?.invoker).toBe('MCP client webmcp-agent 3.1.4');
    await waitStatus(imperativeId, 'slow', 'running');
    controller.abort();
    await expect(pending).rejects.toThrow();
    await waitStatus(imperativeId, 'slow', 'Canceled');

    await call(agent.client, 'evaluate_script', {
      pageId: imperativeId,
      function: "() => window.runFromPage('echo', {text: 'by the page'})",
    });
    await waitFor(
      async () => (await historyRows())[0]?.kind === 'page',
      15_000,
      'the page invocation',
    );
    const row = (await historyRows())[0];
    expect(row).toMatchObject({tool: 'echo', status: 'Completed', invoker: 'The page'});
    await page.click('.webmcp-history__row summary');
    await screenshot(page, 'webmcp-history');
  });

  it('declarative tools: form chips and the form highlighted in the page', async () => {
    const declarativeId = await openFixture('/webmcp/declarative.html');
    const item = await expand(declarativeId, 'reserve_table');
    const chips = await item.$$eval('[data-chip]', elements =>
      elements.map(element => element.getAttribute('data-chip')),
    );
    expect(chips).toEqual(['writes', 'autosubmit', 'form']);
    await (await item.$('aria/Show form in page[role="button"]'))?.click();
    await waitFor(
      async () =>
        (await item
          .$eval('.webmcp-tool__form-row [role=status]', element => element.textContent)
          .catch(() => '')) === 'The form is outlined in the page for 3 s.',
      10_000,
      'highlight confirmation',
    );
    // What the page looks like now, with the overlay on the form.
    const shot = await call(agent.client, 'take_screenshot', {pageId: declarativeId});
    const image = shot.result.content.find(part => part.type === 'image');
    expect(image?.type).toBe('image');
    if (image?.type === 'image') {
      fs.mkdirSync(SCREENSHOT_DIR, {recursive: true});
      fs.writeFileSync(
        path.join(SCREENSHOT_DIR, 'webmcp-form-highlight-page.png'),
        Buffer.from(image.data, 'base64'),
      );
    }
    const script = await toolItem(page, imperativeId, 'echo');
    expect(await script.$('aria/Show form in page[role="button"]')).toBeNull();

    // Removing the form removes the tool from the panel.
    await call(agent.client, 'evaluate_script', {
      pageId: declarativeId,
      function: "() => window.removeForm('reserve')",
    });
    await page.waitForSelector(
      `section[data-page-id="${declarativeId}"] li[aria-label="reserve_table"]`,
      {
        hidden: true,
        timeout: scaled(10_000),
      },
    );
    await screenshot(page, 'webmcp-declarative');
  });

  it('tools in iframes are grouped by frame, and the doctor names the blocked one', async () => {
    const framesId = await openFixture('/webmcp/iframes.html');
    await toolItem(page, framesId, 'allowed_tool');
    const heads = await page.$$eval(
      `section[data-page-id="${framesId}"] .webmcp-frame__head`,
      elements => elements.map(element => element.textContent),
    );
    expect(heads).toHaveLength(3);
    expect(heads[0]).toContain('Main frame');
    expect(
      heads.some(
        head => head.includes('label=allowed') && head.includes('origin http://localhost'),
      ),
    ).toBe(true);
    expect(heads.some(head => head.includes('label=blocked'))).toBe(false);

    await page.click(`aria/Diagnose WebMCP on page ${framesId}[role="button"]`);
    const problem = await page.waitForSelector(
      '[data-testid=webmcp-doctor] [data-problem=iframe-not-allowed]',
    );
    const text = await problem?.evaluate(element => element.textContent);
    expect(text).toContain('label=blocked');
    expect(text).toContain('Fix: Add allow="tools" to that <iframe> element and reload the page.');
    await screenshot(page, 'webmcp-doctor');
  });
});
