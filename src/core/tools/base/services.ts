import type {HeapSnapshotStore} from '../../heap/HeapSnapshotStore.js';
import type {WebMcpService} from '../../webmcp/WebMcpService.js';

/** Engine-wide services a tool handler may need beyond the browser. */
export interface EngineServices {
  webmcp: WebMcpService;
  /** Heap snapshots loaded by the analysis tools (workers start on first use). */
  heapSnapshots: HeapSnapshotStore;
}
