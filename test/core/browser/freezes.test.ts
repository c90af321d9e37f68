/**
 * Nothing a page does can freeze the server: a dialog right after load, a script that never ends.
 * Real Chromium, two real MCP clients over HTTP, timings measured around real calls.
 */
import {describe, expect, it} from 'vitest';
import {consoleCollectorFeature} from '../../../src/core/browser/collectors/index.js';
import {call, openPage, pageIdFrom, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({clientName: 'freezer'});

const ALERT_AFTER_LOAD = `<!doctype html><title>Alerts after load</title>
<p>hello</p>
<script>addEventListener('load', () => setTimeout(() => alert('x'), 0));</script>`;

const ALERT_WHILE_LOADING = `<!doctype html><title>Alerts while loading</title>
<script>alert('early');</script><p>after</p>`;

async function timed<T>(work: Promise<T>): Promise<{value: T; ms: number}> {
  const started = performance.now();
  const value = await work;
  return {value, ms: performance.now() - started};
}

describe('a dialog right after load', () => {
  it('new_page returns within 2 s with the dialog noted, and other clients are not held up', async () => {
    const url = fx.server.html('/alert-after-load.html', ALERT_AFTER_LOAD);
    const other = await fx.engine.connect('bystander');
    const otherPage = await openPage(other, fx.server.url('/index.html'), '/index.html');

    const opening = timed(call(fx.client, 'new_page', {url}));
    // While new_page runs, another client lists pages and evaluates on its own page.
    const listed = await timed(call(other, 'list_pages'));
    const evaluated = await timed(
      call(other, 'evaluate_script', {pageId: otherPage, function: '() => 6 * 7'}),
    );
    const opened = await opening;

    expect(opened.value.isError, opened.value.text).toBe(false);
    expect(opened.value.text).toContain('# Open dialog');
    expect(opened.value.text).toContain('alert: x.');
    expect(opened.value.text).toContain('Call handle_dialog to handle it before continuing.');
    expect(opened.ms).toBeLessThan(2_000);
    expect(listed.value.isError).toBe(false);
    expect(listed.ms).toBeLessThan(1_000);
    expect(evaluated.value.text).toContain('42');
    expect(evaluated.ms).toBeLessThan(1_000);

    // navigate_page to the same page behaves the same way.
    const alerting = pageIdFrom(opened.value.text, 'alert-after-load');
    await call(fx.client, 'handle_dialog', {pageId: alerting, action: 'accept'});
    const again = await timed(
      call(fx.client, 'navigate_page', {pageId: alerting, type: 'url', url}),
    );
    expect(again.value.text).toContain('# Open dialog');
    expect(again.ms).toBeLessThan(2_000);
    await call(fx.client, 'handle_dialog', {pageId: alerting, action: 'accept'});
  });

  it('a dialog while the page is still loading ends the wait too', async () => {
    const url = fx.server.html('/alert-while-loading.html', ALERT_WHILE_LOADING);
    const opened = await timed(call(fx.client, 'new_page', {url}));
    expect(opened.value.text).toContain('The page opened a dialog before it finished loading.');
    expect(opened.value.text).toContain('alert: early.');
    expect(opened.ms).toBeLessThan(2_000);
    const id = pageIdFrom(opened.value.text, 'alert-while-loading');
    const handled = await call(fx.client, 'handle_dialog', {pageId: id, action: 'accept'});
    expect(handled.isError, handled.text).toBe(false);
  });
});

describe('a runaway script', () => {
  it('is stopped on timeout, the page stays usable, and nobody else waits for it', async () => {
    const id = await openPage(fx.client, fx.server.url('/index.html?runaway'), 'runaway');
    const other = await fx.engine.connect('bystander-2');

    const running = timed(
      call(fx.client, 'evaluate_script', {
        pageId: id,
        function: '() => { while (true) {} }',
        timeout: 2_000,
      }),
    );
    // Meanwhile another client opens a tab: it must not wait for the loop.
    const opened = await timed(call(other, 'new_page', {url: fx.server.url('/other.html')}));
    const stopped = await running;

    expect(opened.value.isError, opened.value.text).toBe(false);
    expect(opened.ms).toBeLessThan(1_500);
    expect(stopped.value.isError).toBe(true);
    expect(stopped.value.text).toContain(
      'The script did not finish within 2000 ms, so it was stopped.',
    );
    expect(stopped.value.text).toContain('pass a larger timeout');
    expect(stopped.value.text).not.toContain('protocolTimeout');
    expect(stopped.ms).toBeLessThan(5_000);

    // The loop is gone: the page answers the next call at once.
    const next = await timed(
      call(fx.client, 'evaluate_script', {pageId: id, function: '() => 1 + 1'}),
    );
    expect(next.value.text).toContain('2');
    expect(next.ms).toBeLessThan(1_000);
  });

  it('is stopped when the client cancels the call', async () => {
    const id = await openPage(fx.client, fx.server.url('/index.html?cancelled'), 'cancelled');
    const controller = new AbortController();
    const running = fx.client
      .callTool(
        {
          name: 'evaluate_script',
          arguments: {pageId: id, function: "() => { console.log('loop-start'); while (true) {} }"},
        },
        undefined,
        {signal: controller.signal},
      )
      .catch((error: unknown) => error);
    // Cancel once the script loops: it logs just before, and the log reaches the server although
    // the page's main thread stays busy.
    const messages = consoleCollectorFeature.get(fx.engine.engine.session.pages.byId(id));
    await waitFor(
      () => messages.entries(true).some(entry => entry.text().includes('loop-start')),
      10_000,
      'the script to start looping',
    );
    controller.abort();
    await running;
    const next = await timed(call(fx.client, 'evaluate_script', {pageId: id, function: '() => 3'}));
    expect(next.value.text).toContain('3');
    expect(next.ms).toBeLessThan(2_000);
  });
});
