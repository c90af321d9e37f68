/**
 * The incremental tree on markup real component libraries produce (test/fixtures/libraries): each
 * library's own interactions (grid filtering, sorting and scrolling, menus, dialogs, trees, tabs,
 * a virtualized list scrolled, sortable lists reordered), then seeded random changes to its
 * markup, flattening wrappers included. After each, the snapshot from the kept trees must equal,
 * line for line, one read whole (seed, step and what was done are in the failure message).
 *
 * Tests: src/core/browser/snapshot/spliceTree.ts, src/core/browser/snapshot/snapshot.ts
 */
import {describe, expect, it} from 'vitest';
import type {PageState} from '../../../src/core/browser/pages/PageState.js';
import {takeSnapshot} from '../../../src/core/browser/snapshot/snapshot.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {LIBRARY_PAGES, openLibraryPage, type LibraryPage} from '../../helpers/libraryPages.js';
import {
  compare,
  evaluate,
  expectSame,
  runSeed,
  singleDocumentSubject,
} from '../../helpers/snapshotEquivalence.js';
import {uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

/**
 * In-page: resolves once no mutation was seen for 200 ms and no animation runs (bounded at 3 s),
 * so a library's own follow-up renders (animation frames, timers, React, row transitions) are
 * done before the comparison, as they are by the time a model asks again.
 */
const QUIET = `new Promise(resolve => {
  let last = performance.now();
  const observer = new MutationObserver(() => { last = performance.now(); });
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  const start = last;
  const check = () => {
    const now = performance.now();
    const still = now - last >= 200 && document.getAnimations().every(a => a.playState !== 'running');
    if (still || now - start > 3000) { observer.disconnect(); resolve(true); } else setTimeout(check, 50);
  };
  setTimeout(check, 50);
})`;

/** Sets a field's value the way typing does (through the native setter, so React sees it). */
const type = (selector: string, text: string): string =>
  `(() => { const el = document.querySelector(${JSON.stringify(selector)}); el.focus(); Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, ${JSON.stringify(text)}); el.dispatchEvent(new Event('input', {bubbles: true})); })()`;
const click = (selector: string): string =>
  `document.querySelector(${JSON.stringify(selector)}).click()`;
const press = (selector: string): string =>
  `document.querySelector(${JSON.stringify(selector)}).dispatchEvent(new MouseEvent('mousedown', {bubbles: true, button: 0}))`;
/** Scrolls the first element under `selector` (itself included) that scrolls vertically. */
const scroll = (selector: string, top: number): string =>
  `[...document.querySelectorAll(${JSON.stringify(`${selector}, ${selector} *`)})].find(el => el.scrollHeight > el.clientHeight + 100 && /auto|scroll/.test(getComputedStyle(el).overflowY)).scrollTop = ${top}`;

/** Each library's own interactions, as its users make them, in order. */
const INTERACTIONS: Record<LibraryPage, [what: string, expression: string][]> = {
  aggrid: [
    ['filter "Zagreb"', type('#filter', 'Zagreb')],
    ['sort by Amount', click('.ag-header-cell[col-id="amount"] .ag-header-cell-label')],
    ['sort by Amount again', click('.ag-header-cell[col-id="amount"] .ag-header-cell-label')],
    ['clear the filter', type('#filter', '')],
    ['scroll the rows', scroll('#grid', 1600)],
    ['sort by City', click('.ag-header-cell[col-id="city"] .ag-header-cell-label')],
    ['scroll back', scroll('#grid', 0)],
    ['filter "Oslo"', type('#filter', 'Oslo')],
  ],
  mui: [
    ['add to cart', click('button.MuiButton-contained')],
    ['open the size select', press('[role="combobox"][aria-labelledby~="size-label"]')],
    ['choose Medium', click('[role="option"][data-value="Medium"]')],
    ['type in the city box', type('input[role="combobox"]', 'Ber')],
    ['choose the first city', click('[role="option"]')],
    ['open the dialog', click('button.MuiButton-outlined')],
    ['keep the account', click('[role="dialog"] button')],
    ['tick the newsletter', click('input[type="checkbox"]')],
  ],
  shoelace: [
    ['expand Documents', `document.querySelector('sl-tree-item').expanded = true`],
    ['select a tree item', click('sl-tree-item[data-name="report.pdf"]')],
    ['show the Billing tab', `document.getElementById('tabs').show('billing')`],
    ['open the dropdown', `document.querySelector('sl-dropdown').show()`],
    ['choose Archive', click('sl-menu-item[value="archive"]')],
    ['open the dialog', `document.getElementById('dialog').show()`],
    ['confirm', click('#confirm')],
    ['save', click('#save')],
  ],
  sortable: [
    [
      'reorder the playlist',
      `(() => { const list = document.getElementById('native-list'); list.append(list.firstElementChild); })()`,
    ],
    [
      'move a card to Done',
      `(() => { document.querySelector('[data-name="Done"] ul').append(document.getElementById('card-write')); })()`,
    ],
    [
      'reorder the queue',
      `(() => { const list = document.getElementById('fallback-list'); list.prepend(list.lastElementChild); })()`,
    ],
  ],
  virtual: [
    ['scroll down', scroll('#scroller', 3200)],
    ['choose a contact', click('[role="option"]')],
    ['scroll far down', scroll('#scroller', 160_000)],
    ['scroll up a little', scroll('#scroller', 158_400)],
  ],
};

async function interact(state: PageState, name: LibraryPage): Promise<void> {
  await takeSnapshot(state, {verbose: false});
  for (const [what, expression] of INTERACTIONS[name]) {
    await evaluate(state.cdp, `(async () => { ${expression}; return ${QUIET}; })()`);
    const result = await compare(state, false);
    expectSame(result, `${name}: after "${what}"`);
    if (process.env.SNAPSHOT_WHY) {
      console.log(`${name}: after "${what}": ${result.read} ${result.why ?? ''}`);
    }
  }
}

describe('incremental snapshots on component library markup match a full read', () => {
  for (const name of LIBRARY_PAGES.filter(page => (process.env.LIBRARY ?? page) === page)) {
    // Each step compares against a whole read of a page of thousands of nodes.
    it(
      `${name}: its own interactions, then 40 random change sets`,
      {timeout: 600_000},
      async () => {
        const id = await openLibraryPage(fx.client, fx.server, name);
        const state = fx.engine.engine.browser.pages.byId(id);
        await interact(state, name);
        const subject = await singleDocumentSubject(state, {flatten: true});
        const seed = 100 + LIBRARY_PAGES.indexOf(name);
        const counts = await runSeed(subject, {seed, steps: 40, verbose: false, label: name});
        expect(counts.incremental + [...counts.whole.values()].reduce((a, b) => a + b, 0)).toBe(40);
      },
    );
  }

  // The case that was reported: typing into a data grid's filter box through the tool, the next
  // snapshots a moment later, as a model takes them.
  it(
    'AG Grid: after fill in the filter box the snapshot shows the filtered rows',
    {timeout: 300_000},
    async () => {
      const id = await openLibraryPage(fx.client, fx.server, 'aggrid');
      const state = fx.engine.engine.browser.pages.byId(id);
      const before = await takeSnapshot(state, {verbose: false});
      const filled = await call(fx.client, 'fill', {
        pageId: id,
        uid: uidOf(before.text, 'Filter orders'),
        value: 'Zagreb',
      });
      expect(filled.isError, filled.text).toBe(false);
      await waitFor(
        async () =>
          (await evaluate(state.cdp, 'document.getElementById("result").textContent')) ===
          'Showing 3 rows',
        10_000,
        'the grid to filter',
      );
      for (let look = 0; look < 3; look++) {
        const result = await compare(state, false);
        expectSame(result, `look ${look} after filtering`);
        expect(result.incremental).toContain('Showing 3 rows');
        expect(result.incremental).toContain('value="Zagreb"');
        expect(result.incremental).not.toContain('"Order 1"');
      }
    },
  );
});
