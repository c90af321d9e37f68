/**
 * The Log while calls stream in, end to end: a scripted agent makes about 15 calls a second
 * against the real headless server while a person reads the inspector in headless Chromium. Rows
 * never move under the pointer, so a click selects the row it aimed at; the selected row keeps
 * its place while calls arrive; Home and End show the whole row below the sticky header; the
 * follow control never covers a cell; the list never goes blank; at 900 px the table drops its
 * least useful columns instead of cutting cells. Screenshots light and dark, 1280 and 900 px.
 *
 * Tests: src/renderer/src/features/log/logModel.ts, src/renderer/src/store/CallLog.ts
 */
import type {Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {type CallStream, streamCalls} from '../helpers/callStream.js';
import {waitFor} from '../helpers/engine.js';
import {
  type InspectorFixture,
  openInspector,
  screenshot,
  startInspectorFixture,
} from '../helpers/ui.js';

let fixture: InspectorFixture;
let page: Page;
let stream: CallStream | undefined;

beforeAll(async () => {
  fixture = await startInspectorFixture({clientName: 'stream-agent'});
  page = fixture.page;
});

afterAll(async () => {
  await stream?.stop();
  await fixture.dispose();
});

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

interface ListView {
  /** The grid's box (all zero before the first call: the list is an empty state then). */
  grid: Box;
  /** The bottom of the sticky header row. */
  headerBottom: number;
  /** Rows drawn inside the visible part of the grid. */
  visibleRows: number;
  selected: {callId: string; box: Box} | undefined;
  /** The follow strip (status text or button). */
  follow: {text: string; box: Box} | undefined;
  rowCount: number;
}

function listView(target: Page = page): Promise<ListView> {
  return target.evaluate(() => {
    const box = (element: Element): Box => {
      const rect = element.getBoundingClientRect();
      return {top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right};
    };
    const grid = document.querySelector('[role=grid]');
    if (!grid) {
      const none = {top: 0, bottom: 0, left: 0, right: 0};
      return {
        grid: none,
        headerBottom: 0,
        visibleRows: 0,
        selected: undefined,
        follow: undefined,
        rowCount: 0,
      };
    }
    const gridBox = box(grid);
    const rows = [...grid.querySelectorAll('[role=row][data-call-id]')];
    const selected = grid.querySelector('[role=row][aria-selected=true]');
    const follow = document.querySelector('[data-testid=log-follow]');
    return {
      grid: gridBox,
      headerBottom: box(grid.querySelector('.log-row--header') ?? grid).bottom,
      visibleRows: rows.filter(row => {
        const rect = row.getBoundingClientRect();
        return rect.bottom > gridBox.top && rect.top < gridBox.bottom;
      }).length,
      selected: selected
        ? {callId: selected.getAttribute('data-call-id') ?? '', box: box(selected)}
        : undefined,
      follow: follow ? {text: follow.textContent, box: box(follow)} : undefined,
      rowCount: Number(grid.getAttribute('aria-rowcount')) - 1,
    };
  });
}

/** Waits until at least `more` further calls have reached the grid. */
async function rowsGrow(more: number, target: Page = page): Promise<void> {
  const from = (await listView(target)).rowCount;
  await waitFor(async () => (await listView(target)).rowCount >= from + more, 20_000, 'new rows');
}

/** The row under a point, as the page sees it. */
function rowAt(x: number, y: number): Promise<string | undefined> {
  return page.evaluate(
    (px: number, py: number) =>
      document.elementFromPoint(px, py)?.closest('[role=row]')?.getAttribute('data-call-id') ??
      undefined,
    x,
    y,
  );
}

describe('the Log while calls stream (e2e)', () => {
  it('follows new calls while nobody points at it', async () => {
    stream = streamCalls(fixture.agent.client, {perSecond: 15});
    await waitFor(async () => (await listView()).rowCount > 40, 30_000, 'a screenful of calls');
    const view = await listView();
    expect(view.follow?.text).toBe('Following new calls');
    // The newest row is the last one drawn, at the bottom of the box.
    const last = await page.$eval('[role=grid]', grid => grid.scrollHeight - grid.scrollTop);
    expect(last - (view.grid.bottom - view.grid.top)).toBeLessThan(2);
    await screenshot(page, 'log-stream-following');
  });

  it('holds still under the pointer, so a slow click selects the row it aimed at', async () => {
    const {grid} = await listView();
    const x = grid.left + 150;
    const y = grid.top + (grid.bottom - grid.top) / 2;
    await page.mouse.move(x, y);
    const aimed = await rowAt(x, y);
    expect(aimed).toBeDefined();
    await rowsGrow(5);
    // Calls kept coming; the row under the pointer is still the same one.
    expect(await rowAt(x, y)).toBe(aimed);
    expect((await listView()).follow?.text).toMatch(
      /^Paused while the pointer is on the list · \d+ new$/,
    );
    await page.mouse.down();
    await rowsGrow(2);
    await page.mouse.up();
    const view = await listView();
    expect(view.selected?.callId).toBe(aimed);
    expect(await page.$eval('[data-testid=call-detail]', pane => pane.textContent)).toContain(
      aimed,
    );
  });

  it('keeps the selected row in its place while calls arrive, with the pointer gone', async () => {
    const before = await listView();
    await page.mouse.move(5, 5);
    await rowsGrow(15);
    const after = await listView();
    expect(after.selected?.callId).toBe(before.selected?.callId);
    expect(after.selected?.box.top).toBe(before.selected?.box.top);
    expect(after.visibleRows).toBeGreaterThan(10);
    // Following stopped on the click; the strip counts what arrived, and covers no row.
    expect(after.follow?.text).toMatch(/^↓ \d+ new — follow$/);
    expect(after.follow?.box.top).toBeGreaterThanOrEqual(after.grid.bottom);
    await screenshot(page, 'log-stream-selected');
  });

  it('shows the whole first row below the header on Home, and never goes blank', async () => {
    await page.focus('[role=grid]');
    await page.keyboard.press('Home');
    await page.waitForFunction(
      () =>
        document.querySelector('[role=row][aria-selected=true]')?.getAttribute('aria-rowindex') ===
        '2',
    );
    const home = await listView();
    expect(home.selected?.box.top).toBeGreaterThanOrEqual(home.headerBottom - 0.5);
    await rowsGrow(15);
    const later = await listView();
    expect(later.selected?.callId).toBe(home.selected?.callId);
    expect(later.selected?.box.top).toBe(home.selected?.box.top);
    expect(later.visibleRows).toBeGreaterThan(10);
    // Down a page and back: each step shows its row whole.
    for (const key of ['PageDown', 'PageDown', 'ArrowDown', 'PageUp'] as const) {
      await page.keyboard.press(key);
      const view = await waitFor(
        async () => {
          const current = await listView();
          return current.selected?.callId !== later.selected?.callId ? current : undefined;
        },
        5_000,
        `the selection to move on ${key}`,
      );
      expect(view.selected?.box.top).toBeGreaterThanOrEqual(view.headerBottom - 0.5);
      expect(view.selected?.box.bottom).toBeLessThanOrEqual(view.grid.bottom + 0.5);
    }
  });

  it('shows the whole last row on End, and follows again from the button', async () => {
    await page.keyboard.press('End');
    const end = await waitFor(
      async () => {
        const view = await listView();
        return view.selected && view.selected.box.bottom > view.grid.bottom - 40 ? view : undefined;
      },
      5_000,
      'the last row selected',
    );
    expect(end.selected?.box.bottom).toBeLessThanOrEqual(end.grid.bottom + 0.5);
    await rowsGrow(10);
    // A chosen row stays put: End chose one.
    expect((await listView()).selected?.box.top).toBe(end.selected?.box.top);
    await page.click('[data-testid=log-follow] button');
    await waitFor(
      async () => (await listView()).follow?.text === 'Following new calls',
      5_000,
      'following again',
    );
    await rowsGrow(10);
    const following = await listView();
    const last = await page.$eval('[role=grid]', grid => grid.scrollHeight - grid.scrollTop);
    expect(last - (following.grid.bottom - following.grid.top)).toBeLessThan(2);
  });

  it('at 900 px drops the least useful columns instead of cutting cells', async () => {
    await page.setViewport({width: 900, height: 800});
    await waitFor(
      async () => (await page.$$('[role=columnheader]')).length === 4,
      5_000,
      'the narrow columns',
    );
    const headers = await page.$$eval('[role=columnheader]', cells =>
      cells.map(cell => cell.textContent),
    );
    expect(headers).toEqual(['Time', 'Client', 'Call', 'Status']);
    const fits = await page.$eval('[role=grid]', grid => grid.scrollWidth <= grid.clientWidth);
    expect(fits).toBe(true);
    await rowsGrow(5);
    await screenshot(page, 'log-stream-900');
    await page.setViewport({width: 1280, height: 800});
  });

  it('looks right in the dark, at 1280 and 900 px', async () => {
    const dark = await openInspector(
      fixture.browser,
      `${fixture.serve.inspectorUrl}#token=${fixture.serve.token}`,
      {dark: true},
    );
    try {
      await waitFor(
        async () => (await listView(dark.page)).rowCount > 20,
        20_000,
        'rows in the dark page',
      );
      await rowsGrow(5, dark.page);
      await screenshot(dark.page, 'log-stream-dark');
      await dark.page.setViewport({width: 900, height: 800});
      await rowsGrow(5, dark.page);
      await screenshot(dark.page, 'log-stream-900-dark');
      expect(dark.errors).toEqual([]);
    } finally {
      await dark.page.close();
    }
    expect(fixture.ui.errors).toEqual([]);
  });
});
