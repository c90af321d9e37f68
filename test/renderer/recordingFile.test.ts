/**
 * Tests: src/renderer/src/store/offlineRecording.ts, src/shared/recordingFile.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {RECORDING_FORMAT} from '../../src/shared/recordingFile.js';
import {InspectorStore} from '../../src/renderer/src/store/InspectorStore.js';
import {
  logExport,
  openRecordingText,
  RecordingFileError,
} from '../../src/renderer/src/store/offlineRecording.js';
import {batchOf, endedEvent, record, startedEvent} from './fixtures.js';

describe('the Log panel export and open', () => {
  it('round-trips the log as a recording: calls with results and telemetry come back as they were', () => {
    const store = new InspectorStore();
    store.applyBatch(
      batchOf(
        [
          startedEvent('a', 'navigate_page', undefined, {url: 'https://example.com'}),
          endedEvent('a', 'navigate_page', 'ok', 'Navigated.\n<script>alert(1)</script>'),
          {type: 'telemetry', callId: 'a', record: record('navigate_page')},
          startedEvent('b', 'click'),
          endedEvent('b', 'click', 'error'),
        ],
        1,
      ),
    );
    const exportedAt = new Date('2026-01-02T03:04:05Z');
    const saved = logExport(store.exportEvents(), {exportedAt, serverVersion: '9.9.9'});
    expect(saved.fileName).toBe('session-2026-01-02T03-04-05-000Z-log.jsonl');
    const lines = saved.text.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      format: RECORDING_FORMAT,
      appVersion: '9.9.9',
      exportedAt: exportedAt.getTime(),
    });

    const opened = openRecordingText('saved.jsonl', saved.text);
    expect(opened.skipped).toBe(0);
    const {offline} = opened;
    expect(offline.fileName).toBe('saved.jsonl');
    expect(offline.serverVersion).toBe('9.9.9');
    expect(offline.exportedAt).toBe(exportedAt.getTime());
    expect(offline.log.size).toBe(2);
    expect(offline.log.byCallId('a')).toMatchObject({
      status: 'ok',
      args: {url: 'https://example.com'},
      result: {text: 'Navigated.\n<script>alert(1)</script>'},
    });
    expect(offline.log.byCallId('b')).toMatchObject({
      status: 'error',
      errorText: 'Error: click failed',
    });
    expect(offline.telemetry).toHaveLength(1);
  });

  it('skips lines that are not inspector events and says which', () => {
    const good = JSON.stringify(batchOf([startedEvent('a', 'click')], 1).events[0]);
    const saved = logExport([], {exportedAt: new Date(0)}).text;
    const opened = openRecordingText('mixed.jsonl', `${saved}${good}\n{"seq": "x"}\nnot json\n`);
    expect(opened.offline.log.size).toBe(1);
    expect(opened.skipped).toBe(2);
    expect(opened.skippedAt).toEqual([3, 4]);
  });

  it('refuses a file that is no recording, naming what to open instead', () => {
    expect(() => openRecordingText('notes.txt', 'hello\nworld\n')).toThrow(RecordingFileError);
    expect(() => openRecordingText('notes.txt', 'hello')).toThrow(/Log panel exported/);
  });

  it("opens a file in the Log's former export format", () => {
    const file = path.join(
      import.meta.dirname,
      '..',
      'fixtures',
      'recordings',
      'log-export-before-rename.jsonl',
    );
    const opened = openRecordingText('old.jsonl', fs.readFileSync(file, 'utf8'));
    expect(opened.offline.log.size).toBe(1);
    expect(opened.offline.log.byCallId('a')).toMatchObject({status: 'ok', tool: 'navigate_page'});
    expect(opened.offline.serverVersion).toBe('0.0.9');
    expect(opened.offline.exportedAt).toBe(Date.parse('2026-01-02T03:04:05.000Z'));
    expect(opened.skipped).toBe(1);
  });
});
