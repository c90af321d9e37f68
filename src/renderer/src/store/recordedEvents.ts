/**
 * One recorded inspector event into a read-only recording's log and telemetry list: the same for
 * a recording read from the server in chunks and for a file opened in the UI. Which events it
 * shows is the event table's `inRecordedLog` (shared/eventTable.ts); the rest are the live state
 * of the run it was recorded from.
 */
import {
  handleEvent,
  inRecordedLog,
  type EventHandlers,
  type RecordedLogEventType,
} from '../../../shared/eventTable.js';
import type {EventEnvelope} from '../../../shared/protocol.js';
import type {CallLog} from './CallLog.js';
import {telemetryEntry, type TelemetryEntry} from './telemetryEntry.js';

interface RecordedLog {
  log: CallLog;
  telemetry: TelemetryEntry[];
}

const RECORDED_LOG_HANDLERS: EventHandlers<
  RecordedLogEventType,
  [into: RecordedLog, seq: number, time: number]
> = {
  toolCallStarted: (event, {log}, seq, time) => log.started(event, seq, time),
  toolCallEnded: (event, {log}, seq, time) => log.ended(event, seq, time),
  callActivity: (event, {log}) => log.attach(event),
  callScreenshots: (event, {log}) => log.attach(event),
  callElements: (event, {log}) => log.attach(event),
  telemetry: (event, {telemetry}, seq, time) => {
    telemetry.push(telemetryEntry(seq, time, event));
  },
};

export function addRecordedEvent(
  log: CallLog,
  telemetry: TelemetryEntry[],
  {seq, time, event}: EventEnvelope,
): void {
  if (inRecordedLog(event)) {
    handleEvent(RECORDED_LOG_HANDLERS, event.type, event, {log, telemetry}, seq, time);
  }
}
