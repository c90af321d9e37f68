/**
 * One recorded inspector event into a read-only recording's log and telemetry list: the same for
 * a recording read from the server in chunks and for a file opened in the UI.
 */
import type {EventEnvelope} from '../../../shared/protocol.js';
import type {CallLog} from './CallLog.js';
import type {TelemetryEntry} from './telemetryEntry.js';

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
    case 'callElements':
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
    case 'toolsChanged':
    case 'pagesChanged':
    case 'browserStatus':
    case 'clientConnected':
    case 'clientDisconnected':
    case 'clientSessionExpired':
    case 'clientActivity':
    case 'isolateClientsChanged':
    case 'webmcpToolsChanged':
    case 'webmcpInvocation':
    case 'holdRulesChanged':
    case 'holdOpenOnHeldChanged':
    case 'callHeld':
    case 'callHoldTarget':
    case 'callHoldEnded':
    case 'holdChanged':
    case 'replayProgress':
    case 'replayFinished':
      // The live state of the run it was recorded from: a read-only log shows its calls only.
      break;
    case 'eventOmitted':
      // A note where the server could not keep an event; nothing of a call to show.
      break;
  }
}
