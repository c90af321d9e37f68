/** A telemetry record as the UI keeps it: where it sits in the stream, and the call it belongs to. */
import type {TelemetryRecord} from '../../../shared/telemetry.js';

export interface TelemetryEntry {
  seq: number;
  time: number;
  callId?: string;
  record: TelemetryRecord;
}
