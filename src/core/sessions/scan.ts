/**
 * Reading stored session files line by line without holding them in memory: the summary the
 * Sessions panel lists (cached next to the file, keyed by the file's length, so each finished
 * session is scanned once), and the generic line walk search uses.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import {z} from 'zod';
import {eventEnvelopeSchema, type EventEnvelope} from '../../shared/protocol.js';
import {sessionHeaderSchema, type SessionHeader} from '../../shared/sessionFile.js';
import {summaryPathOf, type StoredSession} from './sessionFiles.js';
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
 * Calls `onEvent` for each event line that passes `wanted` (a cheap text test before parsing);
 * returns the header, or undefined when the file is not a session.
 */
export async function walkSession(
  file: string,
  wanted: (line: string) => boolean,
  onEvent: (envelope: EventEnvelope) => boolean | undefined,
  onHeader?: (header: SessionHeader) => void,
): Promise<SessionHeader | undefined> {
  const stream = fs.createReadStream(file, {encoding: 'utf8'});
  const lines = readline.createInterface({input: stream, crlfDelay: Infinity});
  let header: SessionHeader | undefined;
  try {
    for await (const line of lines) {
      if (header === undefined) {
        const parsed = sessionHeaderSchema.safeParse(parseJson(line));
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
      const envelope = eventEnvelopeSchema.safeParse(parseJson(line));
      if (envelope.success && onEvent(envelope.data) === false) {
        break;
      }
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  return header;
}

const COUNTED_TYPES = ['"toolCallStarted"', '"toolCallEnded"', '"clientConnected"'];

async function scanCounts(file: string): Promise<SummaryCounts | undefined> {
  const scan: {builder?: SummaryBuilder; lastTime: number} = {lastTime: 0};
  const header = await walkSession(
    file,
    line => {
      // Each line starts with its seq and time; the last one read is when the session ended.
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
      scan.builder = new SummaryBuilder(found.startedAt);
    },
  );
  if (header === undefined || scan.builder === undefined) {
    return undefined;
  }
  const counts = scan.builder.counts();
  return {...counts, lastEventAt: Math.max(counts.lastEventAt, scan.lastTime)};
}

/** The listed summary of a finished session: from its cache, else by one scan (then cached). */
export async function storedSummary(session: StoredSession): Promise<SummaryCounts | undefined> {
  const cacheFile = summaryPathOf(session.file);
  try {
    const cached = cachedSummarySchema.safeParse(JSON.parse(fs.readFileSync(cacheFile, 'utf8')));
    if (cached.success && cached.data.fileBytes === session.fileBytes) {
      return cached.data.counts;
    }
  } catch {
    // No cache yet, or unreadable: scan.
  }
  const counts = await scanCounts(session.file);
  if (counts !== undefined) {
    try {
      fs.writeFileSync(cacheFile, JSON.stringify({fileBytes: session.fileBytes, counts}), {
        mode: 0o600,
      });
    } catch {
      // The folder is read-only: scan again next time.
    }
  }
  return counts;
}
