/**
 * Heap snapshot analysis, one node at a time: a class's instances, a node's retainers and edges,
 * its retaining paths to the GC roots, its dominators and its own details.
 */
import {z} from 'zod';
import {byteSizeRangeSchema} from '../../heap/bytes.js';
import {
  formatDominators,
  formatEdges,
  formatNodes,
  formatObjectInfo,
  formatRetainingPaths,
} from '../../heap/format.js';
import {
  dominatorsSchema,
  edgesPageSchema,
  nodesPageSchema,
  objectInfoSchema,
  retainingPathsSchema,
} from '../../heap/protocol.js';
import {
  defineSnapshotTool,
  FILE_PATH,
  filePathSchema,
  filterSchema,
  maxNameLengthSchema,
  nodeIdSchema,
  objectIdSchema,
  listPageLines,
  paging,
} from './common.js';

export const getClassNodes = defineSnapshotTool({
  name: 'get_heapsnapshot_class_nodes',
  description:
    'Load (and cache) a heap snapshot; returns the instances of one class (id from get_heapsnapshot_details) with their node ids, largest retained size first.',
  schema: {
    filePath: filePathSchema,
    id: z.number().describe('The ID for the class, obtained from details.'),
    filterName: filterSchema,
    objectId: objectIdSchema,
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    return listPageLines(
      await open(params.filePath),
      params,
      {
        request: page => ({
          method: 'classNodes',
          classId: params.id,
          filterName: params.filterName,
          objectId: params.objectId,
          page,
        }),
        reply: nodesPageSchema,
      },
      items => formatNodes(items, params),
    );
  },
});

export const getRetainers = defineSnapshotTool({
  name: 'get_heapsnapshot_retainers',
  description:
    'Load (and cache) a heap snapshot; returns the retainers (incoming references) of one node.',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('retainers'),
    maxNameLength: maxNameLengthSchema,
    ...paging,
  },
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    return listPageLines(
      await open(params.filePath),
      params,
      {
        request: page => ({method: 'retainers', nodeId: params.nodeId, page}),
        reply: edgesPageSchema,
      },
      items => formatEdges(items, params),
    );
  },
});

export const getEdges = defineSnapshotTool({
  name: 'get_heapsnapshot_edges',
  description:
    'Load (and cache) a heap snapshot; returns the outgoing edges (references) of one node.',
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
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    return listPageLines(
      await open(params.filePath),
      params,
      {
        request: page => ({
          method: 'edges',
          nodeId: params.nodeId,
          sortBy: params.sortBy ?? 'retainedSize',
          // DevTools applies only a lower retained-size bound to edges.
          minRetainedSize: params.retainedSize?.min,
          excludePrimitives: params.excludePrimitives ?? true,
          page,
        }),
        reply: edgesPageSchema,
      },
      items => formatEdges(items, params),
    );
  },
});

export const getRetainingPaths = defineSnapshotTool({
  name: 'get_heapsnapshot_retaining_paths',
  description:
    'Load (and cache) a heap snapshot; returns the retaining paths of one node up to GC roots: why it is not garbage collected.',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('retaining paths'),
    maxDepth: z.number().optional().describe('The maximum depth to search for retaining paths.'),
    maxNodes: z.number().optional().describe('The maximum number of nodes to return.'),
    maxSiblings: z.number().optional().describe('The maximum number of siblings to return.'),
    maxNameLength: maxNameLengthSchema,
  },
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    const snapshot = await open(params.filePath);
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
    return lines;
  },
});

export const getDominators = defineSnapshotTool({
  name: 'get_heapsnapshot_dominators',
  description:
    'Load (and cache) a heap snapshot; returns the dominator chain of one node: the objects keeping it alive.',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('the dominator chain'),
    maxNameLength: maxNameLengthSchema,
  },
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    const snapshot = await open(params.filePath);
    const dominators = await snapshot.ask(
      {method: 'dominators', nodeId: params.nodeId},
      dominatorsSchema,
    );
    return [
      '### Dominator Chain',
      dominators.length === 0 ? 'No dominators found.' : formatDominators(dominators, params),
    ];
  },
});

export const getObjectDetails = defineSnapshotTool({
  name: 'get_heapsnapshot_object_details',
  description:
    'Load (and cache) a heap snapshot; returns one object by node id: size, type, distance and DOM detachedness.',
  schema: {
    filePath: filePathSchema,
    nodeId: nodeIdSchema('object details'),
    maxNameLength: maxNameLengthSchema,
  },
  filePaths: FILE_PATH,
  lines: async (params, open) => {
    const snapshot = await open(params.filePath);
    const info = await snapshot.ask(
      {method: 'objectInfo', nodeId: params.nodeId},
      objectInfoSchema,
    );
    return ['### Object Details', formatObjectInfo(info, params)];
  },
});
