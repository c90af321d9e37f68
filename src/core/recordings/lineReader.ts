/**
 * The lines of a stored recording, streamed with bounded memory. A recording is a file anyone with
 * access to the folder may have planted: a line that never ends must not be held (readline keeps a
 * line whole, 1 GB of it blocked the server for seconds and added 1.8 GB of memory). A line longer
 * than the bound is read past, not kept, and counted; every read awaits the disk, so other requests
 * are served in between.
 */
import type fs from 'node:fs';

/** The longest line read (a recorder's lines are far shorter: the hub bounds every event). */
export const MAX_RECORDING_LINE_BYTES = 16 * 1024 * 1024;
/** Bytes read from the disk at a time. */
const READ_BYTES = 1024 * 1024;

export interface LineWalk {
  /** Lines read past because they were longer than the bound. */
  overlongLines: number;
}

/**
 * Yields each line (without its LF) of the open file from its start; a last line without an LF
 * too. Lines over `maxLineBytes` are skipped and counted in `walk`.
 */
export async function* boundedLines(
  handle: fs.promises.FileHandle,
  walk: LineWalk,
  maxLineBytes = MAX_RECORDING_LINE_BYTES,
): AsyncGenerator<string> {
  const buffer = Buffer.alloc(READ_BYTES);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  for (let position = 0; ;) {
    const {bytesRead} = await handle.read(buffer, 0, READ_BYTES, position);
    if (bytesRead === 0) {
      break;
    }
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    let start = 0;
    for (let end = chunk.indexOf(0x0a, start); end !== -1;) {
      if (skipping) {
        walk.overlongLines++;
      } else if (pendingBytes + end - start <= maxLineBytes) {
        const piece = chunk.subarray(start, end);
        yield (pending.length === 0 ? piece : Buffer.concat([...pending, piece])).toString('utf8');
      } else {
        walk.overlongLines++;
      }
      pending = [];
      pendingBytes = 0;
      skipping = false;
      start = end + 1;
      end = chunk.indexOf(0x0a, start);
    }
    if (skipping || start >= bytesRead) {
      continue;
    }
    pendingBytes += bytesRead - start;
    if (pendingBytes > maxLineBytes) {
      // Longer than any line is kept: read on to its end without holding it.
      skipping = true;
      pending = [];
      pendingBytes = 0;
    } else {
      pending.push(Buffer.from(chunk.subarray(start)));
    }
  }
  if (skipping) {
    walk.overlongLines++;
  } else if (pendingBytes > 0) {
    yield Buffer.concat(pending).toString('utf8');
  }
}
