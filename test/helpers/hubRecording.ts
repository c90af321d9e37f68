/**
 * Recordings for replay and export tests, made the way the recorder makes them: every event a
 * real engine's InspectorHub publishes, after a header line (recordingText).
 */
import fs from 'node:fs';
import type {InspectorHub} from '../../src/core/inspector/InspectorHub.js';
import type {EventEnvelope} from '../../src/shared/protocol.js';
import {
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  recordingText,
  type RecordingHeader,
} from '../../src/shared/recordingFile.js';
import {waitFor} from './engine.js';

export interface HubRecording {
  /** Waits until every event published so far arrived, then writes the file; returns the events. */
  save(file: string): Promise<EventEnvelope[]>;
  close(): void;
}

/** `flags`: the header's server flags (as the recorder writes headerFlags(config)). */
export function recordHub(
  hub: InspectorHub,
  fromSeq = 1,
  flags: Record<string, unknown> = {headless: true},
): HubRecording {
  const events: EventEnvelope[] = [];
  const startedAt = Date.now();
  const subscription = hub.subscribe(fromSeq, batch => {
    events.push(...batch.events);
    return true;
  });
  return {
    async save(file) {
      const last = hub.nextSeq - 1;
      await waitFor(() => (events.at(-1)?.seq ?? 0) >= last, 10_000, 'the recorded events');
      const header: RecordingHeader = {
        format: RECORDING_FORMAT,
        formatVersion: RECORDING_FORMAT_VERSION,
        appVersion: 'test',
        startedAt,
        flags,
      };
      fs.writeFileSync(file, recordingText(header, events));
      return [...events];
    },
    close() {
      subscription.close();
    },
  };
}
