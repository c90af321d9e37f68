/**
 * Values with invisible or bidi characters, listed revealed below an arguments editor.
 *
 * Tests: src/renderer/src/ui/invisibleInValues.ts
 */
import {describe, expect, it} from 'vitest';
import {invisibleInValues} from '../../src/renderer/src/ui/invisibleInValues.js';

describe('invisibleInValues', () => {
  it('finds hidden characters in nested values and keys, revealed, with where they are', () => {
    expect(
      invisibleInValues({
        plain: 'fine',
        file: 'invoice_\u202Efdp.exe',
        nested: {list: ['ok', 'zero\u200Bwidth'], n: 3},
        ['key\u2066']: 'value',
      }),
    ).toEqual({
      found: [
        {path: 'file', shown: 'invoice_⟨U+202E⟩fdp.exe'},
        {path: 'nested.list[1]', shown: 'zero⟨U+200B⟩width'},
        {path: 'key⟨U+2066⟩', shown: 'value'},
      ],
      more: false,
    });
    expect(invisibleInValues({a: 'plain', b: 1, c: [true, null]})).toEqual({
      found: [],
      more: false,
    });
  });

  it('stays bounded on hostile values: many hits, huge arrays, deep nesting, long strings', () => {
    const many = Object.fromEntries(Array.from({length: 50}, (_, i) => [`f${i}`, `x\u202E${i}`]));
    const manyFound = invisibleInValues(many);
    expect(manyFound.found).toHaveLength(10);
    expect(manyFound.more).toBe(true);

    const huge = invisibleInValues({list: Array.from({length: 1_000_000}, () => 'plain')});
    expect(huge).toEqual({found: [], more: true});

    let deep: Record<string, unknown> = {leaf: '\u202E'};
    for (let level = 0; level < 1_000; level++) {
      deep = {child: deep};
    }
    expect(invisibleInValues(deep)).toEqual({found: [], more: true});

    const long = invisibleInValues({text: `\u202E${'a'.repeat(10_000)}`});
    expect(long.found[0]?.shown).toBe(`⟨U+202E⟩${'a'.repeat(199)}… (10001 characters)`);
  });
});
