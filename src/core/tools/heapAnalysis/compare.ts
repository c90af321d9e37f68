/** Heap snapshot analysis across two snapshots: what was added and freed, per class or per object. */
import {z} from 'zod';
import {
  formatDiffDetails,
  formatDiffSummary,
  formatDiffTotals,
  type NameOptions,
} from '../../heap/format.js';
import type {LoadedSnapshot} from '../../heap/HeapSnapshotStore.js';
import {diffReplySchema} from '../../heap/protocol.js';
import {defineSnapshotTool, maxNameLengthSchema, pageLines, pageOf, paging} from './common.js';

/** Compares two snapshots: the class summary, or one class (by its summary index) object by object. */
async function compare(
  params: {
    baseFilePath: string;
    currentFilePath: string;
    classIndex?: number | undefined;
    pageIdx?: number | undefined;
    pageSize?: number | undefined;
  } & NameOptions,
  open: (file: string) => Promise<LoadedSnapshot>,
): Promise<string[]> {
  const [base, current] = await Promise.all([
    open(params.baseFilePath),
    open(params.currentFilePath),
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
      return ['### Heap Snapshot Detailed Diff', formatDiffDetails(reply.detail, params)];
    case 'summary':
      return [
        '### Heap Snapshot Diff',
        formatDiffTotals(reply.summary.totals),
        ...pageLines(reply.summary.total, page),
        formatDiffSummary(reply.summary.items, params),
      ];
  }
}

export const compareSnapshots = defineSnapshotTool({
  name: 'compare_heapsnapshots',
  description:
    'Load (and cache) two heap snapshots and compare them: per-class counts and sizes added and freed, or with classIndex the objects of one class.',
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
  lines: (params, open) => compare(params, open),
});
