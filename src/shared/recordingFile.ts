/**
 * The recorded-session file: JSON Lines, one header line, then one inspector event envelope per
 * line (the same envelopes a UI receives). Written by the engine's recorder, read by the Sessions
 * panel, `replay` and `export`. Reading is tolerant: a torn or unknown line (a crash mid-write, a
 * newer app's event) is counted and skipped, never fatal. A line no recorder writes (nested past
 * the depth bound) is skipped too and named, so `replay` and `export` can refuse the file.
 */
import {z} from 'zod';
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from './boundedValue.js';
import {eventEnvelopeSchema, type EventEnvelope} from './protocol.js';

export const RECORDING_FORMAT = 'mcp-browser-inspector-session';
export const RECORDING_FORMAT_VERSION = 1;
/** Extension of session files; images sit in a sibling folder `<name>.images/`. */
export const RECORDING_FILE_EXTENSION = '.jsonl';

/** The latest time a Date can hold. */
const MAX_EPOCH_MS = 8.64e15;
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
});
export type RecordingHeader = z.infer<typeof recordingHeaderSchema>;

export interface ParsedRecording {
  header: RecordingHeader;
  events: EventEnvelope[];
  /** Lines that did not parse (a torn last line after a crash, or events this version lacks). */
  skippedLines: number;
  /** The first skipped line no recorder writes (1-based line number and why), if any. */
  malformed?: {line: number; reason: string};
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

/** Parses a whole session file's text; throws RecordingFileError only when the header is unusable. */
export function parseRecordingText(text: string): ParsedRecording {
  const lines = text.split('\n');
  const first = lines.findIndex(line => line.trim() !== '');
  if (first < 0) {
    throw new RecordingFileError('The session file is empty.');
  }
  const header = recordingHeaderSchema.safeParse(parseLine(lines[first] ?? ''));
  if (!header.success) {
    throw new RecordingFileError(
      `Not a ${RECORDING_FORMAT} file: its first line is not a session header${headerProblem(header.error)}.`,
    );
  }
  if (header.data.formatVersion > RECORDING_FORMAT_VERSION) {
    throw new RecordingFileError(
      `The session file has format version ${header.data.formatVersion}; this app reads up to ${RECORDING_FORMAT_VERSION}. Update the app to open it.`,
    );
  }
  return {header: header.data, ...parseEventLines(lines.slice(first + 1), first + 2)};
}

/** Which header field is wrong, when the line is a header at all. */
function headerProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined || issue.path.length === 0
    ? ''
    : ` (${issue.path.join('.')}: ${issue.message})`;
}

/**
 * Parses event lines only: a later chunk of a session file read piece by piece (the Sessions
 * panel shows the first rows of a large session before the rest has arrived).
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
  const envelope = eventEnvelopeSchema.safeParse(json);
  return envelope.success ? {envelope: envelope.data} : {skipped: true};
}

function parseEventLines(
  lines: readonly string[],
  firstLineNumber: number,
): Omit<ParsedRecording, 'header'> {
  const events: EventEnvelope[] = [];
  let skippedLines = 0;
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
    if (parsed.malformed !== undefined) {
      malformed ??= {line: firstLineNumber + index, reason: parsed.malformed};
    }
  });
  return {events, skippedLines, ...(malformed ? {malformed} : {})};
}

/** One line of a session file (header or event), with its newline. */
export function recordingLine(value: RecordingHeader | EventEnvelope): string {
  return `${JSON.stringify(value)}\n`;
}
