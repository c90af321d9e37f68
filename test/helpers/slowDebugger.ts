/**
 * Conditions of a loaded machine, made on purpose: another debugger on the same page that is slow
 * to let new frames start, an engine thread that is busy for a moment, and a page server that
 * answers while that thread is blocked.
 */
import {Worker} from 'node:worker_threads';
import {CDPSessionEvent, type CDPSession, type Protocol} from 'puppeteer-core';

const AUTO_ATTACH: Protocol.Target.SetAutoAttachRequest = {
  autoAttach: true,
  waitForDebuggerOnStart: true,
  flatten: true,
  filter: [{type: 'iframe'}],
};

/** Blocks this thread (the engine's, in tests) without spinning, as a loaded machine would. */
export function blockThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface SlowDebugger {
  /** Frames nested in a frame that are held at their start. */
  readonly held: readonly CDPSession[];
  /** Lets the held frames (and later ones) start. */
  release(): void;
}

/**
 * Attaches like a second debugger (DevTools, another automation client) on `page`, a cdp
 * of its own: frames nested inside a frame are held at their start until `release`, and when the
 * first frame attaches this thread is kept busy for `busyMs`, so the engine hears of that frame
 * only after it ran.
 */
export async function attachSlowDebugger(page: CDPSession, busyMs: number): Promise<SlowDebugger> {
  const held: CDPSession[] = [];
  let released = false;
  let wasBusy = false;
  const resume = (cdp: CDPSession): void =>
    void cdp.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
  const follow = (parent: CDPSession, depth: number): void => {
    parent.on(CDPSessionEvent.SessionAttached, child => {
      follow(child, depth + 1);
      void child.send('Target.setAutoAttach', AUTO_ATTACH).catch(() => undefined);
      if (depth > 0 && !released) {
        held.push(child);
        return;
      }
      resume(child);
      if (!wasBusy) {
        wasBusy = true;
        blockThread(busyMs);
      }
    });
  };
  follow(page, 0);
  await page.send('Target.setAutoAttach', AUTO_ATTACH);
  return {
    held,
    release() {
      released = true;
      held.splice(0).forEach(resume);
    },
  };
}

export interface ThreadServer {
  port: number;
  stop(): Promise<void>;
}

/** Serves one HTML page on 127.0.0.1 from a worker thread, so it answers while this one is blocked. */
export async function startThreadServer(html: string): Promise<ThreadServer> {
  const worker = new Worker(
    `const http = require('node:http');
     const {parentPort, workerData} = require('node:worker_threads');
     const server = http.createServer((request, response) => {
       response.writeHead(200, {'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store'});
       response.end(workerData);
     });
     server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`,
    {eval: true, workerData: html},
  );
  const port = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (typeof port !== 'number') {
    await worker.terminate();
    throw new Error(`The thread server did not report its port (got ${String(port)}).`);
  }
  return {
    port,
    async stop() {
      await worker.terminate();
    },
  };
}
