/**
 * What the engine asks a heap snapshot worker and what it answers. The worker imports only the
 * types (it stays free of zod); the engine validates every reply with the schemas below, since a
 * worker thread is a boundary like any other.
 */
import {z} from 'zod';
import type {PageRequest} from '../../shared/pageWindow.js';

export const HEAP_SNAPSHOT_FILTERS = [
  'objectsRetainedByDetachedDomNodes',
  'objectsRetainedByConsole',
  'objectsRetainedByEventHandlers',
  'objectsRetainedByContexts',
  'sharedNativeContext',
  'noNativeContext',
  'attributedToSpecificNativeContext',
] as const;
export type HeapSnapshotFilter = (typeof HEAP_SNAPSHOT_FILTERS)[number];

export interface NodeFilterRequest {
  filterName?: HeapSnapshotFilter | undefined;
  /** Node id of the native context, for attributedToSpecificNativeContext. */
  objectId?: number | undefined;
}

export interface QueryOptions {
  className?: string | undefined;
  propertyName?: string | undefined;
  nodeType?: string | undefined;
  minRetainedSize?: number | undefined;
  maxRetainedSize?: number | undefined;
  minSelfSize?: number | undefined;
  maxSelfSize?: number | undefined;
  isDetached?: boolean | undefined;
  sortBy?: 'retainedSize' | 'selfSize' | 'id' | undefined;
}

export type HeapRequest =
  | {method: 'summary'}
  | ({method: 'aggregates'; page: PageRequest} & NodeFilterRequest)
  | ({method: 'classNodes'; classId: number; page: PageRequest} & NodeFilterRequest)
  | {method: 'retainers'; nodeId: number; page: PageRequest}
  | {
      method: 'edges';
      nodeId: number;
      sortBy: 'retainedSize' | 'selfSize' | 'name';
      minRetainedSize?: number | undefined;
      excludePrimitives: boolean;
      page: PageRequest;
    }
  | {method: 'objectInfo'; nodeId: number}
  | {
      method: 'retainingPaths';
      nodeId: number;
      maxDepth?: number | undefined;
      maxNodes?: number | undefined;
      maxSiblings?: number | undefined;
    }
  | {method: 'dominators'; nodeId: number}
  | {method: 'duplicateStrings'; page: PageRequest}
  | {method: 'query'; options: QueryOptions; page: PageRequest}
  | {method: 'contexts'}
  | {method: 'interfaceDefinitions'}
  | {method: 'aggregatesForDiff'; interfaceDefinitions: string}
  | {
      method: 'diff';
      /** Any number unique to the base snapshot: DevTools caches the diff under it. */
      baseId: number;
      baseAggregates: Record<string, unknown>;
      classIndex?: number | undefined;
      page: PageRequest;
    };

/** Worker → engine envelope. `loaded` comes once, after parsing, before any reply. */
export type WorkerMessage =
  | {kind: 'loaded'}
  | {kind: 'loadFailed'; message: string}
  | {kind: 'reply'; id: number; ok: true; value: unknown}
  | {kind: 'reply'; id: number; ok: false; message: string};

export const workerMessageSchema = z.discriminatedUnion('kind', [
  z.object({kind: z.literal('loaded')}),
  z.object({kind: z.literal('loadFailed'), message: z.string()}),
  z.object({
    kind: z.literal('reply'),
    id: z.number(),
    ok: z.boolean(),
    value: z.unknown().optional(),
    message: z.string().optional(),
  }),
]);

// Reply shapes -----------------------------------------------------------------------------------

const count = z.number();

const heapNodeSchema = z.object({
  id: count,
  name: z.string(),
  type: z.string(),
  distance: count,
  selfSize: count,
  retainedSize: count,
});
export type HeapNode = z.infer<typeof heapNodeSchema>;

const heapEdgeSchema = z.object({
  name: z.string(),
  type: z.string(),
  node: heapNodeSchema,
});
export type HeapEdge = z.infer<typeof heapEdgeSchema>;

/** One page of a list, with the size of the whole list. */
function pageOf<T extends z.ZodType>(item: T) {
  return z.object({total: count, startIndex: count, items: z.array(item)});
}

export const summarySchema = z.object({
  stats: z.looseObject({
    total: count,
    native: z.looseObject({total: count, typedArrays: count}),
    v8heap: z.looseObject({
      total: count,
      code: count,
      jsArrays: count,
      strings: count,
      system: count,
    }),
  }),
  staticData: z.looseObject({
    nodeCount: count,
    rootNodeIndex: count,
    totalSize: count,
    maxJSObjectId: count,
  }),
  nativeContextSizes: z.object({
    nativeContexts: z.array(
      z.object({
        nodeId: count,
        nodeName: z.string(),
        selfSize: count,
        retainedSize: count,
        attributedSize: count,
      }),
    ),
    sharedSize: count,
    noAttributionSize: count,
  }),
  retainedByContextSummary: z.object({
    contextCount: count,
    retainedByContextSize: count,
    retainedByContextCount: count,
    notRetainedByContextSize: count,
    notRetainedByContextCount: count,
    totalSize: count,
  }),
});
export type HeapSummary = z.infer<typeof summarySchema>;

