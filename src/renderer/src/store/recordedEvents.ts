/**
 * One recorded inspector event into a read-only recording's log and telemetry list: the same for
 * a recording read from the server in chunks and for a file opened in the UI.
 */
import type {EventEnvelope} from '../../../shared/protocol.js';
import type {CallLog} from './CallLog.js';
import type {TelemetryEntry} from './InspectorStore.js';

export function addRecordedEvent(
  log: CallLog,
  telemetry: TelemetryEntry[],
  {seq, time, event}: EventEnvelope,
): void {
  switch (event.type) {
    case 'toolCallStarted':
      log.started(event, seq, time);
      break;
    case 'toolCallEnded':
      log.ended(event, seq, time);
      break;
    case 'callActivity':
    case 'callScreenshots':
      log.attach(event);
      break;
    case 'telemetry':
      telemetry.push({
        seq,
        time,
        record: event.record,
        ...(event.callId === undefined ? {} : {callId: event.callId}),
      });
      break;
    default:
      break;
  }
}
