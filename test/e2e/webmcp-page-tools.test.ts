/**
 * Page WebMCP tools as MCP tools in the inspector UI, end to end (headless server + UI in a second Chromium + a real MCP
 * client): the Tools panel's "Page WebMCP tools as MCP tools" switch offers the selected page's
 * tools as webmcp_<name> at run time (the client gets tools/list_changed), and the WebMCP panel's
 * doctor lists the authoring lint per tool with the fix, page text rendered inert.
 *
 * Tests: src/renderer/src/features/webmcp/webmcpModel.ts, src/core/webmcp/WebMcpService.ts
 */
import type {Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {openPage, waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {
  type InspectorFixture,
  type McpTestClient,
  openPanel,
  screenshot,
  startInspectorFixture,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

let fixtures: FixtureServer;
let fixture: InspectorFixture | undefined;
let page: Page;
let agent: McpTestClient;

beforeAll(async () => {
  fixtures = await new FixtureServer().start();
  fixture = await startInspectorFixture({
    flags: ['--categoryExperimentalWebmcp'],
    clientName: 'page-tools-agent',
  });
  ({page, agent} = fixture);
});

afterAll(async () => {
  await fixture?.dispose();
  await fixtures.stop();
});

async function clientToolNames(): Promise<string[]> {
  return (await agent.client.listTools()).tools.map(tool => tool.name);
}

describe('page WebMCP tools in the UI (e2e)', () => {
  it('the Tools panel switch offers webmcp_ tools at once, with list_changed', async () => {
    await openPage(agent.client, fixtures.url('/webmcp/page-tools.html'), 'page-tools.html');
    await openPanel(page, 'Tools');
    const card = '[data-condition=webmcpTools]';
    await page.waitForSelector(card, {timeout: scaled(20_000)});
    expect(await page.$eval(`${card} input[role=switch]`, element => element.checked)).toBe(false);
    expect((await clientToolNames()).some(name => name.startsWith('webmcp_'))).toBe(false);

    const changes = agent.listChanged();
    await page.click('aria/Page WebMCP tools as MCP tools[role="switch"]');
    await waitFor(() => agent.listChanged() > changes, 10_000, 'tools/list_changed');
    const names = await waitFor(async () => {
      const listed = await clientToolNames();
      return listed.includes('webmcp_shared_tool__frame2') ? listed : undefined;
    });
    expect(names).toContain('webmcp_checkout');
    expect(names).not.toContain('webmcp_debug_state');
    const shown = await waitFor(async () => {
      const items = await page.$$eval(`${card} [data-tool]`, elements =>
        elements.map(element => element.getAttribute('data-tool') ?? ''),
      );
      return items.includes('webmcp_checkout') ? items : undefined;
    });
    expect(shown.sort()).toEqual(names.filter(name => name.startsWith('webmcp_')).sort());
    await page.$eval(card, element => element.scrollIntoView());
    await page.click(`${card} [data-tool=webmcp_shared_tool__frame2] summary`);
    await screenshot(page, 'tools-webmcp-page-tools');
  });

  it('the doctor lists the authoring lint per tool with the fix, page text inert', async () => {
    const pageId = await openPage(
      agent.client,
      fixtures.url('/webmcp/authoring-lint.html'),
      'authoring-lint.html',
    );
    await openPanel(page, 'WebMCP');
    const diagnose = `aria/Diagnose WebMCP on page ${pageId}[role="button"]`;
    await page.waitForSelector(diagnose, {timeout: scaled(20_000)});
    // The iframe's tools arrive a moment after the page's: diagnose once they are all there.
    await page.waitForSelector(
      `section[data-page-id="${pageId}"] li.webmcp-tool[aria-label="child_tool"]`,
      {
        timeout: scaled(20_000),
      },
    );
    await page.click(diagnose);
    const lint = await page.waitForSelector('[data-testid=webmcp-lint]', {timeout: scaled(20_000)});
    const form = await lint?.$eval('[data-lint-tool=find_flight]', element => element.textContent);
    expect(form).toContain('has no tooldescription, so the browser does not register it');
    expect(form).toContain('Fix: Add tooldescription="…" to the <form>');
    const typo = await lint?.$eval(
      '[data-lint-tool=typo_keywords]',
      element => element.textContent,
    );
    expect(typo).toContain('Did you mean "description"?');
    const hostile = await lint?.$eval(
      '[data-lint-tool=hostile_text]',
      element => element.innerHTML,
    );
    expect(hostile).not.toContain('<img');
    expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
    expect(await page.$$eval('[data-lint-tool=shared_tool]', elements => elements.length)).toBe(2);
    await lint?.evaluate(element => element.scrollIntoView());
    await screenshot(page, 'webmcp-authoring-lint');
  });
});
