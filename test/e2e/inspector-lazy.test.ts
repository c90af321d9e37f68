/**
 * Panels that load on first use, end to end: the first paint fetches only the main bundle; a tab's
 * code is fetched when the pointer heads for it, before the click; the schema form follows the
 * panel that shows one; a panel whose code cannot be fetched any more (the server stopped) says
 * so, with a way out, instead of leaving a blank tab; and it loads by itself once the server is
 * back.
 *
 * Tests: src/renderer/src/app/panels.tsx, src/renderer/src/app/App.tsx
 */
import type {HTTPRequest} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {waitFor} from '../helpers/engine.js';
import {
  type InspectorFixture,
  openPanel,
  screenshot,
  type ServeProcess,
  startInspectorFixture,
  startServe,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

let fixture: InspectorFixture;
let restarted: ServeProcess | undefined;
const scripts: string[] = [];

function fetched(name: string): boolean {
  return scripts.some(url => new URL(url).pathname.split('/').pop()?.startsWith(`${name}-`));
}

beforeAll(async () => {
  fixture = await startInspectorFixture({clientName: 'lazy-agent'});
  // Everything the page fetched from now on (the first paint has already happened).
  fixture.page.on('request', (request: HTTPRequest) => {
    if (request.resourceType() === 'script') {
      scripts.push(request.url());
    }
  });
});

afterAll(async () => {
  await restarted?.stop();
  await fixture.dispose();
});

describe('panels loaded on first use (e2e)', () => {
  it('paints the Log panel without fetching any other panel', async () => {
    const {page} = fixture;
    const loaded = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map(entry => entry.name.split('/').pop() ?? '')
        .filter(name => name.endsWith('.js')),
    );
    for (const panel of ['ToolsPanel', 'RunPanel', 'WebMcpPanel', 'RjsfForm']) {
      expect(loaded.some(name => name.startsWith(`${panel}-`))).toBe(false);
    }
    expect(await page.$eval('#panel-log', element => element.hasAttribute('hidden'))).toBe(false);
  });

  it('fetches a panel when the pointer heads for its tab, before any click', async () => {
    const {page} = fixture;
    const tab = await page.waitForSelector('#tab-tools');
    await tab?.hover();
    await waitFor(() => fetched('ToolsPanel'), 10_000, 'the Tools panel code');
    expect(await page.$eval('#tab-tools', element => element.getAttribute('aria-selected'))).toBe(
      'false',
    );
    await openPanel(page, 'Tools');
    expect(await page.$eval('#panel-tools', element => element.textContent)).toMatch(/navigate/);
  });

  it('brings the schema form with the Run panel', async () => {
    const {page} = fixture;
    await openPanel(page, 'Run');
    await waitFor(() => fetched('RjsfForm'), 10_000, 'the schema form code');
    await page.select('aria/Tool[role="combobox"]', 'new_page');
    await page.waitForSelector('#run_url', {timeout: scaled(10_000)});
    expect(await page.$('[data-form-loading]')).toBeNull();
  });

  it('says a panel cannot be loaded once the server is gone, and offers a reload', async () => {
    const {page, serve} = fixture;
    await serve.stop();
    await page.click('#tab-webmcp');
    const alert = await page.waitForSelector('#panel-webmcp [role=alert]', {
      timeout: scaled(10_000),
    });
    // What failed first (its stylesheet or its code) depends on timing: the text names it.
    expect(await alert?.evaluate(element => element.textContent)).toMatch(
      /^The WebMCP panel could not be loaded: .*(WebMcpPanel|ArgumentsEditor).*It loads by itself once the inspector is connected to the server again\. If the server was updated meanwhile, reload the inspector\.$/,
    );
    expect(
      await page.$eval('#panel-webmcp [role=alert] button', element => element.textContent),
    ).toBe('reload the inspector');
    await screenshot(page, 'lazy-panel-load-failed');
  });

  it('loads that panel by itself once the server is back, styles included', async () => {
    const {page, serve} = fixture;
    restarted = await startServe({port: serve.port, configDir: serve.configDir});
    await page.waitForFunction(
      () => document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
      {timeout: scaled(30_000)},
    );
    await page.waitForFunction(
      () =>
        document.querySelector('#panel-webmcp [role=alert]') === null &&
        document.querySelector('#panel-webmcp [data-panel-loading]') === null &&
        (document.querySelector('#panel-webmcp')?.textContent.length ?? 0) > 0,
      {timeout: scaled(20_000)},
    );
    // Its stylesheets (which failed with the server down: no rules, or rules that cannot be
    // read) are applied too.
    const failedSheets = await page.$$eval('link[rel=stylesheet]', links =>
      links
        .filter(link => {
          try {
            return !(link instanceof HTMLLinkElement) || !link.sheet?.cssRules.length;
          } catch {
            return true;
          }
        })
        .map(link => link.getAttribute('href')),
    );
    expect(failedSheets).toEqual([]);
    await screenshot(page, 'lazy-panel-recovered');
  });
});