const aggregateSchema = z.object({
  id: count,
  className: z.string(),
  count,
  selfSize: count,
  retainedSize: count,
});
export type HeapAggregate = z.infer<typeof aggregateSchema>;

export const aggregatesSchema = pageOf(aggregateSchema).extend({
  objectCount: count,
  totalSelfSize: count,
});

export const nodesPageSchema = pageOf(heapNodeSchema);
export const edgesPageSchema = pageOf(heapEdgeSchema);

export const objectInfoSchema = z.object({
  id: count,
  name: z.string(),
  type: z.string(),
  detachedness: count,
  selfSize: count,
  retainedSize: count,
  distance: count,
  edgeCount: count,
  retainerCount: count,
});
export type HeapObjectInfo = z.infer<typeof objectInfoSchema>;

export interface RetainingEdge {
  edgeName: string;
  edgeType: string;
  nodeId: number;
  nodeName: string;
  distance: number;
  children: RetainingEdge[];
}
const retainingEdgeSchema: z.ZodType<RetainingEdge> = z.lazy(() =>
  z.object({
    edgeName: z.string(),
    edgeType: z.string(),
    nodeId: count,
    nodeName: z.string(),
    distance: count,
    children: z.array(retainingEdgeSchema),
  }),
);

export const retainingPathsSchema = z.object({
  paths: z.array(retainingEdgeSchema),
  limitsReached: z.object({
    depth: z.boolean().optional(),
    nodes: z.boolean().optional(),
    siblings: z.boolean().optional(),
  }),
});

export const dominatorsSchema = z.array(
  z.object({nodeId: count, nodeName: z.string(), selfSize: count, retainedSize: count}),
);
export type Dominators = z.infer<typeof dominatorsSchema>;

const duplicateStringSchema = z.object({
  value: z.string(),
  count,
  totalSelfSize: count,
  totalRetainedSize: count,
  truncated: z.boolean().optional(),
  nodes: z.array(z.object({id: count})),
});
export type DuplicateString = z.infer<typeof duplicateStringSchema>;
export const duplicateStringsSchema = pageOf(duplicateStringSchema);

const contextFieldSchema = z.object({
  name: z.string(),
  valueNodeId: count,
  valueName: z.string(),
  retainedSize: count,
});
const contextSchema = z.object({
  contextNodeId: count,
  deadFieldsRetainedSizeSum: count,
  deadFields: z.array(contextFieldSchema),
});
const scopeSchema = z.object({
  scopeInfoNodeId: count,
  scriptNodeId: count,
  scriptName: z.string(),
  scopeName: z.string().optional(),
  scopeStart: count,
  scopeEnd: count,
  contextFieldCount: count,
  contexts: z.array(contextSchema),
});
export const contextAnalysisSchema = z.object({
  scopes: z.array(scopeSchema),
  scriptsWithoutScopes: z.array(
    z.object({scriptNodeId: count, scriptName: z.string(), contextCount: count}),
  ),
});
export type ContextScope = z.infer<typeof scopeSchema>;
export type ContextEntry = z.infer<typeof contextSchema>;

const classDiffSchema = z.object({
  index: count,
  className: z.string(),
  addedCount: count,
  removedCount: count,
  countDelta: count,
  addedSize: count,
  removedSize: count,
  sizeDelta: count,
});
export type ClassDiff = z.infer<typeof classDiffSchema>;

const diffTotalsSchema = z.object({
  addedCount: count,
  removedCount: count,
  countDelta: count,
  addedSize: count,
  removedSize: count,
  sizeDelta: count,
});
export type DiffTotals = z.infer<typeof diffTotalsSchema>;

const diffSummarySchema = pageOf(classDiffSchema).extend({totals: diffTotalsSchema});

const detailedDiffSchema = classDiffSchema.extend({
  addedIds: z.array(count),
  addedSelfSizes: z.array(count),
  deletedIds: z.array(count),
  deletedSelfSizes: z.array(count),
});
export type DetailedClassDiff = z.infer<typeof detailedDiffSchema>;

/** Reply of `diff`: the summary, or one class in detail when classIndex was given. */
export const diffReplySchema = z.union([
  z.object({kind: z.literal('summary'), summary: diffSummarySchema}),
  z.object({kind: z.literal('detail'), detail: detailedDiffSchema}),
  z.object({kind: z.literal('invalidClass'), classCount: count}),
]);
