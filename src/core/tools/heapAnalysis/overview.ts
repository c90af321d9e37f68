/**
 * Heap snapshot analysis, the whole snapshot: its summary, the class aggregates, duplicate
 * strings, object queries, closure contexts holding dead fields, and closing a snapshot.
 */
import {z} from 'zod';
import {byteSizeRangeSchema} from '../../heap/bytes.js';
import {
  formatAggregates,
  formatBytesToKb,
  formatContextAnalysis,
  formatDuplicateStrings,
  formatNodes,
  formatSummary,
  type RankedContext,
} from '../../heap/format.js';
import {
  aggregatesSchema,
  contextAnalysisSchema,
  duplicateStringsSchema,
  nodesPageSchema,
  summarySchema,
} from '../../heap/protocol.js';
import {pageWindow} from '../../../shared/pageWindow.js';
import {defineTool} from '../base/definition.js';
import {paginationLines} from '../base/pagination.js';
import {
  defineSnapshotTool,
  FILE_PATH,
  filePathSchema,
  filterSchema,
  maxNameLengthSchema,
  objectIdSchema,
  listPageLines,
  pageLines,
  pageOf,
  paging,
} from './common.js';

export const getSummary = defineSnapshotTool({
  name: 'get_heapsnapshot_summary',
  description:
    'Load (and cache) a heap snapshot; returns its statistics, native contexts with their sizes, and the retained-by-context summary.',
  schema: {filePath: filePathSchema, maxNameLength: maxNameLengthSchema},
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    const snapshot = await open(params.filePath);
    const summary = await snapshot.ask({method: 'summary'}, summarySchema);
    return formatSummary(summary, params);
  },
});

export const getDetails = defineSnapshotTool({
  name: 'get_heapsnapshot_details',
  description:
    'Load (and cache) a heap snapshot; returns object counts and sizes aggregated by class, with class ids for get_heapsnapshot_class_nodes. Paged.',
  schema: {
    filePath: filePathSchema,
    filterName: filterSchema,
    objectId: objectIdSchema,
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    const snapshot = await open(params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask(
      {method: 'aggregates', filterName: params.filterName, objectId: params.objectId, page},
      aggregatesSchema,
    );
    return [
      `Objects: ${data.objectCount}`,
      `Total shallow size: ${formatBytesToKb(data.totalSelfSize)}`,
      ...pageLines(data.total, page),
      formatAggregates(data.items, params),
    ];
  },
});

export const getDuplicateStrings = defineSnapshotTool({
  name: 'get_heapsnapshot_duplicate_strings',
  description:
    'Load (and cache) a heap snapshot; returns strings stored more than once, grouped by value.',
  schema: {filePath: filePathSchema, ...paging, maxNameLength: maxNameLengthSchema},
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    const snapshot = await open(params.filePath);
    const page = pageOf(params);
    const data = await snapshot.ask({method: 'duplicateStrings', page}, duplicateStringsSchema);
    return [
      '### Duplicate Strings',
      ...pageLines(data.total, page),
      formatDuplicateStrings(data.items, params),
    ];
  },
});

export const queryObjects = defineSnapshotTool({
  name: 'query_heapsnapshot_objects',
  description:
    'Load (and cache) a heap snapshot; returns the objects matching filters (className, propertyName, nodeType, retainedSize, selfSize, isDetached).',
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
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    return listPageLines(
      await open(params.filePath),
      params,
      {
        request: page => ({
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
        }),
        reply: nodesPageSchema,
      },
      items => formatNodes(items, params),
    );
  },
});

export const analyzeContexts = defineSnapshotTool({
  name: 'analyze_heapsnapshot_contexts',
  description:
    'Load (and cache) a heap snapshot; ranks closure contexts holding dead captured fields (variables no live closure can read) by the retained size of those values: a heuristic for what to release first.',
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
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    const snapshot = await open(params.filePath);
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
    return [
      '### Context Analysis',
      ...paginationLines(window, ranked.length),
      formatContextAnalysis(
        ranked.slice(window.startIndex, window.endIndex),
        analysis.scriptsWithoutScopes,
        params,
      ),
    ];
  },
});

export const closeSnapshot = defineTool({
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
