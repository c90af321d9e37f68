/** A telemetry record as the UI keeps it: where it sits in the stream, and the call it belongs to. */
import type {EventOf} from '../../../shared/eventTable.js';
import type {TelemetryRecord} from '../../../shared/telemetry.js';

export interface TelemetryEntry {
  seq: number;
  time: number;
  callId?: string;
  record: TelemetryRecord;
}

export function telemetryEntry(
  seq: number,
  time: number,
  event: EventOf<'telemetry'>,
): TelemetryEntry {
  return {
    seq,
    time,
    ...(event.callId === undefined ? {} : {callId: event.callId}),
    record: event.record,
  };
}
