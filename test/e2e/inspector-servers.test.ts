/**
 * The Servers tab end to end: two real headless servers of one user (one config dir), an agent on
 * the second; the first server's inspector lists both (itself first, the other with its client),
 * and Open opens the other's inspector, connected, in a new tab. Screenshots (light and dark,
 * 1280x800 and 900x700) are taken and looked at.
 *
 * Tests: src/renderer/src/features/servers/serversModel.ts, src/core/serverAnnouncements.ts
 */
import type {Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {waitFor} from '../helpers/engine.js';
import {
  connectMcp,
  type InspectorFixture,
  type McpTestClient,
  openPanel,
  screenshot,
  type ServeProcess,
  startInspectorFixture,
  startServe,
} from '../helpers/ui.js';
import {scaled} from '../helpers/loadFactor.js';

let fixture: InspectorFixture | undefined;
let other: ServeProcess | undefined;
let otherAgent: McpTestClient | undefined;
let page: Page;

beforeAll(async () => {
  fixture = await startInspectorFixture({clientName: 'first-agent'});
  page = fixture.page;
  // Same user, same config dir: the same runtime folder, as two servers of one person.
  other = await startServe({configDir: fixture.serve.configDir});
  otherAgent = await connectMcp(other, 'second-agent');
});

afterAll(async () => {
  await otherAgent?.close();
  await other?.stop();
  await fixture?.dispose();
});

async function rows(): Promise<{pid: string; text: string}[]> {
  return page.$$eval('[data-testid=servers-table] tbody tr', trs =>
    trs.map(tr => ({pid: tr.getAttribute('data-pid') ?? '', text: tr.textContent})),
  );
}

describe('Servers tab (e2e)', () => {
  it('lists every server of this user with its clients, this one first', async () => {
    const first = fixture?.serve;
    const second = other;
    if (!first || !second) {
      throw new Error('servers not started');
    }
    await openPanel(page, 'Servers');
    await waitFor(
      async () => (await rows()).some(row => row.text.includes('second-agent (http')),
      20_000,
      "the other server's client in the list",
    );
    const listed = await rows();
    expect(listed.map(row => Number(row.pid))).toEqual([first.pid, second.pid]);
    expect(listed[0]?.text).toContain('This inspector');
    expect(listed[0]?.text).toContain('first-agent (http');
    expect(listed[0]?.text).toContain('open here');
    expect(listed[1]?.text).toContain('Headless');
    expect(listed[1]?.text).toContain(second.inspectorUrl);
    // The other's token stays out of what is shown.
    expect(await page.$eval('[data-testid=servers-panel]', el => el.textContent)).not.toContain(
      second.token,
    );
    await page.setViewport({width: 1280, height: 800});
    await screenshot(page, 'servers-light-1280');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'dark'}]);
    await screenshot(page, 'servers-dark-1280');
    await page.setViewport({width: 900, height: 700});
    await screenshot(page, 'servers-dark-900');
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'light'}]);
    await screenshot(page, 'servers-light-900');
    await page.setViewport({width: 1280, height: 800});
  });

  it("Open opens the other server's inspector, connected, in a new tab", async () => {
    const second = other;
    const browser = fixture?.browser;
    if (!second || !browser) {
      throw new Error('servers not started');
    }
    const opened = browser.waitForTarget(target => target.url().startsWith(second.inspectorUrl), {
      timeout: scaled(20_000),
    });
    await page.click(`[data-testid=servers-table] tr[data-pid="${second.pid}"] a`);
    const target = await opened;
    const tab = await target.page();
    if (!tab) {
      throw new Error('no page for the opened tab');
    }
    await tab.waitForFunction(
      () => document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
      {timeout: scaled(20_000)},
    );
    // Connected with the token from the link, which then left the address bar.
    expect(tab.url()).toBe(second.inspectorUrl);
    await tab.close();
  });
});
