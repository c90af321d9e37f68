/**
 * Batches what the server writes to the browser's DevTools pipe. puppeteer writes each CDP
 * message and then its terminating NUL as two writes, each a system call that wakes the browser's
 * pipe reader: with many agents, thousands of wake-ups a second on a busy machine. Corked until
 * the end of the current tick, everything written in that tick leaves as one write.
 */
import type {ChildProcess} from 'node:child_process';
import {Writable} from 'node:stream';

export function batchPipeWrites(browserProcess: ChildProcess | null): void {
  // The launched browser's DevTools pipe: fd 3 carries the server's messages to it.
  const pipe = browserProcess?.stdio[3];
  if (!(pipe instanceof Writable)) {
    return;
  }
  const write = pipe.write.bind(pipe);
  type Done = (error: Error | null | undefined) => void;
  const corkedWrite = (
    chunk: string | Uint8Array,
    encodingOrDone?: BufferEncoding | Done,
    done?: Done,
  ): boolean => {
    if (pipe.writableCorked === 0) {
      pipe.cork();
      process.nextTick(() => pipe.uncork());
    }
    return typeof encodingOrDone === 'string'
      ? write(chunk, encodingOrDone, done)
      : write(chunk, encodingOrDone);
  };
  pipe.write = corkedWrite;
}
