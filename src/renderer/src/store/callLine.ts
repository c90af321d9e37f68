/**
 * A call's line in a person's words (shared/callSummary.ts), made once per record object (records
 * are replaced, never changed, so a record that learnt its elements gets its line again).
 */
import {describeCall} from '../../../shared/callSummary.js';
import type {CallRecord} from './CallLog.js';

const lines = new WeakMap<CallRecord, string>();

/** `click button "Press me"`. */
export function callLine(record: CallRecord): string {
  let line = lines.get(record);
  if (line === undefined) {
    line = describeCall(record);
    lines.set(record, line);
  }
  return line;
}

/** The line without the tool's name ('' when it adds nothing). */
export function callLineTail(record: CallRecord): string {
  const line = callLine(record);
  return line.startsWith(`${record.tool} `) ? line.slice(record.tool.length + 1) : '';
}
