/**
 * What the person watching must not miss, end to end (real headless server, real MCP agent, the
 * inspector in headless Chromium): a held call puts "(1 held)" in the tab's title and makes the
 * Hold tab ask for attention, and opens that tab when asked to; turning hold off while calls are
 * held says so and offers Allow all / Deny all; the no-token screen names this server's token
 * file and takes a pasted token; a failed call's telemetry record explains its `"success": true`.
 *
 * Tests: src/renderer/src/features/hold/holdModel.ts, src/core/inspector/InspectorPeer.ts
 */
import path from 'node:path';
import type {Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {
  type InspectorFixture,
  openInspector,
  openPanel,
  screenshot,
  startInspectorFixture,
  unnamedControls,
  waitForRows,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

let fixture: InspectorFixture;
let page: Page;

beforeAll(async () => {
  fixture = await startInspectorFixture({clientName: 'held-agent'});
  page = fixture.page;
});

afterAll(async () => {
  await fixture.dispose();
});

const TITLE = 'MCP Browser Inspector';

function title(target: Page = page): Promise<string> {
  return target.evaluate(() => document.title);
}

function holdTabAsks(target: Page = page): Promise<boolean> {
  return target.$eval('#tab-hold', tab => tab.getAttribute('data-attention') === 'true');
}

function activePanel(target: Page = page): Promise<string | null> {
  return target.$eval('[role=tab][aria-selected=true]', tab => tab.id);
}

function agentCall(): Promise<{isError?: boolean; text: string}> {
  return fixture.agent.client.callTool({name: 'list_pages', arguments: {}}).then(result => ({
    isError: result.isError === true,
    text: JSON.stringify(result.content),
  }));
}

async function setRules(rules: string): Promise<void> {
  await openPanel(page, 'Hold');
  const field = await page.waitForSelector('aria/Rules[role="textbox"]');
  await field?.click({count: 3});
  await page.keyboard.press('Backspace');
  await field?.type(rules);
  await page.click('aria/Apply');
  await page.waitForFunction(
    (text: string) =>
      document.querySelector('[data-testid=hold-rules-state]')?.textContent.includes(text),
    {},
    rules,
  );
}

describe('held calls you cannot miss (e2e)', () => {
  const pending: Promise<{isError?: boolean; text: string}>[] = [];

  it('puts "(1 held)" in the title and makes the Hold tab ask for attention', async () => {
    expect(await title()).toBe(TITLE);
    await setRules('tool:list_pages');
    await openPanel(page, 'Log');
    pending.push(agentCall());
    await page.waitForFunction((name: string) => document.title === `(1 held) ${name}`, {}, TITLE);
    expect(await holdTabAsks()).toBe(true);
    expect(await page.$eval('#tab-hold', tab => tab.textContent)).toBe('Hold1 held');
    // Headless, the Hold tab does not open by itself unless asked to.
    expect(await activePanel()).toBe('tab-log');
    await waitForRows(page, rows => rows.some(row => row.status === 'held'), 'the held row');
    await screenshot(page, 'hold-attention');
  });

  it('opens the Hold tab when a call is held, once the person asks for that', async () => {
    await openPanel(page, 'Hold');
    await page.click('aria/Open this tab when a call is held[role="switch"]');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[role=switch][aria-label="Open this tab when a call is held"]')
          ?.matches(':checked') === true,
    );
    // Looking at the Hold tab, it does not ask for attention.
    expect(await holdTabAsks()).toBe(false);
    await openPanel(page, 'Log');
    pending.push(agentCall());
    await page.waitForFunction(() => document.title.startsWith('(2 held)'));
    await page.waitForFunction(
      () => document.querySelector('[role=tab][aria-selected=true]')?.id === 'tab-hold',
    );
  });

  it('says so when hold is turned off while calls are still held, and offers Allow all / Deny all', async () => {
    await page.click('aria/Off');
    const notice = await page.waitForSelector('[data-testid=hold-off-held]');
    expect(await notice?.evaluate(element => element.textContent)).toMatch(
      /^Hold is off: new agent calls run at once\. 2 calls are still held; the first is denied in \d+ (s|min) unless you decide\./,
    );
    expect(
      await page.$eval('[data-testid=hold-rules-state]', element => element.textContent),
    ).not.toContain('agent calls run at once');
    expect(await unnamedControls(page)).toEqual([]);
    await screenshot(page, 'hold-off-with-held');

    const dark = await openInspector(
      fixture.browser,
      `${fixture.serve.inspectorUrl}#token=${fixture.serve.token}`,
      {dark: true},
    );
    try {
      await openPanel(dark.page, 'Hold');
      await dark.page.waitForSelector('[data-testid=hold-off-held]');
      await screenshot(dark.page, 'hold-off-with-held-dark');
      await openPanel(dark.page, 'Log');
      expect(await holdTabAsks(dark.page)).toBe(true);
      await screenshot(dark.page, 'hold-attention-dark');
    } finally {
      await dark.page.close();
    }

    await page.click('[data-testid=hold-off-held] ::-p-text(Deny all)');
    for (const result of await Promise.all(pending)) {
      expect(result.isError).toBe(true);
      expect(result.text).toContain('Denied by the user');
    }
    await page.waitForFunction((name: string) => document.title === name, {}, TITLE);
    expect(await page.$('[data-testid=hold-off-held]')).toBeNull();
    expect(fixture.ui.errors).toEqual([]);
  });
});

describe('the no-token screen (e2e)', () => {
  it("names this server's token file and takes a pasted token", async () => {
    for (const dark of [false, true]) {
      const bare = await openInspector(fixture.browser, fixture.serve.inspectorUrl, {
        waitConnected: false,
        dark,
      });
      try {
        const file = path.join(fixture.serve.configDir, 'token');
        await bare.page.waitForFunction(
          (expected: string) =>
            document.querySelector('[data-testid=token-location]')?.textContent.includes(expected),
          {timeout: scaled(10_000)},
          file,
        );
        await screenshot(bare.page, dark ? 'no-token-dark' : 'no-token');
        if (dark) {
          continue;
        }
        const field = await bare.page.waitForSelector('aria/Token[role="textbox"]');
        await field?.type(fixture.serve.token);
        await bare.page.click('aria/Connect');
        await bare.page.waitForFunction(
          () =>
            document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
          {timeout: scaled(20_000)},
        );
        expect(bare.errors.filter(error => !error.includes('401'))).toEqual([]);
      } finally {
        await bare.page.close();
      }
    }
  });
});

describe('the telemetry preview (e2e)', () => {
  it('says why a failed call’s record reads "success": true', async () => {
    const failed = await fixture.agent.client.callTool({
      name: 'select_page',
      arguments: {pageId: 999},
    });
    expect(failed.isError).toBe(true);
    await openPanel(page, 'Telemetry');
    const note = await page.waitForSelector('[data-testid=telemetry-success-note]', {
      timeout: scaled(10_000),
    });
    expect(await note?.evaluate(element => element.textContent)).toBe(
      'This call failed (the Log says error), yet the record says "success": true: chrome-devtools-mcp counts every call its server answered, an error answer included.',
    );
    await screenshot(page, 'telemetry-success-note');
  });
});
