/**
 * The Recordings panel's rows: newest first, each replay's recording under what it replayed.
 *
 * Tests: src/renderer/src/features/recordings/recordingsModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  recordingRows,
  recordingState,
} from '../../src/renderer/src/features/recordings/recordingsModel.js';
import type {RecordingList, RecordingSummary} from '../../src/shared/replies.js';
import {formatDateTime} from '../../src/renderer/src/ui/format.js';

function summary(
  id: string,
  startedAt: number,
  extra: Partial<RecordingSummary> = {},
): RecordingSummary {
  return {
    id,
    startedAt,
    durationMs: 1,
    clients: [],
    calls: 1,
    errors: 0,
    bytes: 10,
    current: false,
    starred: false,
    ...extra,
  };
}

describe('recordingRows', () => {
  it('puts each replay right under the recording it replayed, newest replay first', () => {
    const rows = recordingRows([
      summary('e', 5, {replayOf: 'a', current: true}),
      summary('d', 4),
      summary('c', 3, {replayOf: 'a'}),
      summary('b', 2, {replayOf: 'gone'}),
      summary('a', 1),
    ]);
    expect(rows.map(row => [row.recording.id, row.nested, row.replayOf])).toEqual([
      ['d', false, undefined],
      ['b', false, 'gone'],
      ['a', false, undefined],
      ['e', true, 'a'],
      ['c', true, 'a'],
    ]);
  });

  it('lists every recording once, even when hand-made headers loop', () => {
    const rows = recordingRows([
      summary('x', 2, {replayOf: 'y'}),
      summary('y', 1, {replayOf: 'x'}),
      summary('z', 0, {replayOf: 'z'}),
    ]);
    expect(rows.map(row => row.recording.id).sort()).toEqual(['x', 'y', 'z']);
  });
});

describe('recordingState', () => {
  const list = (recordings: RecordingSummary[], recording = true): RecordingList => ({
    recording,
    retention: {maxAgeMs: 1, maxRecordings: 50, maxBytes: 1, totalBytes: 0, removed: 0},
    recordings,
  });

  it('says a run is recorded from its first call until it has made one', () => {
    expect(recordingState(list([]))).toMatch(/from its first tool call/);
    expect(recordingState(list([summary('a', 1, {current: true})]))).toBe(
      'This run is being recorded.',
    );
    expect(recordingState(list([], false))).toMatch(/--no-record/);
  });
});

describe('formatDateTime', () => {
  it('is one 24-hour format, like the Log', () => {
    const afternoon = new Date(2026, 11, 2, 15, 4, 5, 678).getTime();
    expect(formatDateTime(afternoon)).toBe('2026-12-02 15:04:05');
  });
});
