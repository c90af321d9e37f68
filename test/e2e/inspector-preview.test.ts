/**
 * A long result in the call detail: the UI shows the preview the inspector keeps, says it is one
 * and how long the whole response was (the agent got all of it), and draws a structured result
 * cut at the depth bound with its marker.
 *
 * Tests: src/renderer/src/features/log/logModel.ts
 */
import type {Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {waitFor} from '../helpers/engine.js';
import {
  clickRow,
  type InspectorFixture,
  openPanel,
  screenshot,
  startInspectorFixture,
  waitForRows,
} from '../helpers/ui.js';

let fixture: InspectorFixture | undefined;
let page: Page;

beforeAll(async () => {
  fixture = await startInspectorFixture({clientName: 'preview-agent'});
  page = fixture.page;
});

afterAll(async () => {
  await fixture?.dispose();
});

describe('call detail of a long result (e2e)', () => {
  it('shows the preview, says so, and marks what was cut', async () => {
    const client = fixture?.agent.client;
    if (!client) {
      throw new Error('no agent');
    }
    const opened = await client.callTool({name: 'new_page', arguments: {url: 'about:blank'}});
    const listing = JSON.stringify(opened);
    const pageId = Number(/(\d+): about:blank \[selected\]/.exec(listing)?.[1]);
    const result = await client.callTool({
      name: 'evaluate_script',
      arguments: {
        pageId,
        function:
          "() => { let v = ['bottom']; for (let i = 0; i < 100; i++) v = [v]; return {deep: v, long: 'line of text\\n'.repeat(40000)}; }",
      },
    });
    expect(JSON.stringify(result).length).toBeGreaterThan(500_000);
    await openPanel(page, 'Log');
    await waitForRows(page, rows => rows.some(row => row.tool === 'evaluate_script'), 'the call');
    await clickRow(page, 'evaluate_script');
    const detail = await waitFor(async () => {
      const text = await page.evaluate(() => document.body.innerText);
      return text.includes('A preview:') ? text : undefined;
    });
    expect(detail).toMatch(
      /the start of this [\d,]+-character response; the agent got all of\s+it/,
    );
    expect(detail).toContain('more characters]');
    expect(detail).toContain('nested deeper than 64 levels');
    await page.evaluate(() => {
      [...document.querySelectorAll('section[aria-label=Response] h3')][0]?.scrollIntoView();
    });
    await screenshot(page, 'call-detail-preview');
  });
});
