/**
 * Reading stored recordings line by line without holding them in memory: the summary the
 * Recordings panel lists (cached next to the file, keyed by the file's length, so each finished
 * recording is scanned once), and the generic line walk search uses.
 */
import {z} from 'zod';
import type {EventEnvelope} from '../../shared/protocol.js';
import {
  parseEventLine,
  recordingHeaderSchema,
  type RecordingHeader,
} from '../../shared/recordingFile.js';
import {
  openStoredRecording,
  readCachedSummary,
  writeCachedSummary,
  type StoredRecording,
} from './recordingFiles.js';
import {boundedLines, type LineWalk} from './lineReader.js';
import {SummaryBuilder, summaryCountsSchema, type SummaryCounts} from './summary.js';

const cachedSummarySchema = z.object({fileBytes: z.number(), counts: summaryCountsSchema});

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * Calls `onEvent` for each event line of a stored recording that passes `wanted` (a cheap text test
 * before parsing); returns the header, or undefined when the file is not a recording. Lines are
 * read with bounded memory (lineReader.ts); those read past are counted in `walk`.
 */
export async function walkRecording(
  recording: Pick<StoredRecording, 'dir' | 'id'>,
  wanted: (line: string) => boolean,
  onEvent: (envelope: EventEnvelope) => boolean | undefined,
  onHeader?: (header: RecordingHeader) => void,
  walk: LineWalk = {overlongLines: 0},
): Promise<RecordingHeader | undefined> {
  const handle = await openStoredRecording(recording.dir, recording.id);
  let header: RecordingHeader | undefined;
  try {
    for await (const line of boundedLines(handle, walk)) {
      if (header === undefined) {
        // The first line is the header: one read past (or not one) means this is no recording.
        const parsed = recordingHeaderSchema.safeParse(
          walk.overlongLines === 0 ? parseJson(line) : undefined,
        );
        if (!parsed.success) {
          return undefined;
        }
        header = parsed.data;
        onHeader?.(header);
        continue;
      }
      if (!wanted(line)) {
        continue;
      }
      // The one event reader: depth-checked, older names read as today's.
      const parsed = parseEventLine(line);
      if ('envelope' in parsed && onEvent(parsed.envelope) === false) {
        break;
      }
    }
  } finally {
    await handle.close();
  }
  return header;
}

const COUNTED_TYPES = ['"toolCallStarted"', '"toolCallEnded"', '"clientConnected"'];

async function scanCounts(recording: StoredRecording): Promise<SummaryCounts | undefined> {
  const scan: {builder?: SummaryBuilder; lastTime: number} = {lastTime: 0};
  const walk: LineWalk = {overlongLines: 0};
  const header = await walkRecording(
    recording,
    line => {
      // Each line starts with its seq and time; the last one read is when the recording ended.
      const time = /"time":(\d+)/.exec(line.slice(0, 60));
      if (time?.[1]) {
        scan.lastTime = Number(time[1]);
      }
      return COUNTED_TYPES.some(type => line.includes(type));
    },
    envelope => {
      scan.builder?.add(envelope);
      return true;
    },
    found => {
      scan.builder = new SummaryBuilder(found.startedAt, found.replayOf);
    },
    walk,
  );
  if (header === undefined || scan.builder === undefined) {
    return undefined;
  }
  const counts = scan.builder.counts();
  return {
    ...counts,
    lastEventAt: Math.max(counts.lastEventAt, scan.lastTime),
    ...(walk.overlongLines > 0 ? {skippedLines: walk.overlongLines} : {}),
  };
}

/** The listed summary of a finished recording: from its cache, else by one scan (then cached). */
export async function storedSummary(
  recording: StoredRecording,
): Promise<SummaryCounts | undefined> {
  const text = readCachedSummary(recording.dir, recording.id);
  if (text !== undefined) {
    const cached = cachedSummarySchema.safeParse(parseJson(text));
    if (cached.success && cached.data.fileBytes === recording.fileBytes) {
      return cached.data.counts;
    }
  }
  // Removed or replaced meanwhile: not listed.
  const counts = await scanCounts(recording).catch(() => undefined);
  if (counts !== undefined) {
    try {
      writeCachedSummary(
        recording.dir,
        recording.id,
        JSON.stringify({fileBytes: recording.fileBytes, counts}),
      );
    } catch {
      // The folder is read-only: scan again next time.
    }
  }
  return counts;
}
