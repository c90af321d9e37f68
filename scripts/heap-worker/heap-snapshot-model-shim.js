// The worker needs only the data model; the package's index also exports the UI-side proxy, which
// drags in DevTools' Common.
export * as HeapSnapshotModel from 'chrome-devtools-frontend/front_end/models/heap_snapshot/HeapSnapshotModel.js';
