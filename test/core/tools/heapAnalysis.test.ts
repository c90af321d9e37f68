/**
 * The heap snapshot analysis tools (--memoryDebugging) on real snapshots of a page that leaks
 * detached <div>s and a growing array of LeakyRecord objects: taken with take_heapsnapshot before
 * and after the page leaks 500 more of each.
 *
 * Tests: src/core/tools/heapAnalysis/overview.ts, src/core/tools/heapAnalysis/objects.ts,
 *   src/core/tools/heapAnalysis/compare.ts, src/core/tools/memory.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {call, callError, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({flags: ['--memoryDebugging'], tmpPrefix: 'mbi-heap-analysis-'});

let before = '';
let after = '';

/** The first data row of a CSV-like table whose first column matches. */
function rowOf(text: string, pattern: RegExp): string[] {
  const line = text.split('\n').find(row => pattern.test(row));
  if (line === undefined) {
    throw new Error(`No row matching ${String(pattern)} in:\n${text}`);
  }
  return line.split(',');
}

async function ok(name: string, args: Record<string, unknown>): Promise<string> {
  const {text, isError} = await call(fx.client, name, args);
  expect(isError, text).toBe(false);
  return text;
}

/** Node id of one LeakyRecord instance (via the class list). */
async function leakyRecordId(): Promise<number> {
  const details = await ok('get_heapsnapshot_details', {filePath: after});
  const classId = Number(rowOf(details, /^\d+,LeakyRecord,/)[0]);
  const nodes = await ok('get_heapsnapshot_class_nodes', {
    filePath: after,
    id: classId,
    pageSize: 1,
  });
  return Number(rowOf(nodes, /^\d+,LeakyRecord,object,/)[0]);
}

beforeAll(async () => {
  const pageId = await fx.openPage('/heap-leak.html');
  before = path.join(fx.tmp, 'before.heapsnapshot');
  after = path.join(fx.tmp, 'after.heapsnapshot');
  await ok('take_heapsnapshot', {pageId, filePath: before});
  await ok('evaluate_script', {pageId, function: '() => window.leak(500)'});
  await ok('take_heapsnapshot', {pageId, filePath: after});
});

