import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {call, pageIdFrom, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({tmpPrefix: 'mbi-heap-'});

interface HeapSnapshotFile {
  snapshot: {meta: {node_fields: string[]}; node_count: number};
  nodes: number[];
  strings: string[];
}

function isHeapSnapshot(value: unknown): value is HeapSnapshotFile {
  return (
    value !== null &&
    typeof value === 'object' &&
    'snapshot' in value &&
    'nodes' in value &&
    'strings' in value
  );
}

describe('take_heapsnapshot', () => {
  it('streams a parseable snapshot to the file, with a marker object from the page', async () => {
    const url = fx.server.html(
      '/heap.html',
      '<!doctype html><title>heap</title><script>class HeapMarkerForTest { constructor() { this.payload = "x".repeat(1000); } } window.kept = Array.from({length: 50}, () => new HeapMarkerForTest());</script>',
    );
    const opened = await call(fx.client, 'new_page', {url});
    expect(opened.isError, opened.text).toBe(false);
    const pageId = pageIdFrom(opened.text, '/heap.html');

    const requested = path.join(fx.tmp, 'nested', 'page.json');
    const {text, isError} = await call(fx.client, 'take_heapsnapshot', {
      pageId,
      filePath: requested,
    });
    expect(isError, text).toBe(false);
    // The extension is corrected to .heapsnapshot, as chrome-devtools-mcp does.
    const saved = path.join(fs.realpathSync(fx.tmp), 'nested', 'page.heapsnapshot');
    expect(text).toContain(`Heap snapshot saved to ${saved}`);
    expect(fs.statSync(saved).mode & 0o777).toBe(0o600);

    const parsed: unknown = JSON.parse(fs.readFileSync(saved, 'utf8'));
    expect(isHeapSnapshot(parsed)).toBe(true);
    if (!isHeapSnapshot(parsed)) {
      return;
    }
    expect(parsed.snapshot.meta.node_fields).toContain('name');
    expect(parsed.snapshot.node_count).toBeGreaterThan(1000);
    expect(parsed.nodes.length).toBe(
      parsed.snapshot.node_count * parsed.snapshot.meta.node_fields.length,
    );
    expect(parsed.strings).toContain('HeapMarkerForTest');
  });

  it('refuses a path outside the allowed roots', async () => {
    const opened = await call(fx.client, 'new_page', {
      url: fx.server.url('/index.html?heap-denied'),
    });
    const pageId = pageIdFrom(opened.text, 'heap-denied');
    const {text, isError} = await call(fx.client, 'take_heapsnapshot', {
      pageId,
      filePath: '/proc/denied.heapsnapshot',
    });
    expect(isError).toBe(true);
    expect(text).toContain('Access denied');
  });
});
