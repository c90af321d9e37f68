/**
 * The incremental tree never answers what a full read would not: seeded random changes (insert,
 * remove, move, attributes, text, hide/show, shadow root content, form state, focus, clicks) are
 * made in the page, its same-site frame and its cross-site frame, as the page's own scripts would;
 * after each, the snapshot from the kept trees must equal, line for line, one read whole. Most
 * of them must have come from the kept trees, or the test proves nothing.
 *
 * Tests: src/core/browser/snapshot/spliceTree.ts, src/core/browser/snapshot/changeRoots.ts,
 *   src/injected/treeChanges.ts, src/injected/common/changeScope.ts,
 *   src/injected/common/treeProbe.ts, src/core/browser/snapshot/keptTree.ts
 */
import {describe, expect, it} from 'vitest';
import {useEngineWithFixtures} from '../../helpers/engine.js';
import {takeSnapshot} from '../../../src/core/browser/snapshot/snapshot.js';
import {runSeed, subjectWithFrames} from '../../helpers/snapshotEquivalence.js';

const fx = useEngineWithFixtures();

async function run(path: string, seed: number, steps: number, verbose: boolean): Promise<number> {
  const id = await fx.openPage(path);
  const subject = await subjectWithFrames(fx.engine.engine.browser.pages.byId(id));
  return (await runSeed(subject, {seed, steps, verbose})).incremental;
}

describe('incremental snapshots match a full read', () => {
  // SNAPSHOT_SEEDS=5-40 runs more seeds (a longer local check).
  const [from, to] = (process.env.SNAPSHOT_SEEDS ?? '1-3').split('-').map(Number);
  for (let seed = from ?? 1; seed <= (to ?? 3); seed++) {
    it(`seed ${seed}: 60 random change sets in the page and its frames`, async () => {
      const incremental = await run('/incremental/page.html', seed, 60, false);
      // Most change sets are scoped; a few (a moved frame, a style change) are read whole.
      expect(incremental).toBeGreaterThan(30);
    });
  }

  // Rules that hide through siblings (+, :nth-child) widen an attribute change to the siblings;
  // rules that follow hover, focus or :checked make any such event read the page whole.
  for (const seed of [5, 6]) {
    it(`seed ${seed}: 60 change sets on a page with style rules on siblings and state`, async () => {
      const incremental = await run('/incremental/styled.html', seed, 60, false);
      expect(incremental).toBeGreaterThan(15);
    });
  }

  it('seed 4: verbose snapshots are read whole (line boxes follow layout)', async () => {
    expect(await run('/incremental/page.html', 4, 10, true)).toBe(0);
  });

  it('snapshots of one page asked for at once are taken in turn, not interleaved', async () => {
    const id = await fx.openPage('/incremental/page.html');
    const subject = await subjectWithFrames(fx.engine.engine.browser.pages.byId(id));
    await takeSnapshot(subject.state, {verbose: false});
    for (let round = 0; round < 6; round++) {
      for (const where of ['main', 'same', 'cross'] as const) {
        await subject.mutate(where, 7000 + round, 1);
      }
      const results = await Promise.all(
        [1, 2, 3].map(() => takeSnapshot(subject.state, {verbose: false})),
      );
      // One reads the change; the others find the page unchanged since. Interleaved, they read
      // the page whole over and over ("no earlier tree") and could stitch a frame in twice.
      expect(
        results.map(result => result.read),
        `round ${round}`,
      ).toEqual(['incremental', 'cached', 'cached']);
      const fresh = await takeSnapshot(subject.state, {verbose: false, fresh: true});
      for (const {text} of results) {
        expect(text.match(/RootWebArea "Frame"/g), `round ${round}`).toHaveLength(2);
        expect(text, `round ${round}`).toBe(fresh.text);
      }
    }
  });
});
