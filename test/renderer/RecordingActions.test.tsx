/**
 * RecordingActions as a user sees it, rendered with a model made by hand (the Recordings panel that
 * will host it is another issue's): a finished replay with same/different/failed calls and the
 * export preview, in headless Chromium with the app's styles. Recorded text (tool names, reasons,
 * diffs, the test itself) shows as text: markup in it creates no element.
 *
 * Tests: src/renderer/src/features/recordings/RecordingActions.tsx,
 *   src/renderer/src/features/recordings/useRecordingActions.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {renderToStaticMarkup} from 'react-dom/server';
import type {Browser} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {RecordingActionsView} from '../../src/renderer/src/features/recordings/RecordingActions.js';
import type {RecordingActionsModel} from '../../src/renderer/src/features/recordings/useRecordingActions.js';
import {ROOT} from '../helpers/engine.js';
import {launchUiBrowser, screenshot} from '../helpers/ui.js';

const HOSTILE = '<img src=x onerror="window.hacked=1">';
const styles = ['theme.css', 'app.css']
  .map(name => fs.readFileSync(path.join(ROOT, 'src/renderer/src/styles', name), 'utf8'))
  .concat(
    fs.readFileSync(path.join(ROOT, 'src/renderer/src/features/recordings/recordings.css'), 'utf8'),
  )
  .join('\n');

const model: RecordingActionsModel = {
  connected: true,
  replay: () => undefined,
  exportTest: () => undefined,
  closePreview: () => undefined,
  state: {
    replay: {
      status: 'done',
      replayId: 'r1',
      total: 3,
      summary: {total: 3, same: 1, different: 1, failed: 1, recordedMs: 120, replayMs: 131},
      calls: [
        {
          index: 1,
          tool: 'new_page',
          client: 'agent',
          outcome: 'same',
          recordedStatus: 'ok',
          replayedStatus: 'ok',
          replayMs: 80,
          recordedMs: 75,
        },
        {
          index: 2,
          tool: 'take_snapshot',
          client: 'agent',
          outcome: 'different',
          recordedStatus: 'ok',
          replayedStatus: 'ok',
          diff: `@@ line 2\n-  <uid> heading "Shop" level=1\n+  <uid> heading "${HOSTILE}" level=1`,
          replayMs: 30,
          recordedMs: 25,
        },
        {
          index: 3,
          tool: 'click',
          client: 'agent',
          outcome: 'failed',
          recordedStatus: 'ok',
          replayedStatus: 'not run',
          reason: `The element of uid (button "${HOSTILE}" inside region "Books") is not on page 4 any more: no node with that role and name in a fresh snapshot.`,
          replayMs: 21,
          recordedMs: 20,
        },
      ],
    },
    preview: {
      status: 'ready',
      fileName: 'shop.spec.ts',
      format: 'playwright',
      text: `import { test, expect } from '@playwright/test';\n\ntest("recording", async ({ page, context }) => {\n  // #1 new_page url="http://127.0.0.1:4000/shop.html"\n  await page.goto("http://127.0.0.1:4000/shop.html");\n  // #2 click uid="7" ${HOSTILE}\n  await page.getByRole("button", { name: "Buy", exact: true }).nth(1).click();\n});\n`,
    },
  },
};

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchUiBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('RecordingActions', () => {
  it('shows the replay per call and the export preview, recorded text inert', async () => {
    const markup = renderToStaticMarkup(
      <RecordingActionsView recordingId="shop" callIndex={3} model={model} />,
    );
    if (!browser) {
      throw new Error('no browser');
    }
    const page = await browser.newPage();
    await page.setViewport({width: 900, height: 900});
    await page.setContent(
      `<!doctype html><html><head><style>${styles}</style></head><body><div class="panel-body">${markup}</div></body></html>`,
    );
    const seen = await page.evaluate(() => ({
      buttons: [...document.querySelectorAll('button')].map(button => button.textContent),
      outcomes: [...document.querySelectorAll('.replay-call__outcome')].map(
        node => node.textContent,
      ),
      headline: document.querySelector('.recording-actions__headline')?.textContent,
      images: document.querySelectorAll('img').length,
      hacked: 'hacked' in window,
      reason: document.querySelector('.replay-call__reason')?.textContent,
      preview: document.querySelector('.export-preview__text')?.textContent,
    }));
    expect(seen.buttons).toEqual([
      'Replay',
      'Replay up to here (call 3)',
      'Export as test',
      'Copy',
      'Save…',
      'Close',
    ]);
    expect(seen.outcomes).toEqual(['same', 'different', 'failed']);
    expect(seen.headline).toBe('Replayed 3 call(s): 1 same, 1 different, 1 failed.');
    expect(seen.images).toBe(0);
    expect(seen.hacked).toBe(false);
    expect(seen.reason).toContain(HOSTILE);
    expect(seen.preview).toContain('getByRole("button", { name: "Buy", exact: true })');
    await screenshot(page, 'recording-actions');
    await page.close();
  });

  it('on the recording still being written, Replay is not the main action and says "so far"', () => {
    const live = renderToStaticMarkup(
      <RecordingActionsView recordingId="now" model={model} live compact />,
    );
    expect(live).toContain('>Replay so far</button>');
    expect(live).not.toContain('class="primary"');
    expect(live).toContain('title="This recording is still being written.');
    const finished = renderToStaticMarkup(
      <RecordingActionsView recordingId="shop" model={model} compact />,
    );
    expect(finished).toMatch(/<button type="button" class="primary"[^>]*>Replay<\/button>/);
  });
});
