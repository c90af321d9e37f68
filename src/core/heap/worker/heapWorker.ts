/**
 * One heap snapshot, parsed and answered in its own worker thread (built into
 * out/heap/heapSnapshotWorker.js by scripts/build-heap-worker.mjs). DevTools' loader stream-parses
 * the file into typed arrays; a thread of its own keeps the seconds of parsing and graph work off
 * the engine's event loop, caps the heap it may use, and gives every byte back when it exits.
 * Lists are sorted and paged here, so only the requested page crosses to the engine.
 */
import './polyfills.js';
import type {FileHandle} from 'node:fs/promises';
import {MessageChannel, parentPort, workerData} from 'node:worker_threads';
import {
  HeapSnapshotLoader,
  NodeFilter,
  SecondaryInitManager,
  type ItemProvider,
  type JSHeapSnapshot,
  type SerializedEdge,
  type SerializedNode,
  type SnapshotDiff,
} from 'mbi-devtools-heap-snapshot';
import {HeaderGate} from './headerGate.js';
import {pageWindow, type PageRequest} from '../../../shared/pageWindow.js';
import type {HeapRequest, NodeFilterRequest, WorkerMessage} from '../protocol.js';
import {errorText, isRecord} from '../../../shared/values.js';

const CHUNK_BYTES = 1024 * 1024;

function post(message: WorkerMessage): void {
  parentPort?.postMessage(message);
}

/**
 * Parses the snapshot from `file` (the engine opened and checked it; the path is never opened
 * again). The header is checked against the file's size before the loader sees it.
 */
async function load(file: FileHandle): Promise<JSHeapSnapshot> {
  const loader = new HeapSnapshotLoader();
  // DevTools splits the graph work between two threads; here both halves share this thread.
  const {port1, port2} = new MessageChannel();
  new SecondaryInitManager(port1);
  const built = loader.buildSnapshot(port2);
  // A rejection before close() must not go unhandled while the file is still being read.
  built.catch(() => undefined);
  const gate = new HeaderGate((await file.stat()).size);
  const stream = file.createReadStream({
    encoding: 'utf8',
    highWaterMark: CHUNK_BYTES,
    start: 0,
    autoClose: false,
  });
  try {
    for await (const chunk of stream) {
      if (typeof chunk === 'string') {
        for (const passed of gate.pass(chunk)) {
          loader.write(passed);
        }
      }
      // Let the parser consume the chunk before reading the next: the file never sits in memory whole.
      await new Promise(resolve => setImmediate(resolve));
    }
    for (const rest of gate.rest()) {
      loader.write(rest);
    }
  } finally {
    stream.destroy();
  }
  loader.close();
  try {
    return await built;
  } finally {
    port1.close();
    port2.close();
  }
}

/** The engine hands over the opened file itself (transferred), never a path. */
function isFileHandle(value: unknown): value is FileHandle {
  return (
    isRecord(value) &&
    typeof value.fd === 'number' &&
    typeof value.createReadStream === 'function' &&
    typeof value.stat === 'function' &&
    typeof value.close === 'function'
  );
}

function isNode(item: SerializedNode | SerializedEdge): item is SerializedNode {
  return 'id' in item;
}

function pageOf<T>(
  items: readonly T[],
  page: PageRequest,
): {total: number; startIndex: number; items: T[]} {
  const window = pageWindow(items.length, page);
  return {
    total: items.length,
    startIndex: window.startIndex,
    items: items.slice(window.startIndex, window.endIndex),
  };
}

/** Node lists come sorted by retained size (largest first), edge lists in the provider's order. */
function serializedPage(provider: ItemProvider, page: PageRequest, sortNodes: boolean): unknown {
  const items = provider.serializeItemsRange(0, Infinity).items;
  const first = items[0];
  if (first !== undefined && isNode(first)) {
    const nodes = items.filter(isNode);
    if (sortNodes) {
      nodes.sort((a, b) => b.retainedSize - a.retainedSize);
    }
    return pageOf(nodes, page);
  }
  return pageOf(
    items.filter((item): item is SerializedEdge => !isNode(item)),
    page,
  );
}

