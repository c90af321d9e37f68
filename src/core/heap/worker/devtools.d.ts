/**
 * The slice of Chrome DevTools' heap snapshot worker (chrome-devtools-frontend) that heapWorker.ts
 * uses. The module id is an alias that scripts/build-heap-worker.mjs resolves to
 * scripts/heap-worker/devtools-entry.js; declaring it here keeps DevTools' own TypeScript out of
 * this project's type check. Shapes follow front_end/models/heap_snapshot/HeapSnapshotModel.ts;
 * everything the worker sends back is validated again with zod on the engine side.
 */
declare module 'mbi-devtools-heap-snapshot' {
  import type {MessagePort} from 'node:worker_threads';

  /** DevTools talks to its secondary init half over a Node MessagePort here. */
  export type WorkerMessagePortLike = MessagePort;

  export class NodeFilter {
    filterName: string | undefined;
    constructor(minNodeId?: number, maxNodeId?: number);
  }

  export interface AggregatedInfo {
    count: number;
    distance: number;
    self: number;
    maxRet: number;
    name: string;
  }

  export interface SerializedNode {
    id: number;
    name: string;
    distance: number;
    retainedSize: number;
    selfSize: number;
    type: string;
  }

  export interface SerializedEdge {
    name: string;
    type: string;
    node: SerializedNode;
  }

  export interface ItemsRange {
    items: (SerializedNode | SerializedEdge)[];
  }

  export interface ItemProvider {
    serializeItemsRange(begin: number, end: number): ItemsRange;
  }

  export interface SnapshotDiff {
    name: string;
    addedCount: number;
    removedCount: number;
    addedSize: number;
    removedSize: number;
    countDelta: number;
    sizeDelta: number;
    addedIds: number[];
    addedSelfSizes: number[];
    deletedIds: number[];
    deletedSelfSizes: number[];
  }

  export interface JSHeapSnapshot {
    updateStaticData(): unknown;
    nodeIndexForId(nodeId: number): number | undefined;
    aggregatesWithFilter(filter: NodeFilter): Record<string, AggregatedInfo>;
    getStatistics(): unknown;
    getNativeContextSizes(): unknown;
    getRetainedByContextSummary(): unknown;
    createNodesProviderForClass(classKey: string, filter: NodeFilter): ItemProvider;
    createRetainingEdgesProvider(nodeIndex: number): ItemProvider;
    createEdgesProvider(
      nodeIndex: number,
      options: {sortBy: string; minRetainedSize?: number; excludePrimitives: boolean},
    ): ItemProvider;
    getObjectInfo(nodeIndex: number): unknown;
    analyzeContexts(): unknown;
    getRetainingPaths(
      nodeIndex: number,
      maxDepth?: number,
      maxNodes?: number,
      maxSiblings?: number,
    ): unknown;
    getDominatorsOf(nodeIndex: number): unknown;
    getDuplicateStrings(): unknown[];
    queryObjects(options: Record<string, unknown>): ItemProvider;
    interfaceDefinitions(): string;
    aggregatesForDiff(interfaceDefinitions: string): Record<string, unknown>;
    calculateSnapshotDiff(
      baseSnapshotId: number,
      baseAggregates: Record<string, unknown>,
    ): Record<string, SnapshotDiff>;
  }

  export class HeapSnapshotLoader {
    constructor(dispatcher?: unknown);
    write(chunk: string): void;
    close(): void;
    buildSnapshot(secondWorker: WorkerMessagePortLike): Promise<JSHeapSnapshot>;
  }

  /** Calls back with the first balanced JSON object written to it (how the loader reads the header). */
  export class BalancedJSONTokenizer {
    constructor(callback: (json: string) => void, findMultiple?: boolean);
    write(chunk: string): boolean;
  }

  /** Constructing it starts the secondary half of the graph work, listening on the port. */
  export const SecondaryInitManager: new (port: WorkerMessagePortLike) => object;
}
