/**
 * Tools & categories and running a tool by hand, end to end: switches in the UI change what a real
 * MCP client sees (with tools/list_changed), the tools/list view matches the client's, and a
 * hand-run call appears in the log as coming from the Inspector.
 *
 * Tests: src/renderer/src/features/tools/toolsModel.ts, src/core/inspectorCommands.ts
 */
import type {Browser, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {waitFor} from '../helpers/engine.js';
import {
  clickRow,
  type InspectorFixture,
  type McpTestClient,
  openInspector,
  openPanel,
  screenshot,
  startInspectorFixture,
  startServe,
  type UiPage,
  rowEnded,
  waitForRows,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

let fixture: InspectorFixture | undefined;
let browser: Browser;
let ui: UiPage;
let page: Page;
let agent: McpTestClient;

beforeAll(async () => {
  fixture = await startInspectorFixture({clientName: 'tools-agent'});
  ({browser, ui, page, agent} = fixture);
});

afterAll(async () => {
  await fixture?.dispose();
});

async function clientToolNames(): Promise<string[]> {
  const {tools} = await agent.client.listTools();
  return tools.map(tool => tool.name).sort();
}

async function switchState(label: string): Promise<boolean> {
  const control = await page.waitForSelector(`aria/${label}[role="switch"]`);
  const checked = await control?.evaluate(element =>
    element instanceof HTMLInputElement ? element.checked : undefined,
  );
  if (checked === undefined) {
    throw new Error(`${label} is not a checkbox switch`);
  }
  return checked;
}

describe('tools and categories (e2e)', () => {
  it('lists categories as labelled switches, with each tool, its badge and cost', async () => {
    await openPanel(page, 'Tools');
    expect(await switchState('Emulation')).toBe(true);
    expect(await switchState('Input automation')).toBe(true);
    expect(await switchState('Third-party')).toBe(false);
    const listPages = await page.$eval('[data-tool=list_pages]', element => element.textContent);
    expect(listPages).toContain('read-only');
    expect(listPages).toMatch(/\d[\d,]* chars · ~\d[\d,]* tokens/);
    const click = await page.$eval('[data-tool=click]', element => element.textContent);
    expect(click).not.toContain('read-only');
    await page.click('[data-tool=click] summary');
    const params = await page.$eval('[data-tool=click] table', element => element.textContent);
    expect(params).toContain('uid');
    await screenshot(page, 'tools');
  });

  it('a switch applies at once: the client gets tools/list_changed and the new list', async () => {
    const before = await clientToolNames();
    const emulationTools = await page.$$eval('[data-category=emulation] [data-tool]', items =>
      items.map(item => item.getAttribute('data-tool') ?? ''),
    );
    expect(emulationTools.length).toBeGreaterThan(0);
    for (const name of emulationTools) {
      expect(before).toContain(name);
    }
    const changes = agent.listChanged();

    await page.click('aria/Emulation[role="switch"]');
    await waitFor(() => agent.listChanged() > changes, 10_000, 'tools/list_changed');
    const after = await clientToolNames();
    for (const name of emulationTools) {
      expect(after).not.toContain(name);
    }
    expect(after.length).toBe(before.length - emulationTools.length);
    await waitFor(async () => !(await switchState('Emulation')), 5_000, 'the switch to show off');
    await screenshot(page, 'tools-emulation-off');

    const changesOff = agent.listChanged();
    await page.click('aria/Emulation[role="switch"]');
    await waitFor(() => agent.listChanged() > changesOff, 10_000, 'second tools/list_changed');
    expect(await clientToolNames()).toEqual(before);
  });

  it('is usable by keyboard: Space flips the focused switch', async () => {
    const changes = agent.listChanged();
    await page.focus('aria/Network[role="switch"]');
    await page.keyboard.press('Space');
    await waitFor(() => agent.listChanged() > changes, 10_000, 'tools/list_changed');
    // The UI hears of the change over its own connection, which may come a moment later.
    await waitFor(
      async () => !(await switchState('Network')),
      5_000,
      'the Network switch to show off',
    );
    await page.keyboard.press('Space');
    await waitFor(async () => await switchState('Network'), 5_000, 'network back on');
  });

  it('shows Extensions and PWA with their tools, and --memoryDebugging as a switch', async () => {
    expect(await switchState('Extensions')).toBe(false);
    expect(await switchState('Progressive Web Apps')).toBe(false);
    const extensionTools = await page.$$eval('[data-category=extensions] [data-tool]', items =>
      items.map(item => item.getAttribute('data-tool') ?? ''),
    );
    expect(extensionTools.sort()).toEqual([
      'install_extension',
      'list_extensions',
      'reload_extension',
      'trigger_extension_action',
      'uninstall_extension',
    ]);
    expect(await page.$$eval('[data-category=pwa] [data-tool]', items => items.length)).toBe(4);
    await page.$eval('[data-category=extensions]', element => element.scrollIntoView());
    await screenshot(page, 'tools-extensions-pwa');

    expect(await switchState('Memory debugging')).toBe(false);
    const gated = await page.$$eval('[data-condition=memoryDebugging] [data-tool]', items =>
      items.map(item => item.getAttribute('data-tool') ?? ''),
    );
    expect(gated).toHaveLength(13);
    expect(await clientToolNames()).not.toContain('get_heapsnapshot_summary');
    const changes = agent.listChanged();
    await page.click('aria/Memory debugging[role="switch"]');
    await waitFor(() => agent.listChanged() > changes, 10_000, 'tools/list_changed');
    const names = await clientToolNames();
    for (const name of gated) {
      expect(names).toContain(name);
    }
    await waitFor(
      async () => await switchState('Memory debugging'),
      5_000,
      'the switch to show on',
    );
    const meta = await page.$eval(
      '[data-condition=memoryDebugging] .category__meta',
      element => element.textContent,
    );
    expect(meta).toContain('13 of 13 tools on');
    await page.$eval('[data-condition=memoryDebugging]', element => element.scrollIntoView());
    await screenshot(page, 'tools-memory-debugging');

    // A start-time safety flag is shown, not switchable.
    const jsSwitch = await page.$eval(
      '[data-condition=javascriptEvaluation] input[role=switch]',
      element => (element instanceof HTMLInputElement ? element.disabled : undefined),
    );
    expect(jsSwitch).toBe(true);

    const changesOff = agent.listChanged();
    await page.click('aria/Memory debugging[role="switch"]');
    await waitFor(() => agent.listChanged() > changesOff, 10_000, 'second tools/list_changed');
    expect(await clientToolNames()).not.toContain('get_heapsnapshot_summary');
  });

  it('switches snapshot diffs: off by default, on gives take_snapshot its full parameter', async () => {
    const snapshotParams = async (): Promise<string[]> => {
      const {tools} = await agent.client.listTools();
      const schema = tools.find(tool => tool.name === 'take_snapshot')?.inputSchema;
      return Object.keys(schema?.properties ?? {});
    };
    expect(await switchState('Snapshot diffs')).toBe(false);
    expect(await snapshotParams()).not.toContain('full');
    const effect = await page.$eval(
      '[data-condition=snapshotDiffs] .category__effect',
      element => element.textContent,
    );
    expect(effect).toContain('only the lines that changed');
    expect(effect).toContain('full=true');
    const changes = agent.listChanged();
    await page.click('aria/Snapshot diffs[role="switch"]');
    await waitFor(() => agent.listChanged() > changes, 10_000, 'tools/list_changed');
    expect(await snapshotParams()).toContain('full');
    await waitFor(async () => await switchState('Snapshot diffs'), 5_000, 'the switch to show on');
    await page.$eval('[data-condition=snapshotDiffs]', element => element.scrollIntoView());
    await screenshot(page, 'tools-snapshot-diffs');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'dark'}]);
    await screenshot(page, 'tools-snapshot-diffs-dark');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}]);
    const changesOff = agent.listChanged();
    await page.click('aria/Snapshot diffs[role="switch"]');
    await waitFor(() => agent.listChanged() > changesOff, 10_000, 'second tools/list_changed');
    expect(await snapshotParams()).not.toContain('full');
  });

  it('shows exactly the tools/list a client receives', async () => {
    await page.click('aria/Show tools/list');
    const pre = await page.waitForSelector('[data-testid=tools-list]');
    const shown = JSON.parse((await pre?.evaluate(element => element.textContent)) ?? '') as {
      tools: {name: string; description: string; inputSchema: unknown}[];
    };
    const {tools} = await agent.client.listTools();
    expect(shown.tools.map(tool => tool.name)).toEqual(tools.map(tool => tool.name));
    for (const tool of tools) {
      const mine = shown.tools.find(candidate => candidate.name === tool.name);
      expect(mine?.description).toBe(tool.description);
      expect(mine?.inputSchema).toEqual(tool.inputSchema);
    }
    await screenshot(page, 'tools-list');
  });
});

