/**
 * The DevTools pipe's writes are batched per tick: what is written in one tick reaches the other
 * end whole and in order, in one write, and writes in later ticks still go out.
 *
 * Tests: src/core/browser/launch/pipeWrites.ts
 */
import {spawn} from 'node:child_process';
import {Writable} from 'node:stream';
import {describe, expect, it} from 'vitest';
import {batchPipeWrites} from '../../../src/core/browser/launch/pipeWrites.js';
import {scaled} from '../../helpers/loadFactor.js';

/** A child that copies what arrives on its fd 3 to its stdout (a stand-in for the browser). */
function pipeEcho() {
  const child = spawn(
    process.execPath,
    ['-e', "require('fs').createReadStream(null, {fd: 3}).pipe(process.stdout)"],
    {stdio: ['ignore', 'pipe', 'inherit', 'pipe']},
  );
  let received = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (received += chunk));
  return {child, received: () => received};
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + scaled(10_000);
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('timed out');
    }
    await new Promise(resolve => setTimeout(resolve, 10));
  }
}

describe('batchPipeWrites', () => {
  it('sends what one tick writes as one write, whole and in order', async () => {
    const {child, received} = pipeEcho();
    const pipe = child.stdio[3];
    if (!(pipe instanceof Writable)) {
      throw new Error('no fd 3 pipe');
    }
    // Count what reaches the socket below the stream buffer (one call per system write).
    const writes: number[] = [];
    const writev = pipe._writev?.bind(pipe);
    const writeOne = pipe._write.bind(pipe);
    pipe._writev = (chunks, callback) => {
      writes.push(chunks.length);
      writev?.(chunks, callback);
    };
    pipe._write = (chunk, encoding, callback) => {
      writes.push(1);
      writeOne(chunk, encoding, callback);
    };
    batchPipeWrites(child);
    for (const message of ['{"id":1}', '{"id":2}', '{"id":3}']) {
      pipe.write(message);
      pipe.write('\0');
    }
    expect(writes).toEqual([]);
    await until(() => received().length >= 27);
    expect(received()).toBe('{"id":1}\0{"id":2}\0{"id":3}\0');
    expect(writes).toEqual([6]);
    // A later tick is written too (the pipe is not left corked).
    pipe.write('{"id":4}');
    pipe.write('\0', 'utf8');
    await until(() => received().length >= 36);
    expect(received()).toBe('{"id":1}\0{"id":2}\0{"id":3}\0{"id":4}\0');
    expect(writes).toEqual([6, 2]);
    child.kill();
  });

  it('leaves a process without a DevTools pipe alone', () => {
    const child = spawn(process.execPath, ['-e', ''], {stdio: 'ignore'});
    expect(() => batchPipeWrites(child)).not.toThrow();
    expect(() => batchPipeWrites(null)).not.toThrow();
    child.kill();
  });
});