class SnapshotHandle {
  /** Class ids are 1-based positions in the unfiltered aggregates, fixed at load. */
  readonly #idToClassKey: string[] = [''];
  readonly #classKeyToId = new Map<string, number>();
  #diffs = new Map<number, SnapshotDiff[]>();

  constructor(readonly snapshot: JSHeapSnapshot) {
    for (const key of Object.keys(snapshot.aggregatesWithFilter(new NodeFilter()))) {
      this.#classKeyToId.set(key, this.#idToClassKey.length);
      this.#idToClassKey.push(key);
    }
  }

  nodeIndex(nodeId: number): number {
    const index = this.snapshot.nodeIndexForId(nodeId);
    if (index === undefined) {
      throw new Error(`Node with ID ${nodeId} not found`);
    }
    return index;
  }

  filter(request: NodeFilterRequest): NodeFilter {
    const filter = new NodeFilter();
    if (request.filterName === 'attributedToSpecificNativeContext') {
      if (request.objectId === undefined) {
        throw new Error(
          'objectId is required when filterName is attributedToSpecificNativeContext',
        );
      }
      filter.filterName = `nativeContext_${this.nodeIndex(request.objectId)}`;
    } else if (request.filterName !== undefined) {
      filter.filterName = request.filterName;
    }
    return filter;
  }

  classKey(id: number): string {
    const key = id > 0 ? this.#idToClassKey[id] : undefined;
    if (key === undefined) {
      throw new Error(`Class with ID ${id} not found in heap snapshot`);
    }
    return key;
  }

  aggregates(request: NodeFilterRequest & {page: PageRequest}): unknown {
    const raw = this.snapshot.aggregatesWithFilter(this.filter(request));
    let objectCount = 0;
    let totalSelfSize = 0;
    const aggregates = Object.entries(raw).map(([key, aggregate]) => {
      const id = this.#classKeyToId.get(key);
      if (id === undefined) {
        throw new Error(`No class ID found for class key ${key}`);
      }
      objectCount += aggregate.count;
      totalSelfSize += aggregate.self;
      return {
        id,
        className: aggregate.name,
        count: aggregate.count,
        selfSize: aggregate.self,
        retainedSize: aggregate.maxRet,
      };
    });
    aggregates.sort((a, b) => b.retainedSize - a.retainedSize);
    return {...pageOf(aggregates, request.page), objectCount, totalSelfSize};
  }

  /** Changed classes, largest size delta first: the index of a class is its place in this list. */
  sortedDiffs(baseId: number, baseAggregates: Record<string, unknown>): SnapshotDiff[] {
    let sorted = this.#diffs.get(baseId);
    if (!sorted) {
      sorted = Object.values(this.snapshot.calculateSnapshotDiff(baseId, baseAggregates))
        .filter(diff => diff.addedCount > 0 || diff.removedCount > 0)
        .sort((a, b) => b.sizeDelta - a.sizeDelta);
      this.#diffs = new Map([[baseId, sorted]]);
    }
    return sorted;
  }

  diff(request: Extract<HeapRequest, {method: 'diff'}>): unknown {
    const diffs = this.sortedDiffs(request.baseId, request.baseAggregates);
    const summaryOf = (diff: SnapshotDiff, index: number) => ({
      index,
      className: diff.name,
      addedCount: diff.addedCount,
      removedCount: diff.removedCount,
      countDelta: diff.countDelta,
      addedSize: diff.addedSize,
      removedSize: diff.removedSize,
      sizeDelta: diff.sizeDelta,
    });
    if (request.classIndex !== undefined) {
      const diff = diffs[request.classIndex];
      if (!diff) {
        return {kind: 'invalidClass', classCount: diffs.length};
      }
      return {
        kind: 'detail',
        detail: {
          ...summaryOf(diff, request.classIndex),
          addedIds: diff.addedIds,
          addedSelfSizes: diff.addedSelfSizes,
          deletedIds: diff.deletedIds,
          deletedSelfSizes: diff.deletedSelfSizes,
        },
      };
    }
    const totals = {
      addedCount: 0,
      removedCount: 0,
      countDelta: 0,
      addedSize: 0,
      removedSize: 0,
      sizeDelta: 0,
    };
    for (const diff of diffs) {
      totals.addedCount += diff.addedCount;
      totals.removedCount += diff.removedCount;
      totals.countDelta += diff.countDelta;
      totals.addedSize += diff.addedSize;
      totals.removedSize += diff.removedSize;
      totals.sizeDelta += diff.sizeDelta;
    }
    return {kind: 'summary', summary: {...pageOf(diffs.map(summaryOf), request.page), totals}};
  }

