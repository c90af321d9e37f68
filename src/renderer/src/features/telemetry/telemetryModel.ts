/**
 * The Telemetry panel's panel model, pure: the records exactly as produced, one row each in the
 * Log's order and clock (oldest first, the time its call started), bounded to what is drawn at
 * once (older ones stay in the export); each row's tool, success, latency bucket, parameters as
 * sent, client family and the call it belongs to; the fields every record of a run repeats, with
 * what their codes mean; the field help; and why a failed call's record says it succeeded.
 */
import type {CallStatus} from '../../../../shared/protocol.js';
import {
  MCP_CLIENT_NAMES,
  OS_TYPE_NAMES,
  TELEMETRY_FIELD_HELP,
  type TelemetryRecord,
} from '../../../../shared/telemetry.js';
import type {TelemetryEntry} from '../../store/telemetryEntry.js';

/** Records rendered at once; older ones stay in the export. */
export const TELEMETRY_SHOWN = 200;

/** What each field of a record means, in the order of the record. */
export const FIELD_HELP: readonly {field: string; help: string}[] = Object.entries(
  TELEMETRY_FIELD_HELP,
).map(([field, help]) => ({field, help}));

/** The newest records, at most TELEMETRY_SHOWN of them, oldest first (as the Log lists calls). */
export function shownRecords(entries: readonly TelemetryEntry[]): TelemetryEntry[] {
  return entries.slice(-TELEMETRY_SHOWN);
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

/** A code with what it means: `3 (Linux)`. */
export function codeMeaning(code: number, names: Readonly<Record<number, string>>): string {
  const name = Object.hasOwn(names, code) ? names[code] : undefined;
  return name === undefined ? `${code} (unknown)` : `${code} (${name})`;
}

/** One row of the table: a record as sent, and what the Log knows of its call. */
export interface TelemetryRow {
  seq: number;
  /** When its call started (the Log's clock), else when the record was made. */
  time: number;
  callId: string | undefined;
  /** Its call is in the log: the row links to it. */
  inLog: boolean;
  tool: string;
  success: boolean;
  /** `≤ 2,500 ms` (the bucket it was rounded up to). */
  latency: string;
  /** The parameters as sent: `url_length: 50` (the record's tool_params, flattened). */
  params: string[];
  /** mcp_client with its meaning, and raw_client_name when sent. */
  client: string;
  /** Said next to the row (a failed call's "success": true), if anything. */
  note: string | undefined;
  record: TelemetryRecord;
}

/** What the log knows of a call: its status and when it started. */
export type CallLookup = (callId: string) => {status: CallStatus; startedAt: number} | undefined;

export function telemetryRows(
  entries: readonly TelemetryEntry[],
  lookup: CallLookup,
): TelemetryRow[] {
  return entries.map(entry => {
    const call = entry.callId === undefined ? undefined : lookup(entry.callId);
    const {record} = entry;
    const invocation = record.tool_invocation;
    return {
      seq: entry.seq,
      time: call?.startedAt ?? entry.time,
      callId: entry.callId,
      inLog: call !== undefined,
      tool: invocation.tool_name,
      success: invocation.success,
      latency: `≤ ${invocation.latency_ms.toLocaleString('en-US')} ms`,
      params: Object.values(invocation.tool_params ?? {}).flatMap(group =>
        Object.entries(group).map(([key, value]) => `${key}: ${String(value)}`),
      ),
      client: `${codeMeaning(record.mcp_client, MCP_CLIENT_NAMES)}${
        record.raw_client_name === undefined ? '' : ` · ${record.raw_client_name}`
      }`,
      note: successNote(record, call?.status),
      record,
    };
  });
}

/** The fields every record of this run repeats (the newest record's), codes with their meaning. */
export function commonFields(entries: readonly TelemetryEntry[]): {field: string; value: string}[] {
  const record = entries.at(-1)?.record;
  if (!record) {
    return [];
  }
  return [
    {field: 'os_type', value: codeMeaning(record.os_type, OS_TYPE_NAMES)},
    {field: 'app_version', value: record.app_version},
    {field: 'session_id', value: `${record.session_id} (random, this server run)`},
  ];
}
