/**
 * What the heap analysis tools read: only the file they opened and checked (a folder flipping
 * between a real folder and a link outside never gets an outside snapshot analysed), and only
 * what the file can back (a 1 KB file whose header claims 20,000,000 nodes is refused before
 * anything is allocated). Tiny hand-written snapshots, the real worker, real MCP calls; the heap
 * tools work offline, so no browser starts.
 *
 * Tests: src/core/heap/snapshotHeader.ts, src/core/heap/HeapSnapshotStore.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {maxValuesInFile, snapshotHeaderProblem} from '../../../src/core/heap/snapshotHeader.js';
import {call, startEngine, type TestEngine} from '../../helpers/engine.js';
import {startFlipper} from '../../helpers/flipper.js';
import {makeOutsideDir} from '../../helpers/outsideDir.js';
import {parkFolderForLink, restoreFolder, withRaceHook} from '../../helpers/racePoint.js';

/** A valid snapshot of three nodes: the root, (GC roots), and one object of class `className`. */
function tinySnapshot(className: string, nodeCount = 3): string {
  const meta = {
    node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'detachedness'],
    node_types: [
      ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native'],
      'string',
      'number',
      'number',
      'number',
      'number',
    ],
    edge_fields: ['type', 'name_or_index', 'to_node'],
    edge_types: [
      ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'],
      'string_or_number',
      'node',
    ],
    location_fields: ['object_index', 'script_id', 'line', 'column'],
  };
  return JSON.stringify({
    snapshot: {meta, node_count: nodeCount, edge_count: 2, trace_function_count: 0},
    nodes: [9, 0, 1, 0, 2, 0, 9, 1, 3, 0, 0, 0, 3, 2, 5, 100, 0, 0],
    edges: [1, 0, 6, 5, 3, 12],
    locations: [],
    strings: ['', '(GC roots)', className],
  });
}

