/**
 * Tool family: memory — the heap snapshot analysis tools behind --memoryDebugging, with
 * chrome-devtools-mcp 1.11's names, parameters and output. They work offline on files written by
 * take_heapsnapshot: each file is parsed once, in a worker thread, by Chrome DevTools' own heap
 * snapshot engine, and kept until close_heapsnapshot.
 */
import {z} from 'zod';
import {byteSizeRangeSchema} from '../heap/bytes.js';
import {
  formatAggregates,
  formatBytesToKb,
  formatContextAnalysis,
  formatDiffDetails,
  formatDiffSummary,
  formatDiffTotals,
  formatDominators,
  formatDuplicateStrings,
  formatEdges,
  formatNodes,
  formatObjectInfo,
  formatRetainingPaths,
  formatSummary,
  MAX_NAME_LENGTH,
  type NameOptions,
  type RankedContext,
} from '../heap/format.js';
import type {LoadedSnapshot} from '../heap/HeapSnapshotStore.js';
import {
  aggregatesSchema,
  contextAnalysisSchema,
  diffReplySchema,
  dominatorsSchema,
  duplicateStringsSchema,
  edgesPageSchema,
  HEAP_SNAPSHOT_FILTERS,
  nodesPageSchema,
  objectInfoSchema,
  retainingPathsSchema,
  summarySchema,
} from '../heap/protocol.js';
import {paginationLines} from './response/pagination.js';
import {pageWindow, type PageRequest} from '../../shared/pageWindow.js';
import {SECTION_ORDER, type ResponseBuilder} from './response/ResponseBuilder.js';
import {defineTool, type Tool, type ToolCall} from './definition.js';

const HEADER = '## Heap Snapshot Data';

const filePathSchema = z.string().describe('A path to a .heapsnapshot file to read.');
const nodeIdSchema = (purpose: string) => z.number().describe(`The node ID to get ${purpose} for.`);
const maxNameLengthSchema = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(`Maximum length of names before truncation. Defaults to ${MAX_NAME_LENGTH}.`);
const pageIdxSchema = z
  .number()
  .int()
  .nonnegative()
  .optional()
  .describe('The page index for pagination.');
const pageSizeSchema = z
  .number()
  .int()
  .positive()
  .optional()
  .describe('The page size for pagination.');
const filterSchema = z
  .enum(HEAP_SNAPSHOT_FILTERS)
  .optional()
  .describe('An optional filter to apply.');
const objectIdSchema = z
  .number()
  .optional()
  .describe(
    'Node id of the native context to filter by when filterName is attributedToSpecificNativeContext.',
  );
const paging = {pageIdx: pageIdxSchema, pageSize: pageSizeSchema};

async function snapshotFor(call: ToolCall<unknown>, filePath: string): Promise<LoadedSnapshot> {
  return call.services.heapSnapshots.get(filePath, call.signal);
}

function section(response: ResponseBuilder, lines: readonly string[]): void {
  const text = [HEADER, ...lines].join('\n');
  response.addSection(SECTION_ORDER.heap, () => text);
}

function pageLines(total: number, page: PageRequest): string[] {
  return paginationLines(pageWindow(total, page), total);
}

function pageOf(params: {
  pageIdx?: number | undefined;
  pageSize?: number | undefined;
}): PageRequest {
  return {pageIdx: params.pageIdx, pageSize: params.pageSize};
}

const getSummary = defineTool({
  name: 'get_heapsnapshot_summary',
  description:
    'Load (and cache) a heap snapshot; returns its statistics, native contexts with their sizes, and the retained-by-context summary.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {filePath: filePathSchema, maxNameLength: maxNameLengthSchema},
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const snapshot = await snapshotFor(call, call.params.filePath);
    const summary = await snapshot.ask({method: 'summary'}, summarySchema);
    section(response, formatSummary(summary, call.params));
  },
});

const getDetails = defineTool({
  name: 'get_heapsnapshot_details',
  description:
    'Load (and cache) a heap snapshot; returns object counts and sizes aggregated by class, with class ids for get_heapsnapshot_class_nodes. Paged.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    filterName: filterSchema,
    objectId: objectIdSchema,
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask(
      {method: 'aggregates', filterName: params.filterName, objectId: params.objectId, page},
      aggregatesSchema,
    );
    section(response, [
      `Objects: ${data.objectCount}`,
      `Total shallow size: ${formatBytesToKb(data.totalSelfSize)}`,
      ...pageLines(data.total, page),
      formatAggregates(data.items, params),
    ]);
  },
});

