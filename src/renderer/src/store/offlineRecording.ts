/**
 * A recording in the UI: its events into the read-only log the Log panel shows (a second CallLog:
 * one set of components, two sources), and the Log's own export, written in the same one format
 * (src/shared/recordingFile.ts). A file from elsewhere is read by the UI itself (no path ever goes
 * to the engine); every line is validated on the way. Loaded on first use, not at start: the
 * reader carries its zod checks.
 */
import '../zodSetup.js';
import type {EventEnvelope} from '../../../shared/protocol.js';
import {
  MAX_EPOCH_MS,
  parseRecordingText,
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  recordingFileName,
  recordingText,
  type ParsedRecording,
} from '../../../shared/recordingFile.js';
import {CallLog} from './CallLog.js';
import type {OfflineRecording} from './InspectorStore.js';
import type {TelemetryEntry} from './telemetryEntry.js';
import {addRecordedEvent} from './recordedEvents.js';

export {RecordingFileError} from '../../../shared/recordingFile.js';

/** A recording's log and telemetry, built as its events arrive (at once, or chunk by chunk). */
export class RecordingBuilder {
  readonly log = new CallLog(Number.MAX_SAFE_INTEGER);
  readonly telemetry: TelemetryEntry[] = [];
  skipped = 0;

  add(events: readonly EventEnvelope[], skipped: number): void {
    this.skipped += skipped;
    for (const envelope of events) {
      addRecordedEvent(this.log, this.telemetry, envelope);
    }
  }
}

export interface OpenedRecording {
  offline: OfflineRecording;
  /** Lines that were not inspector events: how many, and the first ones' numbers. */
  skipped: number;
  skippedAt: readonly number[];
}

/** A whole recording's text (a file dropped or picked), as an offline log named `fileName`. */
export function openRecordingText(fileName: string, text: string): OpenedRecording {
  const parsed: ParsedRecording = parseRecordingText(text);
  const builder = new RecordingBuilder();
  builder.add(parsed.events, parsed.skippedLines);
  const {header} = parsed;
  return {
    offline: {
      fileName,
      log: builder.log,
      telemetry: builder.telemetry,
      ...(header.exportedAt === undefined ? {} : {exportedAt: header.exportedAt}),
      ...(header.appVersion === 'unknown' ? {} : {serverVersion: header.appVersion}),
    },
    skipped: builder.skipped,
    skippedAt: parsed.skippedAt,
  };
}

/** The Log panel's export: its events as a recording, and the file name to save it under. */
export function logExport(
  events: readonly EventEnvelope[],
  meta: {exportedAt: Date; serverVersion?: string | undefined},
): {fileName: string; text: string} {
  const exportedAt = meta.exportedAt.getTime();
  const firstTime = events[0]?.time ?? exportedAt;
  const text = recordingText(
    {
      format: RECORDING_FORMAT,
      formatVersion: RECORDING_FORMAT_VERSION,
      appVersion: meta.serverVersion ?? 'unknown',
      startedAt: Math.min(MAX_EPOCH_MS, Math.max(0, Math.trunc(firstTime))),
      // The UI does not know the server's flags; the header says so by listing none.
      flags: {},
      exportedAt,
    },
    events,
  );
  return {fileName: recordingFileName(exportedAt, 'log'), text};
}
