/**
 * A call log turned back into the inspector events it came from (start, who its elements were,
 * end, what the call did, then telemetry), in sequence order: what an export writes and a recording holds.
 */
import type {EventEnvelope} from '../../../shared/protocol.js';
import type {CallLog, CallRecord} from './CallLog.js';
import type {TelemetryEntry} from './telemetryEntry.js';

/** What the call did on its page (callActivity, callScreenshots), right after its end event (same seq: the sort below is stable). */
function pushCallRecordEvents(events: EventEnvelope[], record: CallRecord): void {
  const seq = record.endSeq ?? record.seq;
  const time = record.endedAt ?? record.startedAt;
  if (record.activity && record.pageId !== undefined) {
    events.push({
      seq,
      time,
      event: {
        type: 'callActivity',
        callId: record.callId,
        pageId: record.pageId,
        items: [...record.activity.items],
        dropped: record.activity.dropped,
      },
    });
  }
  if (record.screenshots && record.pageId !== undefined) {
    events.push({
      seq,
      time,
      event: {
        type: 'callScreenshots',
        callId: record.callId,
        pageId: record.pageId,
        ...record.screenshots,
      },
    });
  }
}

/** Rebuilds the events of a log (start and end of each call, then telemetry) in sequence order. */
export function eventsOf(log: CallLog, telemetry: readonly TelemetryEntry[]): EventEnvelope[] {
  const events: EventEnvelope[] = [];
  for (const record of log.records()) {
    events.push({
      seq: record.seq,
      time: record.startedAt,
      event: {
        type: 'toolCallStarted',
        callId: record.callId,
        tool: record.tool,
        args: record.args,
        client: record.client,
        ...(record.pageId === undefined ? {} : {pageId: record.pageId}),
      },
    });
    if (record.elements && record.elements.length > 0) {
      // Right after its start (same seq: the sort below is stable), as the server sends it.
      events.push({
        seq: record.seq,
        time: record.startedAt,
        event: {type: 'callElements', callId: record.callId, elements: [...record.elements]},
      });
    }
    if (record.status !== 'running' && record.result) {
      events.push({
        seq: record.endSeq ?? record.seq,
        time: record.endedAt ?? record.startedAt,
        event: {
          type: 'toolCallEnded',
          callId: record.callId,
          tool: record.tool,
          status: record.status,
          durationMs: record.durationMs ?? 0,
          result: record.result,
          ...(record.errorText === undefined ? {} : {errorText: record.errorText}),
          ...(record.pageId === undefined ? {} : {pageId: record.pageId}),
          ...(record.actedOn ? {actedOn: record.actedOn} : {}),
          ...(record.telemetry ? {telemetry: record.telemetry} : {}),
        },
      });
      pushCallRecordEvents(events, record);
    }
  }
  for (const entry of telemetry) {
    events.push({
      seq: entry.seq,
      time: entry.time,
      event: {
        type: 'telemetry',
        ...(entry.callId === undefined ? {} : {callId: entry.callId}),
        record: entry.record,
      },
    });
  }
  events.sort((a, b) => a.seq - b.seq);
  return events;
}
