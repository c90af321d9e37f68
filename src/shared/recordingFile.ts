/**
 * The one recording file format: JSON Lines, one header line, then one inspector event envelope
 * per line (the same envelopes a UI receives). Written by the engine's recorder and by the Log
 * panel's Export, read by the Recordings panel, the Log panel's Open, `replay` and `export`.
 * Reading is tolerant: a torn or unknown line (a crash mid-write, a newer app's event) is counted
 * and skipped, never fatal. A line no recorder writes (nested past the depth bound) is skipped too
 * and named, so `replay` and `export` can refuse the file.
 *
 * Older files still open: the Log's former export format (`mcp-browser-inspector.session`, its own
 * header or none) gets a recording header, and events written under older names are read under
 * today's (legacyRecording.ts).
 */
import {z} from 'zod';
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from './boundedValue.js';
import {legacyHeader, upgradeLegacyEvent} from './legacyRecording.js';
import {eventEnvelopeSchema, type EventEnvelope} from './protocol.js';

export const RECORDING_FORMAT = 'mcp-browser-inspector-session';
export const RECORDING_FORMAT_VERSION = 1;
/** Extension of recording files; images sit in a sibling folder `<name>.images/`. */
export const RECORDING_FILE_EXTENSION = '.jsonl';

/** The latest time a Date can hold. */
export const MAX_EPOCH_MS = 8.64e15;
/** How many skipped line numbers a parse lists (it counts them all). */
const LISTED_SKIPPED_LINES = 20;
/**
 * Nesting a recorded line may have: the recorder cuts values at VALUE_DEPTH_LIMIT inside events a
 * few levels deep; files of older versions had no bound, so twice that is still read.
 */
export const RECORDED_LINE_DEPTH_LIMIT = 2 * VALUE_DEPTH_LIMIT;

export const recordingHeaderSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  formatVersion: z.number().int().positive(),
  appVersion: z.string(),
  /** Epoch milliseconds (within what a Date can hold). */
  startedAt: z.number().int().min(0).max(MAX_EPOCH_MS),
  /** The server's flags, minus secrets (token, headers). */
  flags: z.record(z.string(), z.unknown()),
  browserVersion: z.string().optional(),
  /** Set by the Log panel's Export (epoch ms): a log saved from the UI, not a server's own run. */
  exportedAt: z.number().int().min(0).max(MAX_EPOCH_MS).optional(),
  /** A replay's own run: the file name of the recording it replayed. */
  replayOf: z.string().max(300).optional(),
});
export type RecordingHeader = z.infer<typeof recordingHeaderSchema>;

export interface ParsedRecording {
  header: RecordingHeader;
  events: EventEnvelope[];
  /** Lines that did not parse (a torn last line after a crash, or events this version lacks). */
  skippedLines: number;
  /** The first skipped lines' numbers (1-based, at most 20 listed). */
  skippedAt: number[];
  /** The first skipped line no recorder writes (1-based line number and why), if any. */
  malformed?: {line: number; reason: string};
  /** The file was in the Log's former export format (read with a header made from its own). */
  legacyLogExport?: true;
}

