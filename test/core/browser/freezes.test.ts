/**
 * Nothing a page does can freeze the server: a dialog right after load, a script that never ends.
 * Real Chromium, two real MCP clients over HTTP, timings measured around real calls.
 *
 * The timings hold on a busy machine: a frozen call waits out its configured timeout, so each call
 * is checked against the timeout it was given (well under half of it on an idle machine; the
 * bound grows with the run's load but stays under the timeout), and "nobody waits" is an ordering
 * (the bystander's call ends before the runaway one), never a fixed number of ms.
 *
 * Tests: src/core/browser/lock.ts, src/core/mcp/ToolRunner.ts, src/core/mcp/callLocks.ts
 */
import {describe, expect, it} from 'vitest';
import {consoleCollectorFeature} from '../../../src/core/browser/collectors/index.js';
import {call, openPage, pageIdFrom, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {boundUnder, scaled} from '../../helpers/loadFactor.js';
import {LOCK_WAIT_MS} from '../../../src/core/browser/lock.js';

const fx = useEngineWithFixtures({clientName: 'freezer'});

const ALERT_AFTER_LOAD = `<!doctype html><title>Alerts after load</title>
<p>hello</p>
<script>addEventListener('load', () => setTimeout(() => alert('x'), 0));</script>`;

const ALERT_WHILE_LOADING = `<!doctype html><title>Alerts while loading</title>
<script>alert('early');</script><p>after</p>`;

/** The timeout the navigations here are given: what a call frozen by a dialog would wait out. */
const NAVIGATION_TIMEOUT_MS = 30_000;

async function timed<T>(work: Promise<T>): Promise<{value: T; ms: number; endedAt: number}> {
  const started = performance.now();
  const value = await work;
  const endedAt = performance.now();
  return {value, ms: endedAt - started, endedAt};
}

/** The call did not wait out `timeoutMs`: it ended well before, however busy the machine. */
function expectWellUnder(ms: number, timeoutMs: number): void {
  expect(ms).toBeLessThan(boundUnder(timeoutMs / 2, timeoutMs));
}

describe('a dialog right after load', () => {
  it('new_page returns at once with the dialog noted, and other clients are not held up', async () => {
    const url = fx.server.html('/alert-after-load.html', ALERT_AFTER_LOAD);
    const other = await fx.engine.connect('bystander');
    const otherPage = await openPage(other, fx.server.url('/index.html'), '/index.html');

    const opening = timed(call(fx.client, 'new_page', {url, timeout: NAVIGATION_TIMEOUT_MS}));
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
    expectWellUnder(opened.ms, NAVIGATION_TIMEOUT_MS);
    expect(listed.value.isError).toBe(false);
    expectWellUnder(listed.ms, NAVIGATION_TIMEOUT_MS);
    expect(evaluated.value.text).toContain('42');
    expectWellUnder(evaluated.ms, NAVIGATION_TIMEOUT_MS);

    // navigate_page to the same page behaves the same way.
    const alerting = pageIdFrom(opened.value.text, 'alert-after-load');
    await call(fx.client, 'handle_dialog', {pageId: alerting, action: 'accept'});
    const again = await timed(
      call(fx.client, 'navigate_page', {
        pageId: alerting,
        type: 'url',
        url,
        timeout: NAVIGATION_TIMEOUT_MS,
      }),
    );
    expect(again.value.text).toContain('# Open dialog');
    expectWellUnder(again.ms, NAVIGATION_TIMEOUT_MS);
    await call(fx.client, 'handle_dialog', {pageId: alerting, action: 'accept'});
  });

  it('a dialog while the page is still loading ends the wait too', async () => {
    const url = fx.server.html('/alert-while-loading.html', ALERT_WHILE_LOADING);
    const opened = await timed(call(fx.client, 'new_page', {url, timeout: NAVIGATION_TIMEOUT_MS}));
    expect(opened.value.text).toContain('The page opened a dialog before it finished loading.');
    expect(opened.value.text).toContain('alert: early.');
    expectWellUnder(opened.ms, NAVIGATION_TIMEOUT_MS);
    const id = pageIdFrom(opened.value.text, 'alert-while-loading');
    const handled = await call(fx.client, 'handle_dialog', {pageId: id, action: 'accept'});
    expect(handled.isError, handled.text).toBe(false);
  });
});

describe('a runaway script', () => {
  it('is stopped on timeout, the page stays usable, and nobody else waits for it', async () => {
    const id = await openPage(fx.client, fx.server.url('/index.html?runaway'), 'runaway');
    const other = await fx.engine.connect('bystander-2');

    // Long enough that the bystander's new_page ends within it: 3 s on an idle machine (a tab
    // opens in well under 1 s there), more on a busy one, never more than 8 s (so three times it
    // stays under the lock wait the check below must stay under).
    const scriptTimeout = Math.min(scaled(3_000), 8_000);
    const running = timed(
      call(fx.client, 'evaluate_script', {
        pageId: id,
        function: '() => { while (true) {} }',
        timeout: scriptTimeout,
      }),
    );
    // Meanwhile another client opens a tab: it must not wait for the loop.
    const opened = await timed(call(other, 'new_page', {url: fx.server.url('/other.html')}));
    const stopped = await running;

    expect(opened.value.isError, opened.value.text).toBe(false);
    expect(opened.endedAt).toBeLessThan(stopped.endedAt);
    expect(stopped.value.isError).toBe(true);
    expect(stopped.value.text).toContain(
      `The script did not finish within ${scriptTimeout} ms, so it was stopped.`,
    );
    expect(stopped.value.text).toContain('pass a larger timeout');
    expect(stopped.value.text).not.toContain('protocolTimeout');
    // Stopped by its own timeout: not before it, and not after some other, longer wait.
    expect(stopped.ms).toBeGreaterThanOrEqual(scriptTimeout - 100);
    expect(stopped.ms).toBeLessThan(boundUnder(scriptTimeout * 3, LOCK_WAIT_MS));

    // The loop is gone: the page answers the next call (a looping page could not say 2).
    const nextTimeout = 30_000;
    const next = await timed(
      call(fx.client, 'evaluate_script', {
        pageId: id,
        function: '() => 1 + 1',
        timeout: nextTimeout,
      }),
    );
    expect(next.value.text).toContain('2');
    expectWellUnder(next.ms, nextTimeout);
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
    const messages = consoleCollectorFeature.get(fx.engine.engine.browser.pages.byId(id));
    await waitFor(
      () => messages.entries(true).some(entry => entry.text().includes('loop-start')),
      10_000,
      'the script to start looping',
    );
    controller.abort();
    await running;
    const nextTimeout = 30_000;
    const next = await timed(
      call(fx.client, 'evaluate_script', {pageId: id, function: '() => 3', timeout: nextTimeout}),
    );
    expect(next.value.text).toContain('3');
    expectWellUnder(next.ms, nextTimeout);
  });
});
