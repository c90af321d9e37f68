/**
 * The one bounded walk over outside values: deep, wide, long and cyclic values come out within
 * their bounds, with markers where something was cut, and without overflowing the stack.
 */
import {describe, expect, it} from 'vitest';
import {
  boundValue,
  CUT_KEY,
  deeperMarker,
  nestsDeeperThan,
  VALUE_DEPTH_LIMIT,
} from '../../src/shared/boundedValue.js';

function nestedArray(depth: number): unknown {
  let value: unknown = [];
  for (let index = 1; index < depth; index++) {
    value = [value];
  }
  return value;
}

function depthOf(value: unknown): number {
  let depth = 0;
  let current = value;
  while (Array.isArray(current) || (typeof current === 'object' && current !== null)) {
    depth++;
    current = Array.isArray(current) ? current[0] : Object.values(current)[0];
  }
  return depth;
}

describe('boundValue', () => {
  it('returns an equal copy of a value within its bounds', () => {
    const value = {a: [1, 'two', {three: true, four: null}], b: {c: 'd'}, e: -1.5};
    const bounded = boundValue(value, {maxDepth: 10});
    expect(bounded.value).toEqual(value);
    expect(bounded.value).not.toBe(value);
    expect(bounded.cut).toBe(false);
    expect(bounded.chars).toBeGreaterThanOrEqual(JSON.stringify(value).length - 10);
  });

  it('cuts a 200,000-deep array at the depth bound with a marker, without recursion', () => {
    const bounded = boundValue(nestedArray(200_000), {maxDepth: VALUE_DEPTH_LIMIT});
    expect(bounded.cut).toBe(true);
    expect(depthOf(bounded.value)).toBe(VALUE_DEPTH_LIMIT);
    expect(JSON.stringify(bounded.value)).toContain(
      JSON.stringify(deeperMarker(VALUE_DEPTH_LIMIT)),
    );
  });

  it('counts what a node budget leaves out, in every open container', () => {
    const value = {list: Array.from({length: 100}, (_, index) => index), after: 'x'};
    const bounded = boundValue(value, {maxDepth: 5, maxNodes: 12});
    expect(bounded.cut).toBe(true);
    expect(bounded.value).toEqual({
      list: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, '[… 90 more items]'],
      [CUT_KEY]: '[… 1 more key]',
    });
  });

  it('cuts long strings and keeps the total near the character budget', () => {
    const value = {text: 'a'.repeat(10_000), more: ['b'.repeat(10_000), 'c']};
    const capped = boundValue(value, {maxDepth: 5, maxStringChars: 100});
    expect(capped.value).toEqual({
      text: `${'a'.repeat(100)}[… 9900 more characters]`,
      more: [`${'b'.repeat(100)}[… 9900 more characters]`, 'c'],
    });
    const budget = boundValue(value, {maxDepth: 5, maxChars: 5_000});
    expect(JSON.stringify(budget.value).length).toBeLessThan(5_200);
    expect(JSON.stringify(budget.value)).toContain('more characters]');
    expect(budget.cut).toBe(true);
  });

  it('maps every string it keeps, with its key and parent', () => {
    const seen: (string | undefined)[] = [];
    const bounded = boundValue(
      {a: 'secret-1', list: ['secret-2'], image: {mimeType: 'image/png', data: 'secret-3'}},
      {
        maxDepth: 5,
        mapString: (text, key, parent) => {
          seen.push(key);
          return key === 'data' && parent !== undefined && 'mimeType' in parent
            ? text
            : text.replace('secret', 'x');
        },
      },
    );
    expect(bounded.value).toEqual({
      a: 'x-1',
      list: ['x-2'],
      image: {mimeType: 'image/png', data: 'secret-3'},
    });
    expect(seen).toEqual(['a', undefined, 'mimeType', 'data']);
  });

  it('stops on a cyclic value built by code', () => {
    const cyclic: Record<string, unknown> = {name: 'loop'};
    cyclic.self = cyclic;
    cyclic.again = cyclic;
    const bounded = boundValue(cyclic, {maxDepth: 8, maxNodes: 1_000});
    expect(bounded.cut).toBe(true);
    expect(JSON.stringify(bounded.value).length).toBeLessThan(100_000);
  });

  it('keeps JSON leaf semantics: undefined and functions left out, non-finite numbers null', () => {
    const bounded = boundValue(
      {a: undefined, f: () => 1, n: Number.NaN, list: [undefined, Infinity], big: 10n},
      {maxDepth: 4},
    );
    expect(bounded.value).toEqual({n: null, list: [null, null], big: '10'});
  });
});

describe('nestsDeeperThan', () => {
  it('tells deep from shallow values without recursion', () => {
    expect(nestsDeeperThan(nestedArray(200_000), 100)).toBe(true);
    expect(nestsDeeperThan(nestedArray(100), 100)).toBe(false);
    expect(nestsDeeperThan(nestedArray(101), 100)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan({a: [{b: 1}]}, 3)).toBe(false);
    expect(nestsDeeperThan({a: [{b: {}}]}, 3)).toBe(true);
  });

  it('counts a value with more than maxNodes values as too big', () => {
    expect(
      nestsDeeperThan(
        Array.from({length: 1000}, () => 1),
        5,
        999,
      ),
    ).toBe(true);
    expect(
      nestsDeeperThan(
        Array.from({length: 1000}, () => 1),
        5,
        1000,
      ),
    ).toBe(false);
  });
});

describe('keys from outside', () => {
  it('keeps a "__proto__" key as a key, never as the prototype', () => {
    const value: unknown = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const bounded = boundValue(value, {maxDepth: 4});
    const copy = bounded.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect('polluted' in copy).toBe(false);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it("keeps keys named like Object.prototype's members as own keys, in order", () => {
    const value: unknown = JSON.parse(
      '{"constructor": 1, "toString": "x", "hasOwnProperty": [2], "valueOf": {"b": null}, "__proto__": 3}',
    );
    const copy = boundValue(value, {maxDepth: 4}).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual([
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__proto__',
    ]);
    expect(Object.getOwnPropertyDescriptor(copy, 'toString')).toEqual({
      value: 'x',
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(JSON.stringify(copy)).toBe(
      '{"constructor":1,"toString":"x","hasOwnProperty":[2],"valueOf":{"b":null},"__proto__":3}',
    );
    expect(Object.prototype.toString.call({})).toBe('[object Object]');
  });
});
