// The parts of Chrome DevTools' heap snapshot worker (chrome-devtools-frontend, BSD-3-Clause) that
// src/core/heap/worker/heapWorker.ts uses. Bundled by scripts/build-heap-worker.mjs; the types the
// worker sees are declared in src/core/heap/worker/devtools.d.ts.
export {HeapSnapshotLoader} from 'chrome-devtools-frontend/front_end/entrypoints/heap_snapshot_worker/HeapSnapshotLoader.js';
export {SecondaryInitManager} from 'chrome-devtools-frontend/front_end/entrypoints/heap_snapshot_worker/HeapSnapshot.js';
export {NodeFilter} from 'chrome-devtools-frontend/front_end/models/heap_snapshot/HeapSnapshotModel.js';
export {BalancedJSONTokenizer} from 'chrome-devtools-frontend/front_end/core/text_utils/TextUtils.js';