/** Peak resident memory of this process (Linux), in MB. */
function peakRssMb(): number | undefined {
  try {
    const status = fs.readFileSync('/proc/self/status', 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

describe('what a snapshot header may claim', () => {
  it('refuses claims the file cannot back, computed as the loader computes them', () => {
    const header = (nodeCount: unknown, fields: unknown = ['a', 'b', 'c']) => ({
      meta: {node_fields: fields, edge_fields: ['x', 'y', 'z']},
      node_count: nodeCount,
      edge_count: 0,
    });
    expect(maxValuesInFile(1000)).toBe(500);
    expect(snapshotHeaderProblem(header(10), 60)).toBeUndefined();
    expect(snapshotHeaderProblem(header(20_000_000), 1024)).toMatch(
      /claims 60,000,000 values for nodes \(node_count 20000000\), more than a file of 1,024 bytes/,
    );
    // JSON strings and one-element arrays multiply like numbers in the loader.
    expect(snapshotHeaderProblem(header('20000000'), 1024)).toMatch(/claims 60,000,000/);
    expect(snapshotHeaderProblem(header([20_000_000]), 1024)).toMatch(/claims 60,000,000/);
    expect(snapshotHeaderProblem(header(10, 'a-long-field-list'), 1024)).toBeUndefined();
    expect(snapshotHeaderProblem(header(1e300), 1024)).toMatch(/impossible number of nodes/);
    expect(snapshotHeaderProblem(header(-5), 1024)).toMatch(/impossible/);
    // Tables add up: each fits alone, not together.
    expect(
      snapshotHeaderProblem(
        {...header(100), edge_count: 100, meta: {node_fields: [1, 2], edge_fields: [1, 2]}},
        600,
      ),
    ).toMatch(/for edges/);
    expect(
      snapshotHeaderProblem(
        {
          ...header(1),
          trace_function_count: 1_000_000,
          meta: {node_fields: [1], edge_fields: [1], trace_function_info_fields: [1, 2, 3]},
        },
        1024,
      ),
    ).toMatch(/trace function infos/);
  });
});

describe('heap tools on files they cannot trust', () => {
  let engine: TestEngine;
  let tmp: string;

  beforeAll(async () => {
    engine = await startEngine(['--memoryDebugging']);
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-heap-files-')));
  });

  afterAll(async () => {
    await engine.stop();
    fs.rmSync(tmp, {recursive: true, force: true});
  });

  it('analyses a tiny valid snapshot', async () => {
    const client = await engine.connect('heap-valid');
    const file = path.join(tmp, 'valid.heapsnapshot');
    fs.writeFileSync(file, tinySnapshot('InsideClass'));
    const details = await call(client, 'get_heapsnapshot_details', {filePath: file});
    expect(details.isError, details.text).toBe(false);
    expect(details.text).toMatch(/^1,InsideClass,1,/m);
  });

  it('refuses a 1 KB file that claims 20,000,000 nodes, naming the file, without the memory', async () => {
    const client = await engine.connect('heap-claims');
    const file = path.join(tmp, 'claims.heapsnapshot');
    fs.writeFileSync(file, tinySnapshot('Claimer', 20_000_000));
    expect(fs.statSync(file).size).toBeLessThan(1024);
    const before = peakRssMb();
    const refused = await call(client, 'get_heapsnapshot_summary', {filePath: file});
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`Could not load heap snapshot ${file}`);
    expect(refused.text).toMatch(/claims 120,000,000 values for nodes/);
    expect(refused.text).toContain('take_heapsnapshot');
    const after = peakRssMb();
    if (before !== undefined && after !== undefined) {
      // Unbounded, the claim costs well over 1 GB; what a call needs is far below this bound.
      expect(after - before).toBeLessThan(400);
    }
  });

  it('never analyses an outside file while a folder flips between real and a link', async () => {
    const client = await engine.connect('heap-race');
    const outside = makeOutsideDir('.mbi-heap-outside-');
    try {
      fs.writeFileSync(
        path.join(outside, 's.heapsnapshot'),
        tinySnapshot('OutsideSecretClassWithALongerName'),
      );
      const folder = path.join(tmp, 'flip');
      const parked = path.join(tmp, 'flip-real');
      const link = path.join(tmp, 'flip-link');
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 's.heapsnapshot'), tinySnapshot('InsideClass'));
      fs.symlinkSync(outside, link);
      // Real folder ⇄ link to outside, by renames (the folder name is missing for an instant).
      const flipper = await startFlipper(
        `const [folder, parked, link] = args;
         globalThis.n = (globalThis.n || 0) + 1;
         if (globalThis.n % 2) { fs.renameSync(folder, parked); fs.renameSync(link, folder); }
         else { fs.renameSync(folder, link); fs.renameSync(parked, folder); }`,
        [folder, parked, link],
      );
      const texts: string[] = [];
      let refused = 0;
      const end = Date.now() + 8_000;
      try {
        for (let index = 0; index < 120 && Date.now() < end; index++) {
          const result = await call(client, 'get_heapsnapshot_details', {
            filePath: path.join(folder, 's.heapsnapshot'),
          });
          texts.push(result.text);
          refused += result.isError ? 1 : 0;
        }
      } finally {
        await flipper.stop();
      }
      // How many calls met the link depends on the scheduler; what each returned does not.
      expect(
        texts.filter(text => text.includes('OutsideSecretClass')),
        `${refused} of ${texts.length} refused, ${flipper.flips()} flips`,
      ).toEqual([]);
    } finally {
      fs.rmSync(outside, {recursive: true, force: true});
    }
  });

  it('refuses the file when its folder became a link just before it was opened', async () => {
    const client = await engine.connect('heap-race-at-the-instant');
    const outside = makeOutsideDir('.mbi-heap-outside-');
    try {
      fs.writeFileSync(
        path.join(outside, 's.heapsnapshot'),
        tinySnapshot('OutsideSecretClassWithALongerName'),
      );
      const folder = path.join(tmp, 'swap');
      const parked = path.join(tmp, 'swap-real');
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 's.heapsnapshot'), tinySnapshot('InsideClass'));
      const details = (): Promise<{text: string; isError: boolean}> =>
        call(client, 'get_heapsnapshot_details', {filePath: path.join(folder, 's.heapsnapshot')});
      let swapped = 0;
      // The path was checked; the file is about to be opened: the folder becomes a link outside.
      const raced = await withRaceHook((step, target) => {
        if (step === 'open-file' && target === path.join(folder, 's.heapsnapshot')) {
          parkFolderForLink(folder, parked, outside);
          swapped++;
        }
      }, details);
      expect(swapped).toBe(1);
      expect(raced.isError, raced.text).toBe(true);
      expect(raced.text).not.toContain('OutsideSecretClass');
      expect(raced.text).toContain('Access denied');
      restoreFolder(folder, parked);
      // Both sides: the same call on the folder as it was answers from inside.
      expect((await details()).text).toMatch(/^1,InsideClass,1,/m);
    } finally {
      fs.rmSync(outside, {recursive: true, force: true});
    }
  });
});