const getClassNodes = defineTool({
  name: 'get_heapsnapshot_class_nodes',
  description:
    'Load (and cache) a heap snapshot; returns the instances of one class (id from get_heapsnapshot_details) with their node ids, largest retained size first.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    id: z.number().describe('The ID for the class, obtained from details.'),
    filterName: filterSchema,
    objectId: objectIdSchema,
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask(
      {
        method: 'classNodes',
        classId: params.id,
        filterName: params.filterName,
        objectId: params.objectId,
        page,
      },
      nodesPageSchema,
    );
    section(response, [formatNodes(data.items, params), ...pageLines(data.total, page)]);
  },
});

const getRetainers = defineTool({
  name: 'get_heapsnapshot_retainers',
  description:
    'Load (and cache) a heap snapshot; returns the retainers (incoming references) of one node.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('retainers'),
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask(
      {method: 'retainers', nodeId: params.nodeId, page},
      edgesPageSchema,
    );
    section(response, [formatEdges(data.items, params), ...pageLines(data.total, page)]);
  },
});

const getEdges = defineTool({
  name: 'get_heapsnapshot_edges',
  description:
    'Load (and cache) a heap snapshot; returns the outgoing edges (references) of one node.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('outgoing edges'),
    sortBy: z
      .enum(['retainedSize', 'selfSize', 'name'])
      .optional()
      .describe('Sort order for edges. Default is retainedSize.'),
    retainedSize: byteSizeRangeSchema(
      'Retained size range of target nodes ("1MB-2MB", "-1MB", "1MB-"; one value = minimum). Only the lower bound is applied.',
    ).optional(),
    excludePrimitives: z
      .boolean()
      .optional()
      .describe('Whether to exclude primitive target nodes. Default is true.'),
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask(
      {
        method: 'edges',
        nodeId: params.nodeId,
        sortBy: params.sortBy ?? 'retainedSize',
        // DevTools applies only a lower retained-size bound to edges.
        minRetainedSize: params.retainedSize?.min,
        excludePrimitives: params.excludePrimitives ?? true,
        page,
      },
      edgesPageSchema,
    );
    section(response, [formatEdges(data.items, params), ...pageLines(data.total, page)]);
  },
});

const getRetainingPaths = defineTool({
  name: 'get_heapsnapshot_retaining_paths',
  description:
    'Load (and cache) a heap snapshot; returns the retaining paths of one node up to GC roots: why it is not garbage collected.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('retaining paths'),
    maxDepth: z.number().optional().describe('The maximum depth to search for retaining paths.'),
    maxNodes: z.number().optional().describe('The maximum number of nodes to return.'),
    maxSiblings: z.number().optional().describe('The maximum number of siblings to return.'),
    maxNameLength: maxNameLengthSchema,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const result = await snapshot.ask(
      {
        method: 'retainingPaths',
        nodeId: params.nodeId,
        maxDepth: params.maxDepth,
        maxNodes: params.maxNodes,
        maxSiblings: params.maxSiblings,
      },
      retainingPathsSchema,
    );
    const lines = [
      '### Retaining Paths',
      result.paths.length === 0
        ? 'No retaining paths found.'
        : formatRetainingPaths(result.paths, params),
    ];
    const reached = Object.entries(result.limitsReached)
      .filter(([, hit]) => hit)
      .map(([limit]) => limit);
    if (reached.length > 0) {
      lines.push(
        `Note: results are truncated, the following limits were reached: ${reached.join(', ')}.`,
      );
    }
    section(response, lines);
  },
});

const getDominators = defineTool({
  name: 'get_heapsnapshot_dominators',
  description:
    'Load (and cache) a heap snapshot; returns the dominator chain of one node: the objects keeping it alive.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('the dominator chain'),
    maxNameLength: maxNameLengthSchema,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const dominators = await snapshot.ask(
      {method: 'dominators', nodeId: params.nodeId},
      dominatorsSchema,
    );
    section(response, [
      '### Dominator Chain',
      dominators.length === 0 ? 'No dominators found.' : formatDominators(dominators, params),
    ]);
  },
});

