/**
 * A snapshot never answers with a tree it could not read: a page whose main thread is busy for
 * seconds is waited for (bounded) and then shown whole; one that stays busy past the bound gets
 * an error that says so and what to do; a page too large to read whole says its size, and a part
 * of it can still be had with a uid.
 *
 * The bounds are the page's own (snapshotBounds.ts): a test sets them lower than the product's
 * (10 s of waiting, 120,000 elements) for its page, so the same code runs in less time.
 *
 * Tests: src/core/browser/snapshot/snapshot.ts, src/core/browser/snapshot/pageProbe.ts,
 *   src/core/browser/snapshot/snapshotBounds.ts
 */
import type {PageState} from '../../../src/core/browser/pages/PageState.js';
import {describe, expect, it} from 'vitest';
import {PROBE_TIMEOUT_MS} from '../../../src/core/browser/evaluation.js';
import {snapshotBoundsFeature} from '../../../src/core/browser/snapshot/snapshotBounds.js';
import {measureSlowness} from '../../../src/core/browser/workBudget.js';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';
import {snapshotOf, uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures({
  routes: server => {
    server.html(
      '/busy.html',
      '<!doctype html><title>Busy</title><h1>Busy page</h1><button>Still here</button>',
    );
    server.html(
      '/growing.html',
      '<!doctype html><title>Growing</title><h1>Growing page</h1><section aria-label="Inbox"><h2>Inbox</h2><button>Archive all</button><ul><li>First mail</li><li>Second mail</li></ul></section><div id="feed"></div>',
    );
  },
});

/** Makes the page's main thread run a loop for `ms` (started after this call returns). */
async function busyFor(state: PageState, ms: number): Promise<void> {
  await state.cdp.send('Runtime.evaluate', {
    expression: `setTimeout(() => { const end = Date.now() + ${ms}; while (Date.now() < end); }, 0); 1`,
  });
}

describe('a page that does not answer', () => {
  it('waits for a page busy for seconds and shows it whole', {timeout: 120_000}, async () => {
    const id = await fx.openPage('/busy.html');
    const state = fx.engine.engine.browser.pages.byId(id);
    const {mainDocumentWaitMs} = snapshotBoundsFeature.get(state);
    // Busy half again as long as the engine's short reads are bounded (scaled as the engine
    // scales them), so a snapshot that waited no longer than those would fail; well inside the
    // main document's bound (10 s, scaled the same way), and never longer than 8 s.
    const slowness = measureSlowness(state).factor;
    const busyMs = Math.min(1.5 * PROBE_TIMEOUT_MS * slowness, 8_000);
    expect(busyMs).toBeLessThan(mainDocumentWaitMs * slowness * 0.8);
    await busyFor(state, busyMs);
    const result = await call(fx.client, 'take_snapshot', {pageId: id});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('heading "Busy page"');
    expect(result.text).toContain('button "Still here"');
  });

  it('says what happened when the page stays busy past the bound', {timeout: 180_000}, async () => {
    const id = await fx.openPage('/busy.html');
    const state = fx.engine.engine.browser.pages.byId(id);
    // Waited for 2 s (scaled by the machine's slowness) instead of 10: the page is busy far longer.
    snapshotBoundsFeature.get(state).mainDocumentWaitMs = 2_000;
    await busyFor(state, 120_000);
    try {
      const result = await call(fx.client, 'take_snapshot', {pageId: id});
      expect(result.isError, result.text).toBe(true);
      expect(result.text).toMatch(/does not answer|did not finish/);
      expect(result.text).toMatch(/call take_snapshot again/);
      expect(result.text).not.toContain('RootWebArea');
    } finally {
      await state.cdp.send('Runtime.terminateExecution').catch(() => undefined);
    }
  });

  it(
    'names the size of a page too large to read whole, and reads a part of it by uid',
    {timeout: 300_000},
    async () => {
      const id = await fx.openPage('/growing.html');
      // Read whole up to 4,000 elements instead of 120,000: the page grows past that.
      snapshotBoundsFeature.get(fx.engine.engine.browser.pages.byId(id)).wholeReadElementLimit =
        4_000;
      const small = await snapshotOf(fx.client, id);
      const inbox = uidOf(small, 'region "Inbox"');
      // 4,500 more elements: past the bound of what is read whole.
      const grown = await call(fx.client, 'evaluate_script', {
        pageId: id,
        function:
          '() => { document.getElementById("feed").innerHTML = "<p>Item</p>".repeat(4500); return document.getElementsByTagName("*").length; }',
      });
      expect(grown.isError, grown.text).toBe(false);
      const elements = Number(/```json\n(\d+)\n```/.exec(grown.text)?.[1]);
      expect(elements).toBeGreaterThan(4_500);
      const whole = await call(fx.client, 'take_snapshot', {pageId: id});
      expect(whole.isError, whole.text).toBe(true);
      expect(whole.text).toContain(`has ${elements.toLocaleString('en-US')} elements`);
      expect(whole.text).toContain('take_snapshot with the uid');
      const part = await call(fx.client, 'take_snapshot', {pageId: id, uid: inbox});
      expect(part.isError, part.text).toBe(false);
      expect(part.text).toContain('button "Archive all"');
      expect(part.text).toContain('Second mail');
      expect(part.text).not.toContain('Item');
    },
  );
});
