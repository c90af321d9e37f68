/**
 * Text of the heap analysis tools, line for line as chrome-devtools-mcp 1.11 prints it (CSV-like
 * tables with class ids, node ids and sizes in kB, `@id` references, indented retaining paths), so
 * agents and skills written for it read the same output here.
 */
import type {
  ClassDiff,
  ContextEntry,
  ContextScope,
  DetailedClassDiff,
  DiffTotals,
  Dominators,
  DuplicateString,
  HeapAggregate,
  HeapEdge,
  HeapNode,
  HeapObjectInfo,
  HeapSummary,
  RetainingEdge,
} from './protocol.js';

export const MAX_NAME_LENGTH = 100;

export interface NameOptions {
  maxNameLength?: number | undefined;
}

const kilobytesDecimal = new Intl.NumberFormat('en-US', {
  style: 'unit',
  unit: 'kilobyte',
  unitDisplay: 'narrow',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const kilobytesInteger = new Intl.NumberFormat('en-US', {
  style: 'unit',
  unit: 'kilobyte',
  unitDisplay: 'narrow',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

/** DevTools' formatBytesToKb: "1.2kB" below 100 kB, "123kB" above. */
export function formatBytesToKb(bytes: number): string {
  const kilobytes = bytes / 1000;
  return kilobytes < 100 ? kilobytesDecimal.format(kilobytes) : kilobytesInteger.format(kilobytes);
}

function truncate(value: string, maxLength = MAX_NAME_LENGTH): string {
  return value.length <= maxLength ? value : `${value.slice(0, maxLength)}...`;
}

/** One line per name: truncated, line breaks escaped. */
export function formatName(name: string, options: NameOptions): string {
  return truncate(name, options.maxNameLength).replaceAll('\r', '\\r').replaceAll('\n', '\\n');
}

function signedCount(value: number): string {
  return value > 0 ? `+${value}` : `${value}`;
}

function signedSize(bytes: number): string {
  const formatted = formatBytesToKb(bytes);
  return bytes > 0 ? `+${formatted}` : formatted;
}

function plural(count: number, singular: string): string {
  return `${count} ${singular}${count === 1 ? '' : 's'}`;
}

export function formatSummary(summary: HeapSummary, options: NameOptions): string[] {
  const sizes = summary.nativeContextSizes;
  const contexts = [...sizes.nativeContexts].sort((a, b) => b.attributedSize - a.attributedSize);
  const retained = summary.retainedByContextSummary;
  return [
    `Statistics: ${JSON.stringify(summary.stats, null, 2)}`,
    `Static Data: ${JSON.stringify(summary.staticData, null, 2)}`,
    '### Native Contexts',
    [
      'nodeId,nodeName,selfSize,retainedSize,attributedSize',
      ...contexts.map(
        context =>
          `${context.nodeId},${formatName(context.nodeName, options)},${formatBytesToKb(context.selfSize)},${formatBytesToKb(context.retainedSize)},${formatBytesToKb(context.attributedSize)}`,
      ),
      `Shared Size: ${formatBytesToKb(sizes.sharedSize)}`,
      `Unattributed Size: ${formatBytesToKb(sizes.noAttributionSize)}`,
    ].join('\n'),
    '### Retained by Context Summary',
    [
      `Context count: ${retained.contextCount}`,
      `Retained by context size: ${formatBytesToKb(retained.retainedByContextSize)} (${retained.retainedByContextCount} objects)`,
      `Not retained by context size: ${formatBytesToKb(retained.notRetainedByContextSize)} (${retained.notRetainedByContextCount} objects)`,
      `Total size: ${formatBytesToKb(retained.totalSize)}`,
    ].join('\n'),
  ];
}

export function formatAggregates(
  aggregates: readonly HeapAggregate[],
  options: NameOptions,
): string {
  return [
    'id,className,count,selfSize,retainedSize',
    ...aggregates.map(
      info =>
        `${info.id},${formatName(info.className, options)},${info.count},${formatBytesToKb(info.selfSize)},${formatBytesToKb(info.retainedSize)}`,
    ),
  ].join('\n');
}

export function formatNodes(nodes: readonly HeapNode[], options: NameOptions): string {
  if (nodes.length === 0) {
    return '';
  }
  return [
    'nodeId,nodeName,type,distance,selfSize,retainedSize',
    ...nodes.map(
      node =>
        `${node.id},${formatName(node.name, options)},${node.type},${node.distance},${formatBytesToKb(node.selfSize)},${formatBytesToKb(node.retainedSize)}`,
    ),
  ].join('\n');
}

export function formatEdges(edges: readonly HeapEdge[], options: NameOptions): string {
  if (edges.length === 0) {
    return '';
  }
  return [
    'name,type,nodeId,nodeName,selfSize,retainedSize',
    ...edges.map(
      edge =>
        `${formatName(edge.name, options)},${edge.type},${edge.node.id},${formatName(edge.node.name, options)},${formatBytesToKb(edge.node.selfSize)},${formatBytesToKb(edge.node.retainedSize)}`,
    ),
  ].join('\n');
}

export function formatRetainingPaths(
  paths: readonly RetainingEdge[],
  options: NameOptions,
): string {
  const lines: string[] = [];
  const visit = (edge: RetainingEdge, depth: number): void => {
    lines.push(
      `${'  '.repeat(depth)}<- @${edge.nodeId} ${formatName(edge.nodeName, options)} via ${edge.edgeType} ${formatName(edge.edgeName, options)} (distance: ${edge.distance})`,
    );
    for (const child of edge.children) {
      visit(child, depth + 1);
    }
  };
  for (const path of paths) {
    visit(path, 0);
  }
  return lines.join('\n');
}

export function formatDominators(dominators: Dominators, options: NameOptions): string {
  return [
    'nodeId,nodeName,selfSize,retainedSize',
    ...dominators.map(
      node =>
        `${node.nodeId},${formatName(node.nodeName, options)},${formatBytesToKb(node.selfSize)},${formatBytesToKb(node.retainedSize)}`,
    ),
  ].join('\n');
}

export function formatDuplicateStrings(
  groups: readonly DuplicateString[],
  options: NameOptions,
): string {
  return [
    'value,count,totalSelfSize,totalRetainedSize,truncated,nodeIds',
    ...groups.map(
      group =>
        `${JSON.stringify(truncate(group.value, options.maxNameLength))},${group.count},${formatBytesToKb(group.totalSelfSize)},${formatBytesToKb(group.totalRetainedSize)},${group.truncated ?? false},${group.nodes.map(node => `@${node.id}`).join(' ')}`,
    ),
  ].join('\n');
}

export function formatDiffTotals(totals: DiffTotals): string {
  return `Total: # new: ${totals.addedCount}, # deleted: ${totals.removedCount}, # delta: ${signedCount(totals.countDelta)}, alloc size: ${signedSize(totals.addedSize)}, freed size: ${signedSize(totals.removedSize)}, size delta: ${signedSize(totals.sizeDelta)}`;
}

export function formatDiffSummary(diffs: readonly ClassDiff[], options: NameOptions): string {
  return [
    'index,className,addedCount,removedCount,countDelta,addedSize,removedSize,sizeDelta',
    ...diffs.map(
      diff =>
        `${diff.index},${formatName(diff.className, options)},${diff.addedCount},${diff.removedCount},${diff.countDelta},${formatBytesToKb(diff.addedSize)},${formatBytesToKb(diff.removedSize)},${formatBytesToKb(diff.sizeDelta)}`,
    ),
  ].join('\n');
}

export function formatDiffDetails(diff: DetailedClassDiff, options: NameOptions): string {
  const lines = [
    `${formatName(diff.className, options)}: # new: ${diff.addedCount}, # deleted: ${diff.removedCount}, # delta: ${signedCount(diff.countDelta)}, alloc size: ${signedSize(diff.addedSize)}, freed size: ${signedSize(diff.removedSize)}, size delta: ${signedSize(diff.sizeDelta)}`,
    'Objects:',
  ];
  diff.addedIds.forEach((id, index) => {
    lines.push(`  + @${id} (self_size: ${formatBytesToKb(diff.addedSelfSizes[index] ?? 0)})`);
  });
  diff.deletedIds.forEach((id, index) => {
    lines.push(`  - @${id} (self_size: ${formatBytesToKb(diff.deletedSelfSizes[index] ?? 0)})`);
  });
  return lines.join('\n');
}

const DOM_LINK_STATES: Readonly<Record<number, string>> = {1: 'attached', 2: 'detached'};

export function formatObjectInfo(info: HeapObjectInfo, options: NameOptions): string {
  return [
    `id: @${info.id}`,
    `name: ${formatName(info.name, options)}`,
    `type: ${info.type}`,
    `detachedness: ${DOM_LINK_STATES[info.detachedness] ?? 'unknown'}`,
    `selfSize: ${formatBytesToKb(info.selfSize)}`,
    `retainedSize: ${formatBytesToKb(info.retainedSize)}`,
    `distance: ${info.distance}`,
    `edgeCount: ${info.edgeCount}`,
    `retainerCount: ${info.retainerCount}`,
  ].join('\n');
}

export interface RankedContext {
  scope: ContextScope;
  context: ContextEntry;
}

function scopeName(scope: ContextScope, options: NameOptions): string {
  const script = scope.scriptName
    ? formatName(scope.scriptName, options)
    : `script @${scope.scriptNodeId}`;
  return scope.scopeName ? `${formatName(scope.scopeName, options)} (${script})` : script;
}

export function formatContextAnalysis(
  contexts: readonly RankedContext[],
  scriptsWithoutScopes: readonly {scriptNodeId: number; scriptName: string; contextCount: number}[],
  options: NameOptions,
): string {
  const lines: string[] = [];
  if (contexts.length === 0) {
    lines.push('No live contexts with dead fields were found.');
  }
  for (const {scope, context} of contexts) {
    if (lines.length > 0) {
      lines.push('');
    }
    lines.push(
      `#### Context @${context.contextNodeId} in \`${scopeName(scope, options)}\` — ${formatBytesToKb(context.deadFieldsRetainedSizeSum)}`,
      `Script @${scope.scriptNodeId}, ScopeInfo @${scope.scopeInfoNodeId}, offsets ${scope.scopeStart}-${scope.scopeEnd}, ${plural(scope.contextFieldCount, 'context field')}`,
    );
    for (const field of context.deadFields) {
      lines.push(
        `- \`${formatName(field.name, options)}\` (${formatName(field.valueName, options)} @${field.valueNodeId}) — ${formatBytesToKb(field.retainedSize)}`,
      );
    }
  }
  if (scriptsWithoutScopes.length > 0) {
    lines.push('', 'Scripts without scope metadata could not be analyzed:');
    for (const script of scriptsWithoutScopes) {
      const name = script.scriptName
        ? formatName(script.scriptName, options)
        : `script @${script.scriptNodeId}`;
      lines.push(
        `- \`${name}\` (@${script.scriptNodeId}) — ${plural(script.contextCount, 'context')}`,
      );
    }
  }
  return lines.join('\n');
}
