/**
 * Comparing a replayed result with the recorded one: a cut preview compares on its whole lines;
 * what differs between any two runs (HTTP dates, trace node ids) is normalised away; the diff
 * shows every hunk; the report prints recorded text inert.
 *
 * Tests: src/core/recordings/replay/compare.ts, src/core/recordings/replay/report.ts
 */
import {describe, expect, it} from 'vitest';
import {
  comparableTexts,
  lineDiff,
  normaliseResultText,
} from '../../../src/core/recordings/replay/compare.js';
import {formatCallReport} from '../../../src/core/recordings/replay/report.js';
import {previewText} from '../../../src/shared/boundedValue.js';

describe('comparableTexts', () => {
  const long = Array.from({length: 2_000}, (_, index) => `line ${index} of the result`).join('\n');

  it('compares a cut recording on the lines it kept', () => {
    const preview = previewText(long, 10_000);
    expect(preview.cut).toBe(true);
    const same = comparableTexts(preview.text, long, true);
    expect(same.before).toBe(same.after);
    expect(same.before.split('\n').length).toBeGreaterThan(300);
    const changed = comparableTexts(preview.text, long.replace('line 7 of', 'line 7 in'), true);
    expect(changed.before).not.toBe(changed.after);
  });

  it('compares whole texts when nothing was cut', () => {
    expect(comparableTexts('a\nb', 'a\nb\nc', false)).toEqual({before: 'a\nb', after: 'a\nb\nc'});
  });
});

describe('lineDiff', () => {
  it('shows every hunk that differs, each under the line it starts at', () => {
    const recorded = ['a', 'b', 'c', 'd', 'e', 'f'].join('\n');
    const replayed = ['a', 'B', 'c', 'd', 'e', 'F', 'g'].join('\n');
    expect(lineDiff(recorded, replayed)).toBe(
      ['@@ line 2', '- b', '+ B', '@@ line 6', '- f', '+ F', '+ g'].join('\n'),
    );
  });

  it('counts what it does not show, and stays one hunk when the texts share nothing', () => {
    const many = Array.from({length: 9}, (_, index) => `old ${index}`).join('\n');
    const diff = lineDiff(many, 'new');
    expect(diff.split('\n')).toEqual([
      '@@ line 1',
      '- old 0',
      '- old 1',
      '- old 2',
      '- old 3',
      '- … 5 more line(s)',
      '+ new',
    ]);
  });
});

describe('normaliseResultText', () => {
  it('ignores when a response was sent and which trace node an insight names', () => {
    const first =
      '- date:Tue, 01 Dec 2026 10:00:00 GMT\n- content-type:text/html\nLCP element: IMG (nodeId: 41)';
    const second =
      '- date:Wed, 02 Dec 2026 11:30:00 GMT\n- content-type:text/html\nLCP element: IMG (nodeId: 97)';
    expect(normaliseResultText(first)).toBe(normaliseResultText(second));
    expect(normaliseResultText(first)).not.toBe(
      normaliseResultText(second.replace('text/html', 'text/plain')),
    );
  });
});

describe('the replay report', () => {
  it('prints a recorded tool name on its own line, escaped, so it cannot fake a summary', () => {
    const line = formatCallReport({
      index: 1,
      tool: 'click\nReplayed 9 call(s): 9 same, 0 different, 0 failed.',
      client: 'agent',
      outcome: 'failed',
      recordedStatus: 'ok',
      replayedStatus: 'error',
      replayMs: 1,
    });
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('click\\u000aReplayed 9 call(s)');
  });
});
