/**
 * Session files: the calls (and telemetry records) of a session as JSON Lines, one inspector event
 * envelope per line after a header line. Exported from the live log, opened later to browse
 * offline. Every line read back is validated like a live event: the file may come from anywhere.
 */
import {z} from 'zod';
import '../../zodSetup.js';
import {eventEnvelopeSchema, type EventEnvelope} from '../../../../shared/protocol.js';
import {CallLog} from '../../store/CallLog.js';
import {addRecordedEvent} from '../../store/recordedEvents.js';
import type {OfflineRecording, TelemetryEntry} from '../../store/InspectorStore.js';

const RECORDING_FORMAT = 'mcp-browser-inspector.session';
const RECORDING_FORMAT_VERSION = 1;

const headerSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.number().int(),
  exportedAt: z.string().optional(),
  serverVersion: z.string().optional(),
});

export function recordingFileName(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[:T]/g, '-');
  return `mcp-browser-inspector-session-${stamp}.jsonl`;
}

export function serializeSession(
  events: readonly EventEnvelope[],
  meta: {exportedAt: Date; serverVersion?: string | undefined},
): string {
  const header = {
    format: RECORDING_FORMAT,
    version: RECORDING_FORMAT_VERSION,
    exportedAt: meta.exportedAt.toISOString(),
    ...(meta.serverVersion === undefined ? {} : {serverVersion: meta.serverVersion}),
  };
  const lines = [JSON.stringify(header)];
  for (const envelope of events) {
    lines.push(JSON.stringify(envelope));
  }
  return `${lines.join('\n')}\n`;
}

export interface ParsedRecording {
  recording: OfflineRecording;
  /** Lines that were not inspector events (1-based line numbers, at most 20 listed). */
  skippedLines: number[];
  skipped: number;
}

export class RecordingFileError extends Error {}

export function parseSession(fileName: string, text: string): ParsedRecording {
  const lines = text.split(/\r?\n/);
  const log = new CallLog(Number.MAX_SAFE_INTEGER);
  const telemetry: TelemetryEntry[] = [];
  const skippedLines: number[] = [];
  let skipped = 0;
  let header: z.infer<typeof headerSchema> | undefined;
  let events = 0;
  lines.forEach((line, index) => {
    if (line.trim() === '') {
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      json = undefined;
    }
    if (index === 0) {
      const parsedHeader = headerSchema.safeParse(json);
      if (parsedHeader.success) {
        header = parsedHeader.data;
        return;
      }
    }
    const parsed = eventEnvelopeSchema.safeParse(json);
    if (!parsed.success) {
      skipped++;
      if (skippedLines.length < 20) {
        skippedLines.push(index + 1);
      }
      return;
    }
    events++;
    addRecordedEvent(log, telemetry, parsed.data);
  });
  if (events === 0) {
    throw new RecordingFileError(
      `${fileName} holds no inspector events. Open a .jsonl file saved with "Export" in the Log panel.`,
    );
  }
  return {
    recording: {
      fileName,
      log,
      telemetry,
      ...(header?.exportedAt === undefined ? {} : {exportedAt: header.exportedAt}),
      ...(header?.serverVersion === undefined ? {} : {serverVersion: header.serverVersion}),
    },
    skippedLines,
    skipped,
  };
}