  answer(request: HeapRequest): unknown {
    const {snapshot} = this;
    switch (request.method) {
      case 'summary':
        return {
          stats: snapshot.getStatistics(),
          staticData: snapshot.updateStaticData(),
          nativeContextSizes: snapshot.getNativeContextSizes(),
          retainedByContextSummary: snapshot.getRetainedByContextSummary(),
        };
      case 'aggregates':
        return this.aggregates(request);
      case 'classNodes':
        return serializedPage(
          snapshot.createNodesProviderForClass(
            this.classKey(request.classId),
            this.filter(request),
          ),
          request.page,
          true,
        );
      case 'retainers':
        return serializedPage(
          snapshot.createRetainingEdgesProvider(this.nodeIndex(request.nodeId)),
          request.page,
          true,
        );
      case 'edges':
        return serializedPage(
          snapshot.createEdgesProvider(this.nodeIndex(request.nodeId), {
            sortBy: request.sortBy,
            excludePrimitives: request.excludePrimitives,
            ...(request.minRetainedSize === undefined
              ? {}
              : {minRetainedSize: request.minRetainedSize}),
          }),
          request.page,
          true,
        );
      case 'objectInfo':
        return snapshot.getObjectInfo(this.nodeIndex(request.nodeId));
      case 'retainingPaths':
        return snapshot.getRetainingPaths(
          this.nodeIndex(request.nodeId),
          request.maxDepth,
          request.maxNodes,
          request.maxSiblings,
        );
      case 'dominators':
        return snapshot.getDominatorsOf(this.nodeIndex(request.nodeId));
      case 'duplicateStrings':
        return pageOf(snapshot.getDuplicateStrings(), request.page);
      case 'query': {
        const options = Object.fromEntries(
          Object.entries(request.options).filter(entry => entry[1] !== undefined),
        );
        return serializedPage(snapshot.queryObjects(options), request.page, false);
      }
      case 'contexts':
        return snapshot.analyzeContexts();
      case 'interfaceDefinitions':
        return snapshot.interfaceDefinitions();
      case 'aggregatesForDiff':
        return snapshot.aggregatesForDiff(request.interfaceDefinitions);
      case 'diff':
        return this.diff(request);
    }
  }
}

const METHODS: ReadonlySet<string> = new Set<HeapRequest['method']>([
  'summary',
  'aggregates',
  'classNodes',
  'retainers',
  'edges',
  'objectInfo',
  'retainingPaths',
  'dominators',
  'duplicateStrings',
  'query',
  'contexts',
  'interfaceDefinitions',
  'aggregatesForDiff',
  'diff',
]);

/** The engine is the only sender and builds requests from the typed union; the method is checked. */
function isHeapRequest(value: unknown): value is HeapRequest {
  return isRecord(value) && typeof value.method === 'string' && METHODS.has(value.method);
}

async function main(): Promise<void> {
  const file: unknown = isRecord(workerData) ? workerData.file : undefined;
  if (!isFileHandle(file)) {
    post({kind: 'loadFailed', message: 'The heap snapshot worker was started without a file.'});
    return;
  }
  let handle: SnapshotHandle;
  try {
    handle = new SnapshotHandle(await load(file));
  } catch (error) {
    post({kind: 'loadFailed', message: errorText(error)});
    return;
  } finally {
    await file.close().catch(() => undefined);
  }
  parentPort?.on('message', (message: unknown) => {
    if (!isRecord(message) || typeof message.id !== 'number' || !isRecord(message.request)) {
      return;
    }
    const id = message.id;
    const request = message.request;
    if (!isHeapRequest(request)) {
      post({kind: 'reply', id, ok: false, message: 'Unknown heap snapshot request.'});
      return;
    }
    try {
      post({kind: 'reply', id, ok: true, value: handle.answer(request)});
    } catch (error) {
      post({kind: 'reply', id, ok: false, message: errorText(error)});
    }
  });
  post({kind: 'loaded'});
}

void main();
