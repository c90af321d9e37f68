/**
 * The Telemetry panel's view model, pure: the records exactly as produced, newest first and
 * bounded to what is drawn at once (older ones stay in the export), the field help, and why a
 * failed call's record says it succeeded.
 */
import type {CallStatus} from '../../../../shared/protocol.js';
import {TELEMETRY_FIELD_HELP, type TelemetryRecord} from '../../../../shared/telemetry.js';
import type {TelemetryEntry} from '../../store/telemetryEntry.js';

/** Records rendered at once; older ones stay in the export. */
export const TELEMETRY_SHOWN = 200;

/** What each field of a record means, in the order of the record. */
export const FIELD_HELP: readonly {field: string; help: string}[] = Object.entries(
  TELEMETRY_FIELD_HELP,
).map(([field, help]) => ({field, help}));

/** The newest records first, at most TELEMETRY_SHOWN of them. */
export function shownRecords(entries: readonly TelemetryEntry[]): TelemetryEntry[] {
  return entries.slice(-TELEMETRY_SHOWN).reverse();
}

/**
 * Next to the record of a call that failed: chrome-devtools-mcp's record says `"success": true`
 * for every call its server answered, an error answer included, and this one is the same — so it
 * does not read as a bug. Undefined for a call that did not fail (or is not in the log).
 */
export function successNote(
  record: TelemetryRecord,
  status: CallStatus | undefined,
): string | undefined {
  if (!record.tool_invocation.success || (status !== 'error' && status !== 'cancelled')) {
    return undefined;
  }
  const failed = status === 'error' ? 'failed (the Log says error)' : 'was cancelled';
  return `This call ${failed}, yet the record says "success": true: chrome-devtools-mcp counts every call its server answered, an error answer included.`;
}

export interface ShownRecord extends TelemetryEntry {
  /** Said next to the record (a failed call's "success": true), if anything. */
  note: string | undefined;
}

/** The records to show, each with its note; `statusOf` is the status of a call in the log. */
export function recordsWithNotes(
  entries: readonly TelemetryEntry[],
  statusOf: (callId: string) => CallStatus | undefined,
): ShownRecord[] {
  return entries.map(entry => ({
    ...entry,
    note: successNote(
      entry.record,
      entry.callId === undefined ? undefined : statusOf(entry.callId),
    ),
  }));
}
