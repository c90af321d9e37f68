/**
 * The WebMCP panel with pages that do not play nice: hostile strings (HTML, script tags, very long
 * text, RTL overrides and zero-width characters) in names, descriptions, schemas, outputs and
 * exceptions must render as inert text; 200 tools render (how fast is bench/webmcp.ts's job); and
 * when the attached browser was started without --enable-features=WebMCP the panel says so and
 * the doctor says what to do.
 *
 * Tests: src/renderer/src/features/webmcp/webmcpModel.ts,
 *   src/renderer/src/features/webmcp/webmcpDisplay.ts
 */
import type {Browser, ElementHandle, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {type DebuggableChromium, launchDebuggableChromium} from '../helpers/chromium.js';
import {openPage, waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {
  type InspectorFixture,
  launchUiBrowser,
  type McpTestClient,
  openPanel,
  screenshot,
  startInspectorFixture,
  type UiPage,
} from '../helpers/ui.js';
import {button, expandTool, toolItem, toolStatus} from '../helpers/webmcpUi.js';
import {scaled} from '../helpers/loadFactor.js';

let fixtures: FixtureServer;
let browser: Browser;

beforeAll(async () => {
  fixtures = await new FixtureServer().start();
  browser = await launchUiBrowser();
});

afterAll(async () => {
  await browser.close();
  await fixtures.stop();
});

async function openFixture(agent: McpTestClient, pathname: string): Promise<number> {
  return openPage(agent.client, fixtures.url(pathname), pathname);
}

async function runAndWait(page: Page, tool: ElementHandle, status: string): Promise<void> {
  await expandTool(tool);
  await (await button(tool, 'Execute')).click();
  const confirm = await page.$('dialog.webmcp-confirm[open]');
  if (confirm) {
    await (await page.waitForSelector('aria/Run it[role="button"]'))?.click();
  }
  await waitFor(async () => (await toolStatus(tool)) === status, 15_000, `status ${status}`);
}

describe('hostile strings and many tools', () => {
  let fixture: InspectorFixture | undefined;
  let ui: UiPage;
  let page: Page;
  let agent: McpTestClient;
  let hostileId: number;

  beforeAll(async () => {
    fixture = await startInspectorFixture({
      flags: ['--categoryExperimentalWebmcp'],
      clientName: 'hostile-agent',
      browser,
    });
    ({ui, page, agent} = fixture);
    hostileId = await openFixture(agent, '/webmcp/hostile.html');
    await openPanel(page, 'WebMCP');
  });

  afterAll(async () => {
    await fixture?.dispose();
  });

  it('shows HTML, script tags and javascript: links as text, never as markup', async () => {
    const html = await toolItem(page, hostileId, 'html_tool');
    const collapsed = await html.$eval('.webmcp-tool__description', element => element.textContent);
    expect(collapsed).toContain(
      `<img src=x onerror="window.__pwned='img'"><script>window.__pwned='script'</script>`,
    );
    await runAndWait(page, html, 'Completed');
    const output = await html.$eval('[data-testid=webmcp-output]', element => element.textContent);
    expect(output).toContain('<script>window.__pwned=\\"output\\"</script>');
    // The schema's hostile property name and title are labels as text.
    const form = await html.$eval('.webmcp-form', element => element.textContent);
    expect(form).toContain('<b>bold title</b>');
    await (await html.$('summary'))?.click();
    const schema = await html.$eval(
      '[aria-label="Input schema of html_tool"]',
      element => element.textContent,
    );
    expect(schema).toContain(`"<img src=x onerror=\\"window.__pwned='key'\\">"`);

    const form2 = await toolItem(page, hostileId, 'hostile_form');
    expect(
      await form2.$eval('.webmcp-tool__description', element => element.textContent),
    ).toContain(`<img src=x onerror="window.__pwned='form'"> form tool`);
    const thrower = await toolItem(page, hostileId, 'html_thrower');
    await runAndWait(page, thrower, 'Error');
    expect(
      await thrower.$eval('[data-testid=webmcp-exception]', element => element.textContent),
    ).toContain(`Error: <img src=x onerror="window.__pwned='exception'">`);

    const injected = await page.evaluate(() => ({
      pwned: Reflect.get(window, '__pwned') as unknown,
      images: document.querySelectorAll('.webmcp-panel img').length,
      scripts: document.querySelectorAll('.webmcp-panel script').length,
      links: document.querySelectorAll('.webmcp-panel a[href^="javascript:"]').length,
      bold: document.querySelectorAll('.webmcp-panel b').length,
    }));
    expect(injected).toEqual({pwned: undefined, images: 0, scripts: 0, links: 0, bold: 0});
    expect(ui.errors).toEqual([]);
    await screenshot(page, 'webmcp-hostile');
  });

  it('makes RTL overrides and zero-width characters visible', async () => {
    const rtl = await toolItem(page, hostileId, 'rtl_tool');
    const description = await rtl.$eval(
      '.webmcp-tool__description',
      element => element.textContent,
    );
    expect(description).toBe(
      'Safe ⟨U+202E⟩gnp.exe⟨U+202C⟩ name with RTL override and zero⟨U+200B⟩width⟨U+200D⟩chars⟨U+FEFF⟩.',
    );
    await runAndWait(page, rtl, 'Completed');
    expect(await rtl.$eval('[data-testid=webmcp-output]', element => element.textContent)).toBe(
      'output ⟨U+202E⟩txt.exe⟨U+202C⟩ with ⟨U+200B⟩ zero width',
    );
  });

  it('shows a schema default with an RTL override revealed, and sends it unchanged', async () => {
    const tool = await toolItem(page, hostileId, 'rtl_default_tool');
    await expandTool(tool);
    const notice = await tool.waitForSelector('[data-testid=invisible-values]', {
      timeout: scaled(10_000),
    });
    const text = (await notice?.evaluate(element => element.textContent)) ?? '';
    expect(text).toContain('attachment: invoice_⟨U+202E⟩fdp.exe');
    expect(text).not.toContain('\u202E');
    // The field itself keeps the value as it is: what is sent is what the page asked for.
    const field = await tool.$eval('.webmcp-form input', input =>
      input instanceof HTMLInputElement ? input.value : '',
    );
    expect(field).toBe('invoice_\u202Efdp.exe');
    await screenshot(page, 'webmcp-invisible-default');
    await runAndWait(page, tool, 'Completed');
    expect(await tool.$eval('[data-testid=webmcp-output]', element => element.textContent)).toBe(
      'got 16 characters',
    );
  });

  it('keeps very long names, descriptions and outputs inside the layout', async () => {
    const longName = 'a'.repeat(128);
    await toolItem(page, hostileId, longName);
    const long = await toolItem(page, hostileId, 'long_tool');
    const preview = await long.$eval('.webmcp-tool__description', element => element.textContent);
    expect(preview.length).toBeLessThanOrEqual(241);
    await runAndWait(page, long, 'Completed');
    expect(await long.$eval('.webmcp-last', element => element.textContent)).toContain(
      'The output was shortened here; MCP clients get all of it.',
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'webmcp-hostile-long');
  });

  it('renders 200 tools, and the filter narrows them', async () => {
    const manyId = await openFixture(agent, '/webmcp/many.html');
    await waitFor(
      () =>
        page.$$eval(
          `section[data-page-id="${manyId}"] li.webmcp-tool`,
          items => items.length === 200,
        ),
      20_000,
      '200 tools',
    );
    await openPanel(page, 'Log');
    // Time from opening the tab to 200 tools in the DOM (React render, layout and paint).
    const elapsed = await page.evaluate(async (pageId: number) => {
      const tab = [...document.querySelectorAll('[role=tab]')].find(candidate =>
        candidate.textContent.startsWith('WebMCP'),
      );
      if (!(tab instanceof HTMLElement)) {
        throw new Error('no WebMCP tab');
      }
      const started = performance.now();
      tab.click();
      await new Promise<void>(resolve => {
        const check = (): void => {
          if (
            document.querySelectorAll(`section[data-page-id="${pageId}"] li.webmcp-tool`).length ===
            200
          ) {
            resolve();
          } else {
            requestAnimationFrame(check);
          }
        };
        check();
      });
      await new Promise(resolve => requestAnimationFrame(resolve));
      return performance.now() - started;
    }, manyId);
    // How fast is measured by bench/webmcp.ts (target 100 ms, side by side, on a quiet machine);
    // a bound on a shared test runner would only measure the neighbours. Logged for a glance.
    console.log(`[webmcp] 200 tools rendered in ${elapsed.toFixed(1)} ms`);
    const count = await page.$eval('.webmcp-count', element => element.textContent);
    expect(count).toMatch(/\d+ tools/);
    // The filter narrows the list.
    await page.type('input[aria-label="Filter WebMCP tools"]', 'tool_19');
    await waitFor(
      () =>
        page.$$eval(
          `section[data-page-id="${manyId}"] li.webmcp-tool`,
          items => items.length === 10,
        ),
      5_000,
      'filtered list',
    );
    await screenshot(page, 'webmcp-many-filtered');
  });
});

describe('a browser started without --enable-features=WebMCP', () => {
  let chrome: DebuggableChromium | undefined;
  let fixture: InspectorFixture | undefined;
  let ui: UiPage;
  let agent: McpTestClient;

  beforeAll(async () => {
    chrome = await launchDebuggableChromium();
    fixture = await startInspectorFixture({
      flags: ['--categoryExperimentalWebmcp', '--browserUrl', chrome.browserUrl],
      clientName: 'noflag-agent',
      browser,
    });
    ({ui, agent} = fixture);
  });

  afterAll(async () => {
    await fixture?.dispose();
    await chrome?.stop();
  });

  it('says WebMCP is unavailable and the doctor tells how to restart the browser', async () => {
    const page = ui.page;
    const pageId = await openFixture(agent, '/webmcp/imperative.html');
    await openPanel(page, 'WebMCP');
    const banner = await page.waitForSelector('[data-testid=webmcp-unavailable]', {
      timeout: scaled(20_000),
    });
    expect(await banner?.evaluate(element => element.textContent)).toBe(
      'WebMCP is not available: The attached browser was started without --enable-features=WebMCP. Restart it with that flag.',
    );
    await page.click(`aria/Diagnose WebMCP on page ${pageId}[role="button"]`);
    const problem = await page.waitForSelector(
      '[data-testid=webmcp-doctor] [data-problem=feature-disabled]',
    );
    const text = await problem?.evaluate(element => element.textContent);
    expect(text).toMatch(
      /The browser at http:\/\/127\.0\.0\.1:\d+ was started without --enable-features=WebMCP/,
    );
    expect(text).toContain(
      'Fix: Quit that browser and start it again with --enable-features=WebMCP',
    );
    await screenshot(page, 'webmcp-doctor-no-flag');
  });
});
