/**
 * Opens a recording in the Log panel, read-only: one on the server is read in chunks, so the first
 * rows show while the rest arrives; a file from elsewhere is read by the UI itself
 * (store/offlineRecording.ts, the same reader). Every line is validated on the way.
 */
import {
  parseRecordingLines,
  parseRecordingText,
  type RecordingHeader,
} from '../../../../shared/recordingFile.js';
import type {InspectorServices, Request} from '../../context/InspectorContext.js';
import type {OfflineRecording} from '../../store/InspectorStore.js';
import {openRecordingText, RecordingBuilder} from '../../store/offlineRecording.js';

/** The first chunk is small so the first rows show at once; later ones are larger. */
const FIRST_CHUNK_BYTES = 512 * 1024;
const NEXT_CHUNK_BYTES = 512 * 1024;

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
 * Opens recording `id` from the server in the Log panel (selecting `callId` if given) and keeps
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
  let header: RecordingHeader | undefined;
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
    // Lines the server read past (longer than any recording's) count as skipped.
    const readPast = reply.value.skippedLines ?? 0;
    if (first) {
      const parsed = parseRecordingText(text);
      header = parsed.header;
      builder.add(parsed.events, parsed.skippedLines + readPast);
    } else {
      builder.add([], readPast);
      if (store.getSnapshot().offline?.log !== builder.log) {
        // Closed (or another recording opened) while reading: stop.
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
      ...(header === undefined ? {} : {serverVersion: header.appVersion}),
      ...(header?.exportedAt === undefined ? {} : {exportedAt: header.exportedAt}),
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

/** A recording from elsewhere (drop or picker), read and parsed here. */
export async function openRecordingFile(
  services: InspectorServices,
  file: File,
): Promise<OpenResult> {
  const opened = openRecordingText(file.name, await file.text());
  const offline: OfflineRecording = {...opened.offline, recorded: true};
  services.store.openOffline(offline);
  services.ui.selectCall(undefined);
  services.ui.openPanel('log');
  return {calls: offline.log.size, skipped: opened.skipped};
}
