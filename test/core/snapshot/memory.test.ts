/**
 * Kept trees are freed with their page: 10 tabs of a large page, each snapshotted (so each keeps
 * its tree), then closed; after a forced garbage collection the heap is back near where it
 * started. A navigation frees the page's kept trees at once, before any next snapshot.
 *
 * Tests: src/core/browser/snapshot/keptTree.ts
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import {describe, expect, it} from 'vitest';
import {keptTreesFeature} from '../../../src/core/browser/snapshot/keptTree.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {snapshotOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Heap in use after full collections (a few, so weak references and finalizers settle). */
async function settledHeapMb(): Promise<number> {
  for (let round = 0; round < 3; round++) {
    collect();
    await new Promise(resolve => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe('kept trees and memory', () => {
  it('frees the kept trees of 10 closed tabs', {timeout: 600_000}, async () => {
    const pages = fx.engine.engine.browser.pages;
    // One tab first, so the browser, the fixture server and the code are all warm.
    const warm = await fx.openPage('/big.html');
    await snapshotOf(fx.client, warm);
    await call(fx.client, 'close_page', {pageId: warm});
    const start = await settledHeapMb();
    const ids: number[] = [];
    for (let tab = 0; tab < 10; tab++) {
      const id = await fx.openPage('/big.html');
      await snapshotOf(fx.client, id);
      expect(keptTreesFeature.peek(pages.byId(id))?.nodeCount).toBeGreaterThan(3_000);
      ids.push(id);
    }
    const open = await settledHeapMb();
    for (const id of ids) {
      const closed = await call(fx.client, 'close_page', {pageId: id});
      expect(closed.isError, closed.text).toBe(false);
    }
    const end = await settledHeapMb();
    const grown = open - start;
    // 10 kept trees of ~6,000 nodes: ~30 MB while open (twice the bound below), (nearly) all of
    // it freed (~3 MB stayed, a tenth; kept trees that outlived their pages leave all of it).
    expect(grown).toBeGreaterThan(15);
    expect(end - start, `start ${start} MB, 10 tabs ${open} MB, closed ${end} MB`).toBeLessThan(
      grown * 0.2,
    );
  });

  it('frees a page’s kept trees when it navigates, before any next snapshot', async () => {
    const id = await fx.openPage('/big.html');
    await snapshotOf(fx.client, id);
    const trees = keptTreesFeature.get(fx.engine.engine.browser.pages.byId(id));
    expect(trees.nodeCount).toBeGreaterThan(3_000);
    const moved = await call(fx.client, 'navigate_page', {
      pageId: id,
      url: fx.server.url('/other.html'),
    });
    expect(moved.isError, moved.text).toBe(false);
    await waitFor(() => trees.nodeCount === 0, 10_000, 'the kept tree to be freed');
  });
});
