/**
 * Memory bound of the heap analysis tools: generates a synthetic V8 heap snapshot of about 200 MB
 * (a tree of objects with cross references, the shape Chrome writes), loads it through the
 * engine's HeapSnapshotStore (the worker thread the tools use) and samples the process RSS every
 * 50 ms while it loads and answers the heaviest requests. The budget is 1.5 GB RSS.
 *
 *   npx tsx bench/heap-memory.ts [sizeMB]      # default 200; needs `npm run build` (the worker)
 *
 * Writes bench/results/heap-memory.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {z} from 'zod';
import {HeapSnapshotStore} from '../src/core/heap/HeapSnapshotStore.js';
import {aggregatesSchema, nodesPageSchema, summarySchema} from '../src/core/heap/protocol.js';
import {ROOT} from './lib.js';

const BUDGET_BYTES = 1.5 * 1024 ** 3;
const NODE_FIELDS = ['type', 'name', 'id', 'self_size', 'edge_count', 'detachedness'];
const NODE_TYPES = [
  'hidden',
  'array',
  'string',
  'object',
  'code',
  'closure',
  'regexp',
  'number',
  'native',
  'synthetic',
  'concatenated string',
  'sliced string',
  'symbol',
  'bigint',
  'object shape',
];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];
const CLASS_NAMES = 2000;
/** Characters per node in the file: its own fields plus about three edges. */
const BYTES_PER_NODE = 52;

/** A deterministic pseudo-random sequence, so every run measures the same graph. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function writeChunks(file: string, chunks: Iterable<string>): Promise<void> {
  const stream = fs.createWriteStream(file);
  for (const chunk of chunks) {
    if (!stream.write(chunk)) {
      await new Promise<void>(resolve => stream.once('drain', () => resolve()));
    }
  }
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

/** Node 0 is the synthetic root; node i has children 2i+1, 2i+2 and one cross reference. */
function* snapshotText(nodeCount: number): Generator<string> {
  const next = random(42);
  const edgesOf = (index: number): number[] => {
    if (index === 0) {
      return [1];
    }
    const targets = [2 * index + 1, 2 * index + 2].filter(target => target < nodeCount);
    targets.push(1 + Math.floor(next() * (nodeCount - 1)));
    return targets;
  };
  let edgeCount = 0;
  const counts = new Uint8Array(nodeCount);
  for (let index = 0; index < nodeCount; index++) {
    counts[index] = edgesOf(index).length;
    edgeCount += counts[index] ?? 0;
  }
  const meta = {
    node_fields: NODE_FIELDS,
    node_types: [NODE_TYPES, 'string', 'number', 'number', 'number', 'number'],
    edge_fields: ['type', 'name_or_index', 'to_node'],
    edge_types: [EDGE_TYPES, 'string_or_number', 'node'],
    trace_function_info_fields: [],
    trace_node_fields: [],
    sample_fields: ['timestamp_us', 'last_assigned_id'],
    location_fields: ['object_index', 'script_id', 'line', 'column'],
  };
  yield `{"snapshot":{"meta":${JSON.stringify(meta)},"node_count":${nodeCount},"edge_count":${edgeCount},"trace_function_count":0},\n"nodes":[`;
  const objectType = NODE_TYPES.indexOf('object');
  const syntheticType = NODE_TYPES.indexOf('synthetic');
  let batch: string[] = [];
  for (let index = 0; index < nodeCount; index++) {
    const type = index === 0 ? syntheticType : objectType;
    const name = index === 0 ? 0 : 1 + (index % CLASS_NAMES);
    batch.push(
      `${index === 0 ? '' : ','}${type},${name},${index * 2 + 1},${16 + (index % 7) * 8},${counts[index] ?? 0},0`,
    );
    if (batch.length === 50_000) {
      yield batch.join('\n');
      batch = [];
    }
  }
  yield `${batch.join('\n')}],\n"edges":[`;
  batch = [];
  const elementType = EDGE_TYPES.indexOf('element');
  const propertyType = EDGE_TYPES.indexOf('property');
  const propertyName = 1 + CLASS_NAMES;
  let first = true;
  const again = random(42);
  for (let index = 0; index < nodeCount; index++) {
    const targets =
      index === 0
        ? [1]
        : [
            ...[2 * index + 1, 2 * index + 2].filter(target => target < nodeCount),
            1 + Math.floor(again() * (nodeCount - 1)),
          ];
    targets.forEach((target, position) => {
      const edge =
        position < targets.length - 1 || index === 0
          ? `${elementType},${position},${target * NODE_FIELDS.length}`
          : `${propertyType},${propertyName},${target * NODE_FIELDS.length}`;
      batch.push(`${first ? '' : ','}${edge}`);
      first = false;
    });
    if (batch.length >= 150_000) {
      yield batch.join('\n');
      batch = [];
    }
  }
  const names = Array.from({length: CLASS_NAMES}, (_, index) => `SyntheticClass${index}`);
  yield `${batch.join('\n')}],\n"trace_function_infos":[],"trace_tree":[],"samples":[],"locations":[],\n"strings":${JSON.stringify(['', ...names, 'next'])}}`;
}