const getObjectDetails = defineTool({
  name: 'get_heapsnapshot_object_details',
  description:
    'Load (and cache) a heap snapshot; returns one object by node id: size, type, distance and DOM detachedness.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('object details'),
    maxNameLength: maxNameLengthSchema,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const info = await snapshot.ask(
      {method: 'objectInfo', nodeId: params.nodeId},
      objectInfoSchema,
    );
    section(response, ['### Object Details', formatObjectInfo(info, params)]);
  },
});

const getDuplicateStrings = defineTool({
  name: 'get_heapsnapshot_duplicate_strings',
  description:
    'Load (and cache) a heap snapshot; returns strings stored more than once, grouped by value.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {filePath: filePathSchema, ...paging, maxNameLength: maxNameLengthSchema},
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask({method: 'duplicateStrings', page}, duplicateStringsSchema);
    section(response, [
      '### Duplicate Strings',
      ...pageLines(data.total, page),
      formatDuplicateStrings(data.items, params),
    ]);
  },
});

const queryObjects = defineTool({
  name: 'query_heapsnapshot_objects',
  description:
    'Load (and cache) a heap snapshot; returns the objects matching filters (className, propertyName, nodeType, retainedSize, selfSize, isDetached).',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    className: z.string().optional().describe('Regex or text matching the class name.'),
    propertyName: z.string().optional().describe('Name of an outgoing reference the object has.'),
    nodeType: z
      .string()
      .optional()
      .describe('V8 node type (e.g. object, closure, string, array, code).'),
    retainedSize: byteSizeRangeSchema(
      'Retained size range ("1MB-2MB", "-1MB", "1MB-"; one value = minimum).',
    ).optional(),
    selfSize: byteSizeRangeSchema(
      'Self size range ("1MB-2MB", "-1MB", "1MB-"; one value = minimum).',
    ).optional(),
    isDetached: z.boolean().optional().describe('Whether to filter for detached DOM nodes.'),
    sortBy: z
      .enum(['retainedSize', 'selfSize', 'id'])
      .optional()
      .describe('Sort order for results. Default is retainedSize.'),
    ...paging,
    maxNameLength: maxNameLengthSchema,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask(
      {
        method: 'query',
        options: {
          className: params.className,
          propertyName: params.propertyName,
          nodeType: params.nodeType,
          minRetainedSize: params.retainedSize?.min,
          maxRetainedSize: params.retainedSize?.max,
          minSelfSize: params.selfSize?.min,
          maxSelfSize: params.selfSize?.max,
          isDetached: params.isDetached,
          sortBy: params.sortBy,
        },
        page,
      },
      nodesPageSchema,
    );
    section(response, [formatNodes(data.items, params), ...pageLines(data.total, page)]);
  },
});

/** Compares two snapshots: the class summary, or one class (by its summary index) object by object. */
async function compare(
  call: ToolCall<{
    baseFilePath: string;
    currentFilePath: string;
    classIndex?: number | undefined;
    pageIdx?: number | undefined;
    pageSize?: number | undefined;
  }>,
  options: NameOptions,
): Promise<string[]> {
  const {params} = call;
  const [base, current] = await Promise.all([
    snapshotFor(call, params.baseFilePath),
    snapshotFor(call, params.currentFilePath),
  ]);
  const definitions = await current.ask({method: 'interfaceDefinitions'}, z.string());
  const baseAggregates = await base.ask(
    {method: 'aggregatesForDiff', interfaceDefinitions: definitions},
    z.record(z.string(), z.unknown()),
  );
  const page = pageOf(params);
  const reply = await current.ask(
    {method: 'diff', baseId: base.uid, baseAggregates, classIndex: params.classIndex, page},
    diffReplySchema,
  );
  switch (reply.kind) {
    case 'invalidClass':
      throw new Error(
        `Invalid classIndex: ${params.classIndex ?? ''}. Total classes with changes: ${reply.classCount}`,
      );
    case 'detail':
      return ['### Heap Snapshot Detailed Diff', formatDiffDetails(reply.detail, options)];
    case 'summary':
      return [
        '### Heap Snapshot Diff',
        formatDiffTotals(reply.summary.totals),
        ...pageLines(reply.summary.total, page),
        formatDiffSummary(reply.summary.items, options),
      ];
  }
}

