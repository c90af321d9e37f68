import {describe, expect, it} from 'vitest';
import {
  parseSession,
  serializeSession,
  RecordingFileError,
  recordingFileName,
} from '../../src/renderer/src/features/log/sessionFile.js';
import {InspectorStore} from '../../src/renderer/src/store/InspectorStore.js';
import {batchOf, endedEvent, record, startedEvent} from './fixtures.js';

describe('session files', () => {
  it('round-trips a session: calls with results and telemetry come back as they were', () => {
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
    const text = serializeSession(store.exportEvents(), {
      exportedAt: new Date('2026-01-02T03:04:05Z'),
      serverVersion: '9.9.9',
    });
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      format: 'mcp-browser-inspector.session',
      serverVersion: '9.9.9',
    });

    const parsed = parseSession('saved.jsonl', text);
    expect(parsed.skipped).toBe(0);
    const {recording} = parsed;
    expect(recording.fileName).toBe('saved.jsonl');
    expect(recording.serverVersion).toBe('9.9.9');
    expect(recording.log.size).toBe(2);
    expect(recording.log.byCallId('a')).toMatchObject({
      status: 'ok',
      args: {url: 'https://example.com'},
      result: {text: 'Navigated.\n<script>alert(1)</script>'},
    });
    expect(recording.log.byCallId('b')).toMatchObject({
      status: 'error',
      errorText: 'Error: click failed',
    });
    expect(recording.telemetry).toHaveLength(1);
  });

  it('skips lines that are not inspector events and says which', () => {
    const good = JSON.stringify(batchOf([startedEvent('a', 'click')], 1).events[0]);
    const parsed = parseSession('mixed.jsonl', [good, '{"seq": "x"}', 'not json', ''].join('\n'));
    expect(parsed.recording.log.size).toBe(1);
    expect(parsed.skipped).toBe(2);
    expect(parsed.skippedLines).toEqual([2, 3]);
  });

  it('refuses a file with no events, naming what to open instead', () => {
    expect(() => parseSession('notes.txt', 'hello\nworld\n')).toThrow(RecordingFileError);
    expect(() => parseSession('notes.txt', 'hello')).toThrow(/Export/);
  });

  it('names files with a sortable timestamp', () => {
    expect(recordingFileName(new Date('2026-01-02T03:04:05.678Z'))).toBe(
      'mcp-browser-inspector-session-2026-01-02-03-04-05.jsonl',
    );
  });
});
