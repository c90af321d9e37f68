/**
 * The one recording format: the writer's output reads back as written, and files written before
 * the rename (the Log's former export format, events under their older names) still open, read
 * under today's names.
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {EventEnvelope} from '../../src/shared/protocol.js';
import {
  parseRecordingText,
  RECORDING_FORMAT,
  RECORDING_FORMAT_VERSION,
  RecordingFileError,
  recordingFileName,
  recordingText,
  type RecordingHeader,
} from '../../src/shared/recordingFile.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'recordings');
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

describe('the recording format', () => {
  it('reads back what its writer wrote', () => {
    const events: EventEnvelope[] = [
      {seq: 1, time: 10, event: {type: 'clientDisconnected', clientId: 'c1'}},
    ];
    const header: RecordingHeader = {
      format: RECORDING_FORMAT,
      formatVersion: RECORDING_FORMAT_VERSION,
      appVersion: '1.2.3',
      startedAt: 10,
      flags: {},
      exportedAt: 20,
    };
    const parsed = parseRecordingText(recordingText(header, events));
    expect(parsed.header).toEqual(header);
    expect(parsed.events).toEqual(events);
    expect(parsed.skippedLines).toBe(0);
    expect(parsed.legacyLogExport).toBeUndefined();
  });

  it('names files by start time with the recordings folder prefix', () => {
    expect(recordingFileName(Date.UTC(2026, 0, 2, 3, 4, 5, 678), 'log')).toBe(
      'session-2026-01-02T03-04-05-678Z-log.jsonl',
    );
    expect(recordingFileName(Date.UTC(2026, 0, 2), 4242)).toBe(
      'session-2026-01-02T00-00-00-000Z-4242.jsonl',
    );
  });

  it('refuses a file whose first line is neither a header nor an event, saying what to open', () => {
    expect(() => parseRecordingText('hello\nworld\n')).toThrow(RecordingFileError);
    expect(() => parseRecordingText('hello')).toThrow(/Log panel exported/);
    expect(() => parseRecordingText('\n\n')).toThrow(/empty/);
  });
});

describe('files written before the rename', () => {
  it("opens the Log's former export: header from its own, older event names read as today's", () => {
    const parsed = parseRecordingText(fixture('log-export-before-rename.jsonl'));
    expect(parsed.legacyLogExport).toBe(true);
    expect(parsed.header).toMatchObject({
      format: RECORDING_FORMAT,
      appVersion: '0.0.9',
      startedAt: 1767322000000,
      exportedAt: Date.parse('2026-01-02T03:04:05.000Z'),
    });
    expect(parsed.events.map(envelope => envelope.event.type)).toEqual([
      'toolCallStarted',
      'toolCallEnded',
      'clientSessionExpired',
    ]);
    expect(parsed.skippedLines).toBe(1);
    expect(parsed.skippedAt).toEqual([5]);
  });

  it('opens a former export saved without a header, from its first event', () => {
    const lines = fixture('log-export-before-rename.jsonl').split('\n').slice(1);
    const parsed = parseRecordingText(lines.join('\n'));
    expect(parsed.legacyLogExport).toBe(true);
    expect(parsed.header).toMatchObject({appVersion: 'unknown', startedAt: 1767322000000});
    expect(parsed.events).toHaveLength(3);
  });

  it('reads renamed event types and fields of an older recording under their new names', () => {
    const parsed = parseRecordingText(fixture('recording-before-rename.jsonl'));
    expect(parsed.skippedLines).toBe(0);
    const [, expired, progress, finished] = parsed.events.map(envelope => envelope.event);
    expect(expired).toMatchObject({type: 'clientSessionExpired', reason: 'limit', idleMs: 5000});
    const id = 'session-2026-01-01T00-00-00-000Z-1.jsonl';
    expect(progress).toMatchObject({type: 'replayProgress', recordingId: id});
    expect(finished).toMatchObject({type: 'replayFinished', recordingId: id});
    expect(progress).not.toHaveProperty('sessionId');
  });
});