async function main(): Promise<void> {
  const sizeMb = Number(process.argv[2] ?? 200);
  const nodeCount = Math.round((sizeMb * 1e6) / BYTES_PER_NODE);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-heap-bench-'));
  const file = path.join(dir, 'synthetic.heapsnapshot');
  try {
    const generated = performance.now();
    await writeChunks(file, snapshotText(nodeCount));
    const bytes = fs.statSync(file).size;
    console.log(
      `generated ${(bytes / 1e6).toFixed(0)} MB (${nodeCount} nodes) in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
    );

    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const store = new HeapSnapshotStore(path.join(ROOT, 'out/heap/heapSnapshotWorker.js'));
    const started = performance.now();
    let snapshot;
    for (;;) {
      try {
        // The store takes the opened file over (the engine opens it through FileAccess).
        snapshot = await store.get(file, await fs.promises.open(file, 'r'));
        break;
      } catch (error) {
        if (!(error instanceof Error) || !error.message.includes('still loading')) {
          throw error;
        }
      }
    }
    const loadSeconds = (performance.now() - started) / 1000;
    const summary = await snapshot.ask({method: 'summary'}, summarySchema);
    const details = await snapshot.ask(
      {method: 'aggregates', page: {pageSize: 20}},
      aggregatesSchema,
    );
    const classId = details.items[0]?.id ?? 1;
    await snapshot.ask({method: 'classNodes', classId, page: {pageSize: 20}}, nodesPageSchema);
    await snapshot.ask(
      {method: 'query', options: {className: 'SyntheticClass1$'}, page: {pageSize: 20}},
      nodesPageSchema,
    );
    await snapshot.ask({method: 'duplicateStrings', page: {pageSize: 20}}, z.unknown());
    const querySeconds = (performance.now() - started) / 1000 - loadSeconds;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    await store.closeAll();
    const result = {
      fileMB: Math.round(bytes / 1e6),
      nodes: summary.staticData.nodeCount,
      classes: details.total,
      loadSeconds: Number(loadSeconds.toFixed(1)),
      querySeconds: Number(querySeconds.toFixed(1)),
      baselineRssMB: Math.round(baseline / 1024 ** 2),
      peakRssMB: Math.round(peak / 1024 ** 2),
      budgetMB: BUDGET_BYTES / 1024 ** 2,
      withinBudget: peak <= BUDGET_BYTES,
    };
    console.log(JSON.stringify(result, null, 2));
    const out = path.join(ROOT, 'bench/results');
    fs.mkdirSync(out, {recursive: true});
    fs.writeFileSync(path.join(out, 'heap-memory.json'), `${JSON.stringify(result, null, 2)}\n`);
    if (!result.withinBudget) {
      process.exitCode = 1;
    }
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

await main();
