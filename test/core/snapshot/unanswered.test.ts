/**
 * A snapshot never answers with a tree it could not read: a page whose main thread is busy for
 * seconds is waited for (bounded) and then shown whole; one that stays busy past the bound gets
 * an error that says so and what to do; a page too large to read whole says its size, and a part
 * of it can still be had with a uid.
 *
 * Tests: src/core/browser/snapshot/snapshot.ts, src/core/browser/snapshot/pageProbe.ts
 */
import type {PageState} from '../../../src/core/browser/pages/PageState.js';
import {describe, expect, it} from 'vitest';
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
  it('waits for a page busy for 8 s and shows it whole', {timeout: 120_000}, async () => {
    const id = await fx.openPage('/busy.html');
    const state = fx.engine.engine.browser.pages.byId(id);
    await busyFor(state, 8_000);
    const result = await call(fx.client, 'take_snapshot', {pageId: id});
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('heading "Busy page"');
    expect(result.text).toContain('button "Still here"');
  });

  it('says what happened when the page stays busy past the bound', {timeout: 180_000}, async () => {
    const id = await fx.openPage('/busy.html');
    const state = fx.engine.engine.browser.pages.byId(id);
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
      const small = await snapshotOf(fx.client, id);
      const inbox = uidOf(small, 'region "Inbox"');
      // 130,000 elements: past the bound of what is read whole.
      const grown = await call(fx.client, 'evaluate_script', {
        pageId: id,
        function:
          '() => { document.getElementById("feed").innerHTML = "<p>Item</p>".repeat(130000); return document.getElementsByTagName("*").length; }',
      });
      expect(grown.isError, grown.text).toBe(false);
      const whole = await call(fx.client, 'take_snapshot', {pageId: id});
      expect(whole.isError, whole.text).toBe(true);
      expect(whole.text).toMatch(/has 130,\d{3} elements/);
      expect(whole.text).toContain('take_snapshot with the uid');
      const part = await call(fx.client, 'take_snapshot', {pageId: id, uid: inbox});
      expect(part.isError, part.text).toBe(false);
      expect(part.text).toContain('button "Archive all"');
      expect(part.text).toContain('Second mail');
      expect(part.text).not.toContain('Item');
    },
  );
});
