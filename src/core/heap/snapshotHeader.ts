/**
 * What a heap snapshot's header may claim. DevTools' loader sizes its typed arrays from the header
 * (node_count × node fields, edge_count × edge fields, trace_function_count × its fields) before
 * reading a single value, and those arrays live outside the worker's heap cap: a 1 KB file that
 * claims 20,000,000 nodes would take gigabytes. Every value in those arrays is written in the file
 * as at least one digit and a separator, so a file of N bytes holds at most (N + 1) / 2 of them; a
 * header that claims more is refused before the loader sees it.
 *
 * Plain code (no zod): the worker imports it. The products are computed as the loader computes them
 * (JavaScript's `*` on whatever the JSON holds), so what is checked is what would be allocated.
 */
import {isRecord} from '../../shared/values.js';

/** The tables whose size the loader takes from the header: [count field, fields list in meta]. */
const CLAIMED_TABLES = [
  ['node_count', 'node_fields', 'nodes'],
  ['edge_count', 'edge_fields', 'edges'],
  ['trace_function_count', 'trace_function_info_fields', 'trace function infos'],
] as const;

/** The most numeric values a file of `fileBytes` bytes can hold ("0,0,…,0"). */
export function maxValuesInFile(fileBytes: number): number {
  return Math.floor((Math.max(0, fileBytes) + 1) / 2);
}

function lengthOf(value: unknown): unknown {
  if (typeof value === 'string' || Array.isArray(value)) {
    return value.length;
  }
  return isRecord(value) ? value.length : undefined;
}

/** The loader's `meta[fields].length * header[count]`, or 0 when it would not allocate. */
function claimedValues(header: Record<string, unknown>, count: string, fields: string): number {
  const meta = isRecord(header.meta) ? header.meta : {};
  const claimed = header[count];
  // The loader reads trace infos only when the count is truthy; nodes and edges always.
  if (count === 'trace_function_count' && !claimed) {
    return 0;
  }
  return Number(lengthOf(meta[fields])) * Number(claimed);
}

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/**
 * Why the loader must not build from this header (`header` is the parsed object after
 * "snapshot":), or undefined when every table it claims fits in the file.
 */
export function snapshotHeaderProblem(header: unknown, fileBytes: number): string | undefined {
  if (!isRecord(header)) {
    return 'its "snapshot" header is not an object.';
  }
  const room = maxValuesInFile(fileBytes);
  let total = 0;
  for (const [count, fields, title] of CLAIMED_TABLES) {
    const claimed = claimedValues(header, count, fields);
    if (Number.isNaN(claimed)) {
      continue;
    }
    if (!Number.isSafeInteger(claimed) || claimed < 0) {
      return `its header claims an impossible number of ${title} (${String(header[count])}).`;
    }
    total += claimed;
    if (total > room) {
      return `its header claims ${formatCount(claimed)} values for ${title} (${count} ${String(header[count])}), more than a file of ${formatCount(fileBytes)} bytes can hold (at most ${formatCount(room)} values in all). The file is damaged or not a heap snapshot: take a new one with take_heapsnapshot.`;
    }
  }
  return undefined;
}
