/**
 * The Telemetry panel's panel model (features/telemetry/telemetryModel.ts).
 *
 * Tests: src/renderer/src/features/telemetry/telemetryModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  codeMeaning,
  commonFields,
  FIELD_HELP,
  shownRecords,
  successNote,
  TELEMETRY_SHOWN,
  telemetryRows,
} from '../../src/renderer/src/features/telemetry/telemetryModel.js';
import {OS_TYPE_NAMES, TELEMETRY_FIELD_HELP} from '../../src/shared/telemetry.js';
import {record} from './fixtures.js';

describe('Telemetry panel model', () => {
  it('shows the newest records, at most a bounded number, oldest first as the Log does', () => {
    const entries = Array.from({length: TELEMETRY_SHOWN + 5}, (_, index) => ({
      seq: index + 1,
      time: index,
      record: record(`tool_${index}`),
    }));
    const shown = shownRecords(entries);
    expect(shown).toHaveLength(TELEMETRY_SHOWN);
    expect(shown[0]?.seq).toBe(6);
    expect(shown.at(-1)?.seq).toBe(TELEMETRY_SHOWN + 5);
    expect(shownRecords(entries.slice(0, 2)).map(entry => entry.seq)).toEqual([1, 2]);
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
    const notes = telemetryRows(entries, callId => {
      const status = statuses[callId];
      return status === undefined ? undefined : {status, startedAt: 0};
    }).map(row => row.note);
    expect(notes[0]).toContain('"success": true');
    expect(notes.slice(1)).toEqual([undefined, undefined]);
  });

  it("gives each row the Log's clock, a link to its call, and the record's fields in words", () => {
    const sent = {
      ...record('navigate_page'),
      mcp_client: 3,
      raw_client_name: 'my-agent',
      tool_invocation: {
        tool_name: 'navigate_page',
        success: true,
        latency_ms: 2500,
        tool_params: {navigate_page: {url_length: 50, type: 'url'}},
      },
    };
    const entries = [
      {seq: 1, time: 9_000, record: sent, callId: 'in-log'},
      {seq: 2, time: 9_500, record: record('click'), callId: 'gone'},
      {seq: 3, time: 9_900, record: record('list_pages')},
    ];
    const rows = telemetryRows(entries, callId =>
      callId === 'in-log' ? {status: 'ok', startedAt: 7_000} : undefined,
    );
    expect(rows[0]).toMatchObject({
      time: 7_000,
      callId: 'in-log',
      inLog: true,
      tool: 'navigate_page',
      success: true,
      latency: '≤ 2,500 ms',
      params: ['url_length: 50', 'type: url'],
      client: '3 (other) · my-agent',
    });
    // A call the log no longer holds, or none at all: the record's own time, no link.
    expect(rows[1]).toMatchObject({time: 9_500, callId: 'gone', inLog: false});
    expect(rows[2]).toMatchObject({
      time: 9_900,
      inLog: false,
      params: [],
      client: '1 (Claude Code)',
    });
  });

  it('names the codes every record repeats', () => {
    expect(commonFields([])).toEqual([]);
    expect(commonFields([{seq: 1, time: 1, record: record('click')}])).toEqual([
      {field: 'os_type', value: '3 (Linux)'},
      {field: 'app_version', value: 'test'},
      {field: 'session_id', value: 's (random, this server run)'},
    ]);
    expect(codeMeaning(0, OS_TYPE_NAMES)).toBe('0 (other)');
    expect(codeMeaning(42, OS_TYPE_NAMES)).toBe('42 (unknown)');
  });
});
