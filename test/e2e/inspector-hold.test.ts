/**
 * Hold rules end to end: the real headless server started with --hold, a real MCP agent, and the
 * inspector UI in headless Chromium. A held click shows in the Hold panel (arguments, client,
 * page, the live view with its target outlined) and in the log as `held`; the keys allow it, edit
 * it (the page shows the edited effect) and deny it with a reason; a page's own tool offered as an
 * MCP tool shows the full arguments the agent sent; rules are set from the UI.
 *
 * Tests: src/renderer/src/features/hold/holdModel.ts, src/core/mcp/hold/HoldGate.ts,
 *   src/core/inspector/InspectorPeer.ts
 */
import type {Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {call, pageIdFrom, waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {uidOf} from '../helpers/snapshotText.js';
import {
  type InspectorFixture,
  logRows,
  openPanel,
  screenshot,
  startInspectorFixture,
  unnamedControls,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

const BANK = `<!doctype html><title>bank</title><p>bank</p><script>
window.transfers = [];
document.modelContext.registerTool({
  name: 'transfer',
  description: 'Moves money to an account.',
  inputSchema: {type: 'object', properties: {amount: {type: 'number'}, to: {type: 'string'}}},
  execute: async input => { window.transfers.push(input); return 'sent'; },
});
</script>`;

const PAGE = `<!doctype html><title>hold e2e</title>
<style>button { font-size: 24px; margin: 40px; }</style>
<button onclick="document.title = 'clicked A'">Button A</button>
<button onclick="document.title = 'clicked B'">Button B</button>
<p><input aria-label="Name" style="font-size: 20px"></p>`;

let fixture: InspectorFixture | undefined;
let site: FixtureServer | undefined;
let page: Page;
let pageId: number;
let snapshot: string;

beforeAll(async () => {
  site = await new FixtureServer().start();
  const url = site.html('/hold-e2e.html', PAGE);
  site.html('/bank.html', BANK);
  fixture = await startInspectorFixture({
    flags: ['--hold=tool:click,tool:fill,tool:webmcp_transfer', '--webmcpTools'],
    clientName: 'e2e-hold-agent',
  });
  page = fixture.page;
  const opened = await call(fixture.agent.client, 'new_page', {url});
  pageId = pageIdFrom(opened.text, '/hold-e2e.html');
  snapshot = (await call(fixture.agent.client, 'take_snapshot', {pageId})).text;
  await openPanel(page, 'Hold');
});

afterAll(async () => {
  await fixture?.dispose();
  await site?.stop();
});

function agent(): InspectorFixture['agent']['client'] {
  if (!fixture) {
    throw new Error('no fixture');
  }
  return fixture.agent.client;
}

async function pageTitle(): Promise<string> {
  const {text} = await call(agent(), 'evaluate_script', {pageId, function: '() => document.title'});
  return text;
}

async function heldShown(tool: string): Promise<void> {
  await page.waitForFunction(
    (name: string) =>
      document.querySelector('[data-testid=held-call] h2')?.textContent.includes(name) === true,
    {timeout: scaled(10_000)},
    tool,
  );
}

async function panelText(): Promise<string> {
  return page.$eval('[role=tabpanel]:not([hidden])', element => element.textContent);
}

describe('hold (e2e)', () => {
  it('shows a held click with its page outlined, in the log as held, and Allow (A) runs it', async () => {
    const uid = uidOf(snapshot, 'button "Button A"');
    const pending = call(agent(), 'click', {pageId, uid});
    await heldShown('click');
    await page.waitForSelector('[data-testid=held-target-outline]', {timeout: scaled(15_000)});
    const text = await panelText();
    expect(text).toContain('e2e-hold-agent');
    expect(text).toContain('/hold-e2e.html');
    expect(text).toContain('the tool is click');
    expect(text).toContain(`"uid": "${uid}"`);
    expect(text).toContain('Keys: A Allow · E Edit · D Deny · S Allow, then hold the next call');
    const tabs = await page.$$eval('[role=tab]', elements => elements.map(tab => tab.textContent));
    expect(tabs.find(tab => tab.startsWith('Hold'))).toMatch(/^Hold\D*1 held$/);
    const outline = await page.$eval('[data-testid=held-target-outline]', element => {
      const box = element.getBoundingClientRect();
      return {width: box.width, height: box.height};
    });
    expect(outline.width).toBeGreaterThan(10);
    expect(outline.height).toBeGreaterThan(5);
    expect(await unnamedControls(page)).toEqual([]);
    await screenshot(page, 'hold-held-click');

    await page.keyboard.press('a');
    const result = await pending;
    expect(result.text).toContain('Successfully clicked on the element');
    expect(await pageTitle()).toContain('clicked A');
    await page.waitForFunction(() =>
      document
        .querySelector('[role=tabpanel]:not([hidden])')
        ?.textContent.includes('No call is held'),
    );
  });

  it('shows the held row in the log while it waits', async () => {
    const uid = uidOf(snapshot, 'button "Button A"');
    const pending = call(agent(), 'click', {pageId, uid});
    await openPanel(page, 'Log');
    await waitFor(
      async () => (await logRows(page)).some(row => row.tool === 'click' && row.status === 'held'),
      10_000,
      'a held row',
    );
    await screenshot(page, 'hold-log-row');
    await openPanel(page, 'Hold');
    await heldShown('click');
    await page.keyboard.press('a');
    await pending;
    await waitFor(
      async () => !(await logRows(page)).some(row => row.status === 'held'),
      10_000,
      'no held row',
    );
  });

  it('Edit (E) runs other arguments and the page shows their effect', async () => {
    const uidA = uidOf(snapshot, 'button "Button A"');
    const uidB = uidOf(snapshot, 'button "Button B"');
    const pending = call(agent(), 'click', {pageId, uid: uidA});
    await heldShown('click');
    await page.keyboard.press('e');
    await page.waitForSelector('.hold-edit');
    await page.click('.hold-edit [role=radiogroup] label:nth-child(2) input');
    const area = await page.waitForSelector('.hold-edit textarea');
    if (!area) {
      throw new Error('no JSON field');
    }
    await area.click({count: 3});
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.type(JSON.stringify({pageId, uid: uidB}));
    await screenshot(page, 'hold-edit');
    await page.click('.hold-edit .primary');
    const result = await pending;
    expect(result.text).toContain(`uid "${uidA}" → "${uidB}"`);
    expect(await pageTitle()).toContain('clicked B');
  });

  it('Deny (D) with a reason tells the agent', async () => {
    const uid = uidOf(snapshot, 'textbox "Name"');
    const pending = call(agent(), 'fill', {pageId, uid, value: 'secret'});
    await heldShown('fill');
    await page.keyboard.press('d');
    await page.waitForSelector('.hold-deny input');
    await page.keyboard.type('not that field');
    await screenshot(page, 'hold-deny');
    await page.keyboard.press('Enter');
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.text.split('\n')[0]).toBe('Denied by the user: not that field');
  });

  it("shows the full arguments of a page's own tool, exactly as the agent sent them", async () => {
    const bank = pageIdFrom(
      (await call(agent(), 'new_page', {url: site?.url('/bank.html') ?? ''})).text,
      '/bank.html',
    );
    await waitFor(
      async () => (await agent().listTools()).tools.some(tool => tool.name === 'webmcp_transfer'),
      10_000,
      'webmcp_transfer',
    );
    const pending = call(agent(), 'webmcp_transfer', {amount: 1_000_000, to: 'attacker-acct-T5'});
    await heldShown('webmcp_transfer');
    const args = await page.$eval(
      '[data-testid=held-call] [aria-label=Arguments]',
      element => element.textContent,
    );
    expect(JSON.parse(args)).toEqual({amount: 1_000_000, to: 'attacker-acct-T5'});
    await screenshot(page, 'hold-webmcp-args');
    await page.keyboard.press('d');
    await page.waitForSelector('.hold-deny input');
    await page.keyboard.type('not that account');
    await page.keyboard.press('Enter');
    expect((await pending).text).toContain('Denied by the user: not that account');
    const transfers = await call(agent(), 'evaluate_script', {
      pageId: bank,
      function: '() => JSON.stringify(window.transfers)',
    });
    expect(transfers.text).toContain('"[]"');
  });

  it('sets rules from the panel and refuses a bad one', async () => {
    const field = await page.waitForSelector('.hold-rules input');
    if (!field) {
      throw new Error('no rules field');
    }
    await field.click({count: 3});
    await page.keyboard.type('bogus');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=hold-error]');
    expect(await page.$eval('[data-testid=hold-error]', element => element.textContent)).toContain(
      'Unknown hold rule "bogus"',
    );
    await field.click({count: 3});
    await page.keyboard.type('not-read-only');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid=hold-rules-state]')
        ?.textContent.includes('on: not-read-only'),
    );
    const pending = call(agent(), 'navigate_page', {pageId, type: 'reload'});
    await heldShown('navigate_page');
    const second = call(agent(), 'list_console_messages', {pageId});
    const third = call(agent(), 'click', {pageId, uid: uidOf(snapshot, 'button "Button B"')});
    await page.waitForFunction(() => document.querySelectorAll('.hold-queue__item').length === 2, {
      timeout: scaled(10_000),
    });
    // The read-only call was not held.
    expect((await second).isError).toBe(false);
    const queued = await page.$$eval('.hold-queue__item .mono', items =>
      items.map(item => item.textContent),
    );
    expect(queued).toEqual(['navigate_page', 'click']);
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'dark'}]);
    await screenshot(page, 'hold-queue-dark');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}]);
    await page.click('aria/Allow all R[role="button"]');
    expect((await pending).isError).toBe(false);
    // Released in order: the reload ran first, so the click's uid is from an old document.
    expect((await third).text).toContain('Element with uid');
    expect((await third).text).toContain('no longer exists on the page');
  });
});
