/**
 * The small pure parts of the heap analysis: byte sizes and ranges, DevTools' kB formatting and
 * name shortening, and finding the worker file from the bundle, the sources and a packaged app.
 *
 * Tests: src/core/heap/bytes.ts, src/core/heap/format.ts, src/core/heap/HeapSnapshotStore.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {parseByteSize, parseByteSizeRange} from '../../../src/core/heap/bytes.js';
import {formatBytesToKb, formatName} from '../../../src/core/heap/format.js';
import {findWorkerFile} from '../../../src/core/heap/HeapSnapshotStore.js';

describe('byte sizes', () => {
  it('parses sizes with decimal and binary units', () => {
    expect(parseByteSize('1024')).toBe(1024);
    expect(parseByteSize('1.5KB')).toBe(1500);
    expect(parseByteSize('2 KiB')).toBe(2048);
    expect(parseByteSize('1M')).toBe(1_000_000);
    expect(parseByteSize('1gib')).toBe(1024 ** 3);
    expect(() => parseByteSize('1XB')).toThrow('Unknown unit "XB"');
    expect(() => parseByteSize('big')).toThrow('Invalid byte size format');
  });

  it('parses open and closed ranges; one value is a minimum', () => {
    expect(parseByteSizeRange('1MB')).toEqual({min: 1_000_000, max: undefined});
    expect(parseByteSizeRange('1MB-2MB')).toEqual({min: 1_000_000, max: 2_000_000});
    expect(parseByteSizeRange('-1MB')).toEqual({min: 0, max: 1_000_000});
    expect(parseByteSizeRange('1MB-')).toEqual({min: 1_000_000, max: undefined});
    expect(() => parseByteSizeRange('-')).toThrow('At least one bound is required.');
    expect(() => parseByteSizeRange('2MB-1MB')).toThrow('must not exceed');
  });
});

describe('formatting', () => {
  it('prints kilobytes as DevTools does', () => {
    expect(formatBytesToKb(0)).toBe('0.0kB');
    expect(formatBytesToKb(1234)).toBe('1.2kB');
    expect(formatBytesToKb(99_940)).toBe('99.9kB');
    expect(formatBytesToKb(123_456)).toBe('123kB');
    expect(formatBytesToKb(1_292_627)).toBe('1,293kB');
  });

  it('keeps names on one line and shortens them', () => {
    expect(formatName('a\nb\rc', {})).toBe('a\\nb\\rc');
    expect(formatName('x'.repeat(120), {})).toBe(`${'x'.repeat(100)}...`);
    expect(formatName('abcdef', {maxNameLength: 3})).toBe('abc...');
  });
});

describe('findWorkerFile', () => {
  it('finds out/heap from the sources, the CLI bundle and an unpacked asar', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-worker-find-'));
    try {
      const worker = path.join(root, 'out', 'heap', 'heapSnapshotWorker.js');
      fs.mkdirSync(path.dirname(worker), {recursive: true});
      fs.writeFileSync(worker, '');
      fs.mkdirSync(path.join(root, 'src', 'core', 'heap'), {recursive: true});
      fs.mkdirSync(path.join(root, 'out', 'node', 'cli'), {recursive: true});
      expect(findWorkerFile(path.join(root, 'src', 'core', 'heap'))).toBe(worker);
      expect(findWorkerFile(path.join(root, 'out', 'node', 'cli'))).toBe(worker);

      const unpacked = path.join(root, 'app.asar.unpacked', 'out', 'heap', 'heapSnapshotWorker.js');
      fs.mkdirSync(path.dirname(unpacked), {recursive: true});
      fs.writeFileSync(unpacked, '');
      expect(findWorkerFile(path.join(root, 'app.asar', 'out', 'main'))).toBe(unpacked);
    } finally {
      fs.rmSync(root, {recursive: true, force: true});
    }
  });
});
