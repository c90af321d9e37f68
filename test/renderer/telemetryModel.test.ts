/** The Telemetry panel's view model (features/telemetry/telemetryModel.ts). */
import {describe, expect, it} from 'vitest';
import {
  FIELD_HELP,
  recordsWithNotes,
  shownRecords,
  successNote,
  TELEMETRY_SHOWN,
} from '../../src/renderer/src/features/telemetry/telemetryModel.js';
import {TELEMETRY_FIELD_HELP} from '../../src/shared/telemetry.js';
import {record} from './fixtures.js';

describe('Telemetry view model', () => {
  it('shows the newest records first, at most a bounded number', () => {
    const entries = Array.from({length: TELEMETRY_SHOWN + 5}, (_, index) => ({
      seq: index + 1,
      time: index,
      record: record(`tool_${index}`),
    }));
    const shown = shownRecords(entries);
    expect(shown).toHaveLength(TELEMETRY_SHOWN);
    expect(shown[0]?.seq).toBe(TELEMETRY_SHOWN + 5);
    expect(shown.at(-1)?.seq).toBe(6);
    expect(shownRecords(entries.slice(0, 2)).map(entry => entry.seq)).toEqual([2, 1]);
  });

  it('explains every field of a record', () => {
    expect(FIELD_HELP.map(item => item.field)).toEqual(Object.keys(TELEMETRY_FIELD_HELP));
    expect(FIELD_HELP.every(item => item.help.length > 0)).toBe(true);
  });

  it('says next to a failed call why its record reads "success": true', () => {
    const answered = record('click');
    expect(answered.tool_invocation.success).toBe(true);
    expect(successNote(answered, 'error')).toBe(
      'This call failed (the Log says error), yet the record says "success": true: chrome-devtools-mcp counts every call its server answered, an error answer included.',
    );
    expect(successNote(answered, 'cancelled')).toContain('This call was cancelled, yet');
    expect(successNote(answered, 'ok')).toBeUndefined();
    expect(successNote(answered, undefined)).toBeUndefined();
    expect(successNote(record('click', false), 'error')).toBeUndefined();
  });

  it('puts the note next to the records of failed calls only', () => {
    const entries = [
      {seq: 1, time: 1, record: record('click'), callId: 'failed'},
      {seq: 2, time: 2, record: record('click'), callId: 'fine'},
      {seq: 3, time: 3, record: record('click')},
    ];
    const statuses: Record<string, 'error' | 'ok'> = {failed: 'error', fine: 'ok'};
    const notes = recordsWithNotes(entries, callId => statuses[callId]).map(entry => entry.note);
    expect(notes[0]).toContain('"success": true');
    expect(notes.slice(1)).toEqual([undefined, undefined]);
  });
});
