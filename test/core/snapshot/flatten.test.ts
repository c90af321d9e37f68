/**
 * The incremental tree where the accessibility tree is not the DOM: wrappers Chromium drops or
 * flattens (role presentation/none, display: contents, plain generics, a layout table),
 * aria-hidden and inert switched on ancestors, content moved between slots of a shadow root and
 * between two ignored wrappers. Seeded random change sets; after each, the snapshot from the
 * kept trees must equal, line for line, one read whole (the seed and step are in the message).
 *
 * Tests: src/core/browser/snapshot/spliceTree.ts, src/core/browser/snapshot/changeRoots.ts
 */
import {describe, expect, it} from 'vitest';
import {useEngineWithFixtures} from '../../helpers/engine.js';
import {runSeed, singleDocumentSubject} from '../../helpers/snapshotEquivalence.js';

const fx = useEngineWithFixtures();

describe('incremental snapshots through flattened wrappers match a full read', () => {
  // SNAPSHOT_SEEDS=20-80 runs more seeds (a longer local check).
  const [from, to] = (process.env.SNAPSHOT_SEEDS ?? '11-14').split('-').map(Number);
  for (let seed = from ?? 11; seed <= (to ?? 14); seed++) {
    it(`seed ${seed}: 80 change sets of wrappers, slots, aria-hidden and inert`, async () => {
      const id = await fx.openPage('/incremental/flatten.html');
      const subject = await singleDocumentSubject(fx.engine.engine.browser.pages.byId(id), {
        flatten: true,
      });
      const counts = await runSeed(subject, {seed, steps: 80, verbose: false, label: 'flatten'});
      expect(counts.incremental).toBeGreaterThan(20);
    });
  }
});