describe('heap snapshot analysis', () => {
  it('summarizes a snapshot: statistics, native contexts, retained-by-context summary', async () => {
    const text = await ok('get_heapsnapshot_summary', {filePath: after});
    expect(text).toContain('## Heap Snapshot Data');
    expect(text).toMatch(/Statistics: \{\n {2}"total": \d+/);
    expect(text).toContain('"nodeCount":');
    expect(text).toContain(
      '### Native Contexts\nnodeId,nodeName,selfSize,retainedSize,attributedSize',
    );
    expect(text).toMatch(/^\d+,system \/ NativeContext[^,]*,[\d.]+kB,[\d.]+kB,[\d.]+kB$/m);
    expect(text).toMatch(/### Retained by Context Summary\nContext count: \d+/);
  });

  it('aggregates by class with ids and pages them; the detached-DOM filter keeps only the leak', async () => {
    const all = await ok('get_heapsnapshot_details', {filePath: after, pageSize: 5});
    expect(all).toMatch(/Objects: \d+\nTotal shallow size: [\d.,]+kB/);
    expect(all).toMatch(/Showing 1-5 of \d+ \(Page 1 of \d+\)\.\nNext page: 1/);
    expect(all).toContain('id,className,count,selfSize,retainedSize');

    const detached = await ok('get_heapsnapshot_details', {
      filePath: after,
      filterName: 'objectsRetainedByDetachedDomNodes',
    });
    expect(rowOf(detached, /^\d+,Detached <div>,/)[2]).toBe('600');
    expect(detached).not.toMatch(/^\d+,LeakyRecord,/m);
  });

  it('lists the instances of a class, largest retained size first', async () => {
    const details = await ok('get_heapsnapshot_details', {filePath: after});
    const classId = Number(rowOf(details, /^\d+,LeakyRecord,/)[0]);
    expect(rowOf(details, /^\d+,LeakyRecord,/)[2]).toBe('600');
    const nodes = await ok('get_heapsnapshot_class_nodes', {
      filePath: after,
      id: classId,
      pageSize: 3,
      pageIdx: 1,
    });
    expect(nodes).toContain('nodeId,nodeName,type,distance,selfSize,retainedSize');
    expect(nodes.match(/^\d+,LeakyRecord,object,\d+,/gm)).toHaveLength(3);
    expect(nodes).toContain('Showing 4-6 of 600 (Page 2 of 200).');
    const missing = await call(fx.client, 'get_heapsnapshot_class_nodes', {
      filePath: after,
      id: 999_999,
    });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Class with ID 999999 not found in heap snapshot');
  });

  it('shows retainers, retaining paths to the window, dominators and object details', async () => {
    const nodeId = await leakyRecordId();
    const retainers = await ok('get_heapsnapshot_retainers', {filePath: after, nodeId});
    expect(retainers).toContain('name,type,nodeId,nodeName,selfSize,retainedSize');
    // Held by the leakyRecords array, by element index.
    expect(retainers).toMatch(/^\d+,element,\d+,Array,/m);

    const paths = await ok('get_heapsnapshot_retaining_paths', {
      filePath: after,
      nodeId,
      maxDepth: 10,
    });
    expect(paths).toContain('### Retaining Paths');
    expect(paths).toMatch(/^<- @\d+ Array via element \d+ \(distance: \d+\)$/m);
    expect(paths).toMatch(/via property leakyRecords/);

    const dominators = await ok('get_heapsnapshot_dominators', {filePath: after, nodeId});
    expect(dominators).toContain('### Dominator Chain\nnodeId,nodeName,selfSize,retainedSize');
    expect(dominators).toMatch(new RegExp(`^${nodeId},LeakyRecord,`, 'm'));

    const object = await ok('get_heapsnapshot_object_details', {filePath: after, nodeId});
    expect(object).toContain(`### Object Details\nid: @${nodeId}\nname: LeakyRecord\ntype: object`);
    expect(object).toMatch(/retainerCount: \d+/);

    const edges = await ok('get_heapsnapshot_edges', {
      filePath: after,
      nodeId,
      excludePrimitives: false,
      sortBy: 'name',
    });
    expect(edges).toMatch(/^payload,property,\d+,payload-\d+,/m);
    expect(edges).toMatch(/^index,property,\d+,/m);
  });

  it('finds objects by class name and detachedness, with size ranges', async () => {
    const detached = await ok('query_heapsnapshot_objects', {
      filePath: after,
      isDetached: true,
      className: 'div',
      pageSize: 2,
    });
    // DevTools names detached elements with their attributes: Detached <div class="detached-leak">.
    expect(detached).toContain('Showing 1-2 of 600 (Page 1 of 300).');
    expect(detached.match(/^\d+,Detached <div class="detached-leak">,native,/gm)).toHaveLength(2);

    const none = await ok('query_heapsnapshot_objects', {
      filePath: after,
      className: '^LeakyRecord$',
      selfSize: '1GB-',
    });
    expect(none).toContain('Showing 0-0 of 0 (Page 1 of 1).');

    const bad = await call(fx.client, 'query_heapsnapshot_objects', {
      filePath: after,
      retainedSize: '2MB-1MB',
    });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('The lower bound must not exceed the upper bound.');
  });

  it('compares two snapshots: the growth by class, then one class object by object', async () => {
    const summary = await ok('compare_heapsnapshots', {
      baseFilePath: before,
      currentFilePath: after,
    });
    expect(summary).toContain('### Heap Snapshot Diff\nTotal: # new: ');
    expect(summary).toContain(
      'index,className,addedCount,removedCount,countDelta,addedSize,removedSize,sizeDelta',
    );
    const leaky = rowOf(summary, /^\d+,LeakyRecord,/);
    expect(leaky[4]).toBe('500');
    const div = rowOf(summary, /^\d+,Detached <div>,/);
    expect(div[4]).toBe('500');

    const detail = await ok('compare_heapsnapshots', {
      baseFilePath: before,
      currentFilePath: after,
      classIndex: Number(leaky[0]),
    });
    expect(detail).toMatch(
      /### Heap Snapshot Detailed Diff\nLeakyRecord: # new: \d+, # deleted: \d+, # delta: \+500,/,
    );
    expect(detail.match(/^ {2}\+ @\d+ \(self_size: [\d.]+kB\)$/gm)?.length).toBeGreaterThanOrEqual(
      500,
    );

    const invalid = await call(fx.client, 'compare_heapsnapshots', {
      baseFilePath: before,
      currentFilePath: after,
      classIndex: 100_000,
    });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/Invalid classIndex: 100000\. Total classes with changes: \d+/);
  });

  it('lists duplicate strings and analyzes closure contexts', async () => {
    const strings = await ok('get_heapsnapshot_duplicate_strings', {filePath: after, pageSize: 3});
    expect(strings).toContain('### Duplicate Strings');
    expect(strings).toContain('value,count,totalSelfSize,totalRetainedSize,truncated,nodeIds');
    expect(strings).toMatch(/^".*",\d+,[\d.]+kB,[\d.]+kB,(true|false),@\d+( @\d+)+$/m);

    const contexts = await ok('analyze_heapsnapshot_contexts', {filePath: after});
    expect(contexts).toContain('### Context Analysis');
    expect(contexts).toMatch(/Showing \d+-\d+ of \d+ \(Page 1 of \d+\)\./);
  });

  it('explains unknown nodes, wrong extensions and files outside the roots', async () => {
    const node = await call(fx.client, 'get_heapsnapshot_object_details', {
      filePath: after,
      nodeId: 123_456_789,
    });
    expect(node.isError).toBe(true);
    expect(node.text).toContain('Node with ID 123456789 not found');

    const extension = await call(fx.client, 'get_heapsnapshot_summary', {
      filePath: path.join(fx.tmp, 'x.json'),
    });
    expect(extension.isError).toBe(true);
    expect(extension.text).toContain('must have a .heapsnapshot or .heaptimeline extension');

    const outside = await call(fx.client, 'get_heapsnapshot_summary', {
      filePath: '/etc/passwd.heapsnapshot',
    });
    expect(outside.isError).toBe(true);
    expect(outside.text).toMatch(/not within|outside|allowed/i);
  });

  it('reports a file that is not a heap snapshot, and reloads a path written again', async () => {
    const garbage = path.join(fx.tmp, 'garbage.heapsnapshot');
    fs.writeFileSync(garbage, '{"not": "a snapshot"}');
    const broken = await call(fx.client, 'get_heapsnapshot_summary', {filePath: garbage});
    expect(broken.isError).toBe(true);
    expect(broken.text).toContain(`Could not load heap snapshot ${fs.realpathSync(garbage)}`);

    const reused = path.join(fx.tmp, 'reused.heapsnapshot');
    fs.copyFileSync(before, reused);
    const first = await ok('get_heapsnapshot_details', {filePath: reused});
    expect(rowOf(first, /^\d+,LeakyRecord,/)[2]).toBe('100');
    fs.copyFileSync(after, reused);
    const second = await ok('get_heapsnapshot_details', {filePath: reused});
    expect(rowOf(second, /^\d+,LeakyRecord,/)[2]).toBe('600');
  });

  it('closes a loaded snapshot once, then says it was not loaded', async () => {
    await ok('get_heapsnapshot_summary', {filePath: before});
    const closed = await ok('close_heapsnapshot', {filePath: before});
    expect(closed).toContain('Closed heap snapshot: ');
    const again = await call(fx.client, 'close_heapsnapshot', {filePath: before});
    expect(again.isError).toBe(true);
    expect(again.text).toContain('was not loaded.');
  });
});

describe('offline', () => {
  const broken = useEngineWithFixtures({
    flags: ['--memoryDebugging', '--executablePath=/nonexistent/chromium'],
  });
  it('analyzes snapshot files without starting (or needing) a browser', async () => {
    const summary = await call(broken.client, 'get_heapsnapshot_details', {
      filePath: after,
      pageSize: 1,
    });
    expect(summary.isError, summary.text).toBe(false);
    expect(summary.text).toContain('id,className,count,selfSize,retainedSize');
    expect(broken.engine.engine.browser.status.state).toBe('idle');
    // A browser tool on the same server still reports the launch problem.
    const pages = await call(broken.client, 'list_pages');
    expect(pages.isError).toBe(true);
  });
});

describe('without --memoryDebugging', () => {
  const plain = useEngineWithFixtures();
  it('offers only take_heapsnapshot and names the flag', async () => {
    const {tools} = await plain.client.listTools();
    const names = tools.map(tool => tool.name);
    expect(names).toContain('take_heapsnapshot');
    expect(names).not.toContain('get_heapsnapshot_summary');
    // A tool missing from tools/list is answered as the specification says: JSON-RPC -32602.
    const refused = await callError(plain.client, 'get_heapsnapshot_summary', {
      filePath: '/tmp/a.heapsnapshot',
    });
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain('--memoryDebugging');
  });
});