describe('run a tool by hand (e2e)', () => {
  it('runs a tool from a form generated from its schema; the call is marked as from the Inspector', async () => {
    await openPanel(page, 'Run');
    await page.select('aria/Tool[role="combobox"]', 'new_page');
    const url = await page.waitForSelector('#run_url');
    await url?.type('data:text/html,<title>By hand</title>hand-run');
    await screenshot(page, 'run-form');
    await page.click('aria/Run new_page');
    const outcome = await page.waitForSelector('[data-testid=run-outcome]', {
      timeout: scaled(30_000),
    });
    await page.waitForFunction(
      () => document.querySelector('[data-testid=run-outcome]')?.textContent.includes('## Pages'),
      {timeout: scaled(30_000)},
    );
    expect(await outcome?.evaluate(element => element.textContent)).toContain('By hand');
    // The panel's own selection: the page it opened.
    await page.waitForFunction(() =>
      document
        .querySelector('[data-testid=run-selected-page]')
        ?.textContent.startsWith('Selected here: page '),
    );
    expect(
      await page.$eval('[data-testid=run-selected-page]', element => element.textContent),
    ).toContain('By hand');
    await screenshot(page, 'run-result');

    await openPanel(page, 'Log');
    // The row appears while the call runs; its outcome is what this test checks.
    const rows = await waitForRows(
      page,
      found =>
        found.some(row => row.tool === 'new_page' && row.client === 'Inspector' && rowEnded(row)),
      'the hand-run call in the log, finished',
    );
    expect(rows.find(row => row.tool === 'new_page')?.status).toBe('ok');
  });

  it('checks required arguments in the form (without eval) before anything runs', async () => {
    await openPanel(page, 'Run');
    await page.select('aria/Tool[role="combobox"]', 'select_page');
    await page.click('aria/Run select_page');
    await page.waitForFunction(() =>
      document.querySelector('.run-form')?.textContent.includes('is a required property'),
    );
    await screenshot(page, 'run-validation');
    expect(ui.errors.filter(error => /eval|Content Security Policy/i.test(error))).toEqual([]);
  });

  it('runs a call again from the log with arguments the user may edit first', async () => {
    await agent.client.callTool({name: 'new_page', arguments: {url: 'data:text/html,first'}});
    await openPanel(page, 'Log');
    await waitForRows(
      page,
      found => found.filter(row => row.tool === 'new_page').length === 2,
      "the agent's new_page",
    );
    await clickRow(page, 'new_page');
    await page.click('aria/Run again…');
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('#run_url')?.value ===
        'data:text/html,<title>By hand</title>hand-run',
    );
    // The agent's new_page selected its page for the agent only: the panel keeps its own.
    expect(
      await page.$eval('[data-testid=run-selected-page]', element => element.textContent),
    ).toContain('By hand');
    const url = await page.$('#run_url');
    await url?.click({count: 3});
    await url?.type('data:text/html,<title>Again</title>edited');
    await page.click('aria/Run new_page');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=run-outcome]')?.textContent.includes('Again'),
      {timeout: scaled(30_000)},
    );
    await openPanel(page, 'Log');
    await waitForRows(
      page,
      found =>
        found.filter(row => row.tool === 'new_page' && row.client === 'Inspector').length === 2,
      'the edited run in the log',
    );
  });
});

describe('slim mode (e2e)', () => {
  it('is shown as such, without category switches', async () => {
    const slim = await startServe({flags: ['--slim']});
    try {
      const slimUi = await openInspector(browser, `${slim.inspectorUrl}#token=${slim.token}`);
      await openPanel(slimUi.page, 'Tools');
      await slimUi.page.waitForFunction(() => document.body.textContent.includes('Slim mode'));
      expect(await slimUi.page.$$('[role=switch]')).toHaveLength(0);
      const tools = await slimUi.page.$$eval('[data-tool]', items => items.length);
      expect(tools).toBe(3);
      await screenshot(slimUi.page, 'tools-slim');
      await slimUi.page.close();
    } finally {
      await slim.stop();
    }
  });
});
