/**
 * Tool family: memory — take_heapsnapshot. The analysis tools behind chrome-devtools-mcp's
 * --memoryDebugging need DevTools' heap-snapshot worker and are not offered here.
 */
import type fs from 'node:fs';
import {z} from 'zod';
import type {PageState} from '../browser/pages/PageState.js';
import {withExtension} from '../files/FileAccess.js';
import {definePageTool} from './base/definition.js';

/**
 * Opens the validated target for writing the way FileAccess.writeFile does (mode 0600, no symlink
 * followed) but as a handle, so hundreds of MB (snapshots, videos) stream to disk, not memory.
 */
/** Streams HeapProfiler.takeHeapSnapshot chunks into the file; returns the bytes written. */
async function captureHeapSnapshot(
  page: PageState,
  handle: fs.promises.FileHandle,
  reportProgress: (status: string) => void,
): Promise<number> {
  const cdp = page.cdp;
  let written = 0;
  // Chunks arrive faster than the disk takes them: chain the writes to keep their order.
  let writing: Promise<void> = Promise.resolve();
  const onChunk = ({chunk}: {chunk: string}): void => {
    writing = writing.then(async () => {
      const {bytesWritten} = await handle.write(chunk);
      const before = written;
      written += bytesWritten;
      // One status per 10 MB written: the heartbeat carries the latest.
      if (Math.floor(written / 10_000_000) > Math.floor(before / 10_000_000)) {
        reportProgress(`Writing the heap snapshot (${Math.round(written / 1_000_000)} MB so far)`);
      }
    });
  };
  await cdp.send('HeapProfiler.enable');
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  let failure: unknown;
  try {
    reportProgress('Collecting garbage before the heap snapshot');
    await cdp.send('HeapProfiler.collectGarbage');
    reportProgress('Taking the heap snapshot');
    await cdp.send('HeapProfiler.takeHeapSnapshot', {reportProgress: false});
  } catch (error) {
    failure = error;
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
    await cdp.send('HeapProfiler.disable').catch(() => undefined);
  }
  // Even after a failure: no queued write may run once the caller closes the file.
  try {
    await writing;
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) {
    throw failure instanceof Error
      ? failure
      : new Error('Taking the heap snapshot failed.', {cause: failure});
  }
  return written;
}

export const takeHeapSnapshot = definePageTool({
  name: 'take_heapsnapshot',
  description:
    'Capture a heap snapshot of the page. Use to analyze the memory distribution of JavaScript objects and debug memory leaks.',
  category: 'memory',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    filePath: z.string().describe('A path to a .heapsnapshot file to save the heapsnapshot to.'),
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {target, handle} = await call.files.openForWriting(
      withExtension(call.params.filePath, '.heapsnapshot'),
    );
    let complete = false;
    try {
      const bytes = await captureHeapSnapshot(call.page, handle, call.reportProgress);
      if (bytes === 0) {
        throw new Error('Chrome returned an empty heap snapshot.');
      }
      complete = true;
    } finally {
      await handle.close();
      if (!complete) {
        // A truncated snapshot would only fail later, in whatever tool loads it.
        await call.files.remove(target).catch(() => undefined);
      }
    }
    response.appendLine(`Heap snapshot saved to ${target}`);
  },
});

export const memoryTools = [takeHeapSnapshot];
