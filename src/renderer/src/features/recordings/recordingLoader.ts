/**
 * Turns a recorded session's events into the read-only log the Log panel shows (a second CallLog:
 * one set of components, two sources). A session on the server is read in chunks, so the first
 * rows show while the rest arrives; a file from elsewhere is read by the UI itself and parsed with
 * the same tolerant reader (no path ever goes to the engine). Every line is validated on the way.
 */
import '../../zodSetup.js';
import type {EventEnvelope} from '../../../../shared/protocol.js';
import {
  RECORDING_FORMAT,
  parseRecordingLines,
  parseRecordingText,
} from '../../../../shared/recordingFile.js';
import type {InspectorServices, Request} from '../../app/InspectorContext.js';
import {CallLog} from '../../store/CallLog.js';
import {addRecordedEvent} from '../../store/recordedEvents.js';
import type {OfflineRecording, TelemetryEntry} from '../../store/InspectorStore.js';

/** The first chunk is small so the first rows show at once; later ones are larger. */
const FIRST_CHUNK_BYTES = 512 * 1024;
const NEXT_CHUNK_BYTES = 512 * 1024;

class RecordingBuilder {
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

/** Text parsed between two yields to the browser, so scrolling stays smooth while a file loads. */
const SLICE_CHARS = 64 * 1024;

/** Parses a chunk in slices (cut at line ends), yielding between them. */
async function addInSlices(builder: RecordingBuilder, text: string): Promise<void> {
  for (let start = 0; start < text.length;) {
    const cut = text.indexOf('\n', Math.min(text.length, start + SLICE_CHARS));
    const end = cut < 0 ? text.length : cut + 1;
    const parsed = parseRecordingLines(text.slice(start, end));
    builder.add(parsed.events, parsed.skippedLines);
    start = end;
    await new Promise(resolve => setTimeout(resolve, 0));
  }
}

export interface OpenResult {
  calls: number;
  skipped: number;
}

/**
 * Opens session `id` from the server in the Log panel (selecting `callId` if given) and keeps
 * reading until the whole file is in, unless the user closes it meanwhile.
 */
export async function openServerRecording(
  services: InspectorServices,
  request: Request,
  id: string,
  callId?: string,
): Promise<OpenResult> {
  const {store, ui} = services;
  const builder = new RecordingBuilder();
  const loadImage = async (file: string): Promise<{mimeType: string; data: string} | undefined> => {
    const reply = await request({type: 'recordingImage', id, file});
    return reply.ok ? reply.value : undefined;
  };
  let offset = 0;
  let appVersion: string | undefined;
  for (let first = true; ; first = false) {
    const reply = await request({
      type: 'recordingRead',
      id,
      offset,
      maxBytes: first ? FIRST_CHUNK_BYTES : NEXT_CHUNK_BYTES,
    });
    if (!reply.ok) {
      throw new Error(reply.error);
    }
    const {text, nextOffset, done} = reply.value;
    if (first) {
      const parsed = parseRecordingText(text);
      appVersion = parsed.header.appVersion;
      builder.add(parsed.events, parsed.skippedLines);
    } else {
      if (store.getSnapshot().offline?.log !== builder.log) {
        // Closed (or another session opened) while reading: stop.
        return {calls: builder.log.size, skipped: builder.skipped};
      }
      await addInSlices(builder, text);
    }
    const recording: OfflineRecording = {
      fileName: id,
      log: builder.log,
      telemetry: builder.telemetry.slice(),
      recorded: true,
      recordingId: id,
      loading: !done,
      loadImage,
      ...(appVersion === undefined ? {} : {serverVersion: appVersion}),
    };
    store.openOffline(recording);
    if (first) {
      ui.selectCall(callId);
      ui.openPanel('log');
    }
    offset = nextOffset;
    if (done || nextOffset <= 0) {
      return {calls: builder.log.size, skipped: builder.skipped};
    }
  }
}

/** A session file from elsewhere (drop or picker), read and parsed here. */
export async function openRecordingFile(
  services: InspectorServices,
  file: File,
): Promise<OpenResult> {
  const text = await file.text();
  const newline = text.indexOf('\n');
  const firstLine = newline < 0 ? text : text.slice(0, newline);
  let recording: OfflineRecording;
  let skipped: number;
  if (firstLine.includes(RECORDING_FORMAT)) {
    const parsed = parseRecordingText(text);
    const builder = new RecordingBuilder();
    builder.add(parsed.events, parsed.skippedLines);
    recording = {
      fileName: file.name,
      log: builder.log,
      telemetry: builder.telemetry,
      recorded: true,
      serverVersion: parsed.header.appVersion,
    };
    skipped = builder.skipped;
  } else {
    // A log exported by hand from the Log panel (its older format).
    const {parseSession} = await import('../log/sessionFile.js');
    const parsed = parseSession(file.name, text);
    recording = {...parsed.recording, recorded: true};
    skipped = parsed.skipped;
  }
  services.store.openOffline(recording);
  services.ui.selectCall(undefined);
  services.ui.openPanel('log');
  return {calls: recording.log.size, skipped};
}
