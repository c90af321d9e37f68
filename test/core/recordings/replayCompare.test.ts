/** A recorded preview of a long result compares with the replay on its whole lines only. */
import {describe, expect, it} from 'vitest';
import {comparableTexts} from '../../../src/core/recordings/replayCompare.js';
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