const compareSnapshots = defineTool({
  name: 'compare_heapsnapshots',
  description:
    'Load (and cache) two heap snapshots and compare them: per-class counts and sizes added and freed, or with classIndex the objects of one class.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    baseFilePath: z.string().describe('A path to the base .heapsnapshot file (earlier snapshot).'),
    currentFilePath: z
      .string()
      .describe('A path to the current .heapsnapshot file (later snapshot).'),
    classIndex: z
      .number()
      .optional()
      .describe('0-based index of a class in the summary list: show its individual objects.'),
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: [
    {param: 'baseFilePath', scope: 'always'},
    {param: 'currentFilePath', scope: 'always'},
  ],
  handler: async (call, response) => {
    section(response, await compare(call, call.params));
  },
});

const analyzeContexts = defineTool({
  name: 'analyze_heapsnapshot_contexts',
  description:
    'Load (and cache) a heap snapshot; ranks closure contexts holding dead captured fields (variables no live closure can read) by the retained size of those values: a heuristic for what to release first.',
  category: 'memory',
  readOnly: true,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {
    filePath: filePathSchema,
    retainedSize: byteSizeRangeSchema(
      'Range for the dead-field score of a context ("10KB", "1MB-2MB", "-1MB", "1MB-"; one value = minimum).',
    ).optional(),
    scopeInfoNodeId: z
      .number()
      .int()
      .optional()
      .describe(
        'Only contexts declared by the scope with this ScopeInfo node id (from a scope header).',
      ),
    maxNameLength: maxNameLengthSchema,
    pageIdx: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('The zero-based page index. Defaults to 0.'),
    pageSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('The number of contexts to return per page. Defaults to 20.'),
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {params} = call;
    const snapshot = await snapshotFor(call, params.filePath);
    const analysis = await snapshot.ask({method: 'contexts'}, contextAnalysisSchema);
    const {min = 0, max} = params.retainedSize ?? {};
    const ranked: RankedContext[] = analysis.scopes
      .filter(
        scope =>
          params.scopeInfoNodeId === undefined || scope.scopeInfoNodeId === params.scopeInfoNodeId,
      )
      .flatMap(scope => scope.contexts.map(context => ({scope, context})))
      .filter(
        ({context}) =>
          context.deadFieldsRetainedSizeSum >= min &&
          (max === undefined || context.deadFieldsRetainedSizeSum <= max),
      )
      .sort((a, b) => b.context.deadFieldsRetainedSizeSum - a.context.deadFieldsRetainedSizeSum);
    // The peer always pages this list (page 0 when no index is given).
    const page = {pageIdx: params.pageIdx ?? 0, pageSize: params.pageSize};
    const window = pageWindow(ranked.length, page);
    section(response, [
      '### Context Analysis',
      ...paginationLines(window, ranked.length),
      formatContextAnalysis(
        ranked.slice(window.startIndex, window.endIndex),
        analysis.scriptsWithoutScopes,
        params,
      ),
    ]);
  },
});

const closeSnapshot = defineTool({
  name: 'close_heapsnapshot',
  description: 'Close a loaded heap snapshot and free its memory.',
  category: 'memory',
  readOnly: false,
  conditions: ['memoryDebugging'],
  offline: true,
  browserLock: 'none',
  schema: {filePath: z.string().describe('A path to the .heapsnapshot file to close.')},
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const closed = await call.services.heapSnapshots.close(call.params.filePath);
    if (!closed) {
      throw new Error(`Failed to close heap snapshot: ${call.params.filePath} was not loaded.`);
    }
    response.appendLine(`Closed heap snapshot: ${call.params.filePath}`);
  },
});

export const heapAnalysisTools: Tool[] = [
  getSummary,
  getDetails,
  getClassNodes,
  getRetainers,
  getEdges,
  getRetainingPaths,
  getDominators,
  getObjectDetails,
  getDuplicateStrings,
  queryObjects,
  compareSnapshots,
  analyzeContexts,
  closeSnapshot,
];