export class RecordingFileError extends Error {
  override name = 'RecordingFileError';
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * `session-2026-12-01T11-20-33-123Z-4242.jsonl`: sorts by start time, with the prefix of the files
 * already in recordings folders (retention keeps the newest by name). `tag`: the recorder's pid,
 * or `log` for a file the Log panel exported.
 */
export function recordingFileName(startedAt: number, tag: string | number): string {
  const stamp = new Date(startedAt).toISOString().replace(/[:.]/g, '-');
  return `session-${stamp}-${tag}${RECORDING_FILE_EXTENSION}`;
}

/**
 * Parses a whole recording's text; throws RecordingFileError only when the first line is neither a
 * header (of this format or the Log's former export format) nor, for a former export saved
 * without a header, an event.
 */
export function parseRecordingText(text: string): ParsedRecording {
  const lines = text.split('\n');
  const first = lines.findIndex(line => line.trim() !== '');
  if (first < 0) {
    throw new RecordingFileError('The recording file is empty.');
  }
  const json = parseLine(lines[first] ?? '');
  const header = recordingHeaderSchema.safeParse(json);
  if (header.success) {
    if (header.data.formatVersion > RECORDING_FORMAT_VERSION) {
      throw new RecordingFileError(
        `The recording has format version ${header.data.formatVersion}; this app reads up to ${RECORDING_FORMAT_VERSION}. Update the app to open it.`,
      );
    }
    return {header: header.data, ...parseEventLines(lines.slice(first + 1), first + 2)};
  }
  // The Log's former export: its own header line, or none (it starts with its first event).
  const legacyLine = legacyHeader(json);
  const legacy = legacyLine ?? ('envelope' in parseEventLine(lines[first] ?? '') ? {} : undefined);
  if (legacy !== undefined) {
    const from = legacyLine === undefined ? first : first + 1;
    const events = parseEventLines(lines.slice(from), from + 1);
    const startedAt = events.events[0]?.time ?? legacy.exportedAt ?? 0;
    return {
      header: {
        format: RECORDING_FORMAT,
        formatVersion: RECORDING_FORMAT_VERSION,
        appVersion: legacy.serverVersion ?? 'unknown',
        startedAt: Math.min(MAX_EPOCH_MS, Math.max(0, Math.trunc(startedAt))),
        flags: {},
        ...(legacy.exportedAt === undefined ? {} : {exportedAt: legacy.exportedAt}),
      },
      ...events,
      legacyLogExport: true,
    };
  }
  throw new RecordingFileError(
    `Not a ${RECORDING_FORMAT} file: its first line is not a recording header${headerProblem(header.error)}. Open a .jsonl file the server recorded or the Log panel exported.`,
  );
}

/** Which header field is wrong, when the line is a header at all. */
function headerProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined || issue.path.length === 0
    ? ''
    : ` (${issue.path.join('.')}: ${issue.message})`;
}

/**
 * Parses event lines only: a later chunk of a recording read piece by piece (the Recordings panel
 * shows the first rows of a large recording before the rest has arrived).
 */
export function parseRecordingLines(text: string): Omit<ParsedRecording, 'header'> {
  return parseEventLines(text.split('\n'), 1);
}

/** One event line: its envelope, or why it was skipped (`malformed` when no recorder wrote it). */
export function parseEventLine(
  line: string,
): {envelope: EventEnvelope} | {skipped: true; malformed?: string} {
  const json = parseLine(line);
  if (json === undefined) {
    return {skipped: true};
  }
  // Before the schema walks it: zod, and whoever reads the events next, must not meet a deeper one.
  if (nestsDeeperThan(json, RECORDED_LINE_DEPTH_LIMIT)) {
    return {skipped: true, malformed: `nests deeper than ${RECORDED_LINE_DEPTH_LIMIT} levels`};
  }
  const envelope = eventEnvelopeSchema.safeParse(upgradeLegacyEvent(json));
  return envelope.success ? {envelope: envelope.data} : {skipped: true};
}

function parseEventLines(
  lines: readonly string[],
  firstLineNumber: number,
): Omit<ParsedRecording, 'header'> {
  const events: EventEnvelope[] = [];
  let skippedLines = 0;
  const skippedAt: number[] = [];
  let malformed: ParsedRecording['malformed'];
  lines.forEach((line, index) => {
    if (line.trim() === '') {
      return;
    }
    const parsed = parseEventLine(line);
    if ('envelope' in parsed) {
      events.push(parsed.envelope);
      return;
    }
    skippedLines++;
    if (skippedAt.length < LISTED_SKIPPED_LINES) {
      skippedAt.push(firstLineNumber + index);
    }
    if (parsed.malformed !== undefined) {
      malformed ??= {line: firstLineNumber + index, reason: parsed.malformed};
    }
  });
  return {events, skippedLines, skippedAt, ...(malformed ? {malformed} : {})};
}

/** One line of a recording (header or event), with its newline. */
export function recordingLine(value: RecordingHeader | EventEnvelope): string {
  return `${JSON.stringify(value)}\n`;
}

/** A whole recording's text: the header line, then one line per event. */
export function recordingText(header: RecordingHeader, events: readonly EventEnvelope[]): string {
  return [header, ...events].map(recordingLine).join('');
}
