/**
 * One small change stays small on a 600-row table (≈9,600 accessibility nodes, rows separated by
 * whitespace as server-rendered markup has them): ticking a row and approving it (a class on one
 * <tr>) re-reads that row, not the page, and the snapshot still equals a full read. (The fixture's
 * default is 2,000 rows, for the benchmarks; 600 are already 30 times what a row's re-read may
 * cost here.)
 *
 * Tests: src/core/browser/snapshot/snapshot.ts
 */
import {describe, expect, it} from 'vitest';
import {takeSnapshot} from '../../../src/core/browser/snapshot/snapshot.js';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';
import {lineOf, uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

describe('a 600-row table', () => {
  // A few whole reads of a 9,600-node page: seconds each on a loaded 2-core machine.
  it('re-reads one row when a class is added to it', {timeout: 300_000}, async () => {
    const id = await fx.openPage('/big-table.html?rows=600', '/big-table.html');
    const state = fx.engine.engine.browser.pages.byId(id);
    const first = await takeSnapshot(state, {verbose: false});
    const tick = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(first.text, 'checkbox "Select order 432"'),
    });
    expect(tick.isError, tick.text).toBe(false);
    const ticked = await takeSnapshot(state, {verbose: false});
    expect(lineOf(ticked.text, 'checkbox "Select order 432"')).toContain('checked');
    const approve = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(ticked.text, 'button "Approve"'),
    });
    expect(approve.isError, approve.text).toBe(false);
    const approved = await takeSnapshot(state, {verbose: false});
    expect(approved.why).toBeUndefined();
    expect(approved.read).toBe('incremental');
    // The row (≈16 nodes), its ancestors and the status line: a few dozen, not 9,600.
    expect(approved.nodesRead).toBeLessThan(300);
    expect(approved.text).toContain('"1 approved"');
    const lines = approved.text.split('\n');
    const row = lines.findIndex(line => line.includes('checkbox "Select order 432"'));
    expect(lines.slice(row, row + 6).join('\n')).toContain('" approved"');
    const full = await takeSnapshot(state, {verbose: false, fresh: true});
    expect(approved.text).toBe(full.text);
  });
});
