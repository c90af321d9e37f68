/**
 * The recorded-session file: JSON Lines, one header line, then one inspector event envelope per
 * line (the same envelopes a UI receives). Written by the engine's recorder, read by the Sessions
 * panel, `replay` and `export`. Reading is tolerant: a torn or unknown line (a crash mid-write, a
 * newer app's event) is counted and skipped, never fatal.
 */
import {z} from 'zod';
import {eventEnvelopeSchema, type EventEnvelope} from './protocol.js';

export const SESSION_FORMAT = 'mcp-browser-inspector-session';
export const SESSION_FORMAT_VERSION = 1;
/** Extension of session files; images sit in a sibling folder `<name>.images/`. */
export const SESSION_FILE_EXTENSION = '.jsonl';

export const sessionHeaderSchema = z.object({
  format: z.literal(SESSION_FORMAT),
  formatVersion: z.number().int().positive(),
  appVersion: z.string(),
  /** Epoch milliseconds. */
  startedAt: z.number(),
  /** The server's flags, minus secrets (token, headers). */
  flags: z.record(z.string(), z.unknown()),
  browserVersion: z.string().optional(),
});
export type SessionHeader = z.infer<typeof sessionHeaderSchema>;

export interface ParsedSession {
  header: SessionHeader;
  events: EventEnvelope[];
  /** Lines that did not parse (a torn last line after a crash, or events this version lacks). */
  skippedLines: number;
}

export class SessionFileError extends Error {
  override name = 'SessionFileError';
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Parses a whole session file's text; throws SessionFileError only when the header is unusable. */
export function parseSessionText(text: string): ParsedSession {
  const lines = text.split('\n');
  const first = lines.findIndex(line => line.trim() !== '');
  if (first < 0) {
    throw new SessionFileError('The session file is empty.');
  }
  const header = sessionHeaderSchema.safeParse(parseLine(lines[first] ?? ''));
  if (!header.success) {
    throw new SessionFileError(
      `Not a ${SESSION_FORMAT} file: its first line is not a session header.`,
    );
  }
  if (header.data.formatVersion > SESSION_FORMAT_VERSION) {
    throw new SessionFileError(
      `The session file has format version ${header.data.formatVersion}; this app reads up to ${SESSION_FORMAT_VERSION}. Update the app to open it.`,
    );
  }
  return {header: header.data, ...parseEventLines(lines.slice(first + 1))};
}

/**
 * Parses event lines only: a later chunk of a session file read piece by piece (the Sessions
 * panel shows the first rows of a large session before the rest has arrived).
 */
export function parseSessionLines(text: string): Omit<ParsedSession, 'header'> {
  return parseEventLines(text.split('\n'));
}

function parseEventLines(lines: readonly string[]): Omit<ParsedSession, 'header'> {
  const events: EventEnvelope[] = [];
  let skippedLines = 0;
  for (const line of lines) {
    if (line.trim() === '') {
      continue;
    }
    const envelope = eventEnvelopeSchema.safeParse(parseLine(line));
    if (envelope.success) {
      events.push(envelope.data);
    } else {
      skippedLines++;
    }
  }
  return {events, skippedLines};
}

/** One line of a session file (header or event), with its newline. */
export function sessionLine(value: SessionHeader | EventEnvelope): string {
  return `${JSON.stringify(value)}\n`;
}
