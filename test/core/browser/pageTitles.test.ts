/**
 * Live page titles, with a real Chromium and MCP client: a title a page's script sets shows in
 * list_pages at once (the browser does not report it), and in the inspector's page list without
 * any call; after new_page and navigate_page the inspector shows the document's title, not its URL.
 *
 * Tests: src/core/browser/pages/pageTitles.ts, src/core/browser/pages/PageRegistry.ts
 */
import {describe, expect, it} from 'vitest';
import type {PageInfo} from '../../../src/shared/protocol.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  routes: server => {
    server.html('/titled.html', '<!doctype html><title>First title</title><p>titled</p>');
    server.html('/next.html', '<!doctype html><title>Next title</title><p>next</p>');
  },
});

function inspectorPage(pageId: number): PageInfo | undefined {
  return fx.engine.engine.state().pages.find(page => page.id === pageId);
}

describe('live page titles', () => {
  it('list_pages shows a title the page script set, in text and structured content', async () => {
    const pageId = await fx.openPage('/titled.html');
    const set = await call(fx.client, 'evaluate_script', {
      pageId,
      function: '() => { document.title = "Set by script"; return document.title; }',
    });
    expect(set.isError, set.text).toBe(false);
    const listed = await call(fx.client, 'list_pages');
    expect(listed.text).toContain(`${pageId}: Set by script (`);
    const structured = listed.result.structuredContent as {pages: PageInfo[]} | undefined;
    expect(structured?.pages.find(page => page.id === pageId)?.title).toBe('Set by script');
  });

  it('the inspector follows a title the page changes by itself, with no call', async () => {
    const pageId = await fx.openPage('/titled.html');
    const scheduled = await call(fx.client, 'evaluate_script', {
      pageId,
      function: '() => { setTimeout(() => { document.title = "Changed later"; }, 300); return 1; }',
    });
    expect(scheduled.isError, scheduled.text).toBe(false);
    await waitFor(
      () => inspectorPage(pageId)?.title === 'Changed later',
      10_000,
      'the inspector to show the title the page set later',
    );
  });

  it('after new_page and navigate_page the inspector shows the document title', async () => {
    const opened = await fx.openPage('/next.html');
    await waitFor(
      () => inspectorPage(opened)?.title === 'Next title',
      10_000,
      'the inspector to show the opened page title',
    );
    const pageId = await fx.openPage('/titled.html');
    const navigated = await call(fx.client, 'navigate_page', {
      pageId,
      url: fx.server.url('/next.html'),
    });
    expect(navigated.isError, navigated.text).toBe(false);
    expect(navigated.text).toContain(`${pageId}: Next title (`);
    await waitFor(
      () => inspectorPage(pageId)?.title === 'Next title',
      10_000,
      'the inspector to show the navigated page title',
    );
  });
});
