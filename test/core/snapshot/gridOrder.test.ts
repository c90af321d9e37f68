/**
 * Grids read as their users see them: rows placed with transforms in the order of their
 * aria-rowindex are listed in that order, and aria-rowindex, aria-colindex and aria-rowcount are
 * printed where they differ from what the listed rows and cells would make an agent assume; a
 * plain table prints none of them. Also on AG Grid (test/fixtures/libraries) after a sort.
 *
 * Tests: src/core/browser/snapshot/gridOrder.ts, src/injected/common/gridMarks.ts
 */
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {openLibraryPage} from '../../helpers/libraryPages.js';
import {evaluate, lineOf, snapshotOf, uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

/** The snapshot lines that contain `fragment`, in order. */
function linesWith(snapshot: string, fragment: RegExp): string[] {
  return snapshot.split('\n').filter(line => fragment.test(line));
}

describe('grids in the order shown', () => {
  it('lists transformed rows by aria-rowindex and prints the indices that differ', async () => {
    const id = await fx.openPage('/aria/transformed-grid.html');
    const snapshot = await snapshotOf(fx.client, id);
    expect(linesWith(snapshot, /link "Order \d"/).map(line => /Order \d/.exec(line)?.[0])).toEqual([
      'Order 2',
      'Order 4',
      'Order 9',
      'Order 7',
    ]);
    expect(lineOf(snapshot, 'grid "Orders"')).toContain('rowcount=1001');
    // Three columns, two listed (one scrolled out of view).
    expect(lineOf(snapshot, 'grid "Orders"')).toContain('colcount=3');
    const rows = linesWith(snapshot.slice(0, snapshot.indexOf('table "Plain"')), / row( |$)/);
    expect(rows.map(line => /rowindex=(\d+)/.exec(line)?.[1])).toEqual([
      undefined,
      '38',
      '39',
      '40',
      '41',
    ]);
    // The amount column is the third: its cells say so (the header's button shows it too).
    expect(snapshot).not.toMatch(/colindex=1\b/);
    // A plain table: nothing to add.
    const plain = snapshot.slice(snapshot.indexOf('table "Plain"'));
    expect(plain).not.toMatch(/rowindex|colindex|rowcount/);
    expect(linesWith(plain, /link/).map(line => /"(\w+)"/.exec(line)?.[1])).toEqual([
      'Apples',
      'Pears',
    ]);
  });

  it(
    'AG Grid: after sorting by Amount the rows are listed by amount',
    {timeout: 120_000},
    async () => {
      const id = await openLibraryPage(fx.client, fx.server, 'aggrid');
      const before = await snapshotOf(fx.client, id);
      expect(lineOf(before, ' grid')).toContain('rowcount=1001');
      const sorted = await call(fx.client, 'click', {
        pageId: id,
        uid: uidOf(before, 'columnheader "Amount"'),
      });
      expect(sorted.isError, sorted.text).toBe(false);
      await waitFor(
        async () =>
          (await evaluate(fx.client, id, '() => document.getElementById("sorted").textContent')) ===
          'Sorted by amount asc',
        10_000,
        'the sort',
      );
      // Scrolled, the grid recycles row elements: DOM order and shown order part ways.
      await evaluate(
        fx.client,
        id,
        '() => { const scroller = [...document.querySelectorAll("#grid *")].find(el => el.scrollHeight > el.clientHeight + 100 && /auto|scroll/.test(getComputedStyle(el).overflowY)); scroller.scrollTop = 700; return scroller.className; }',
      );
      await waitFor(
        async () =>
          (await evaluate(
            fx.client,
            id,
            '() => [...document.querySelectorAll("#grid .ag-row")].some(row => Number(row.getAttribute("aria-rowindex")) > 14)',
          )) === true,
        10_000,
        'the grid to render the scrolled rows',
      );
      const after = await snapshotOf(fx.client, id);
      // The amounts the rows show, top to bottom, as the page lays them out.
      const shown = (await evaluate(
        fx.client,
        id,
        '() => [...document.querySelectorAll("#grid .ag-row")].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map(row => row.querySelector("[col-id=amount]").textContent)',
      )) as string[];
      const listed = linesWith(after, /rowindex=\d+/);
      expect(listed.length).toBeGreaterThan(5);
      const amounts = after
        .split('\n')
        .filter(line => /^\s*\d+ "\d+"$/.test(line) || /gridcell "\d+"/.test(line))
        .map(line => /"(\d+)"/.exec(line)?.[1]);
      expect(amounts.slice(0, shown.length)).toEqual(shown);
    },
  );
});
