/**
 * Tests: src/core/browser/input/keyboard.ts
 */
import {describe, expect, it} from 'vitest';
import {
  canonicalKeyName,
  isTypeableCharacter,
  keyEventFields,
  modifierBit,
  parseKeyCombo,
} from '../../../src/core/browser/input/keyboard.js';

describe('parseKeyCombo', () => {
  it('splits modifiers from the key, keeping their order', () => {
    expect(parseKeyCombo('Enter')).toEqual({key: 'Enter', modifiers: []});
    expect(parseKeyCombo('Control+Shift+R')).toEqual({key: 'R', modifiers: ['Control', 'Shift']});
    expect(parseKeyCombo('Shift+Control+r')).toEqual({key: 'r', modifiers: ['Shift', 'Control']});
  });

  it('treats a "+" after a separator as the plus key', () => {
    expect(parseKeyCombo('Control++')).toEqual({key: '+', modifiers: ['Control']});
    expect(parseKeyCombo('+')).toEqual({key: '+', modifiers: []});
    expect(parseKeyCombo('Shift+Control++')).toEqual({key: '+', modifiers: ['Shift', 'Control']});
  });

  it('accepts common aliases and any case for named keys, but not for characters', () => {
    expect(parseKeyCombo('ctrl+shift+p')).toEqual({key: 'p', modifiers: ['Control', 'Shift']});
    expect(parseKeyCombo('Cmd+Esc')).toEqual({key: 'Escape', modifiers: ['Meta']});
    expect(parseKeyCombo('arrowdown')).toEqual({key: 'ArrowDown', modifiers: []});
    expect(canonicalKeyName('A')).toBe('A');
    expect(canonicalKeyName('a')).toBe('a');
  });

  it('rejects unknown, empty and duplicate keys with a remedy', () => {
    expect(() => parseKeyCombo('Control+Foo')).toThrow('"Foo" is not a valid key.');
    expect(() => parseKeyCombo('Control+Foo')).toThrow('Control+Shift+R');
    expect(() => parseKeyCombo('')).toThrow('Key "" could not be parsed.');
    expect(() => parseKeyCombo('Shift+Shift+A')).toThrow('contains duplicate keys');
    expect(() => parseKeyCombo('Ctrl+Control+A')).toThrow('contains duplicate keys');
  });
});

describe('keyEventFields', () => {
  it('describes letters, digits and named keys on a US layout', () => {
    expect(keyEventFields('a', 0)).toEqual({
      key: 'a',
      code: 'KeyA',
      windowsVirtualKeyCode: 65,
      text: 'a',
      location: 0,
    });
    expect(keyEventFields('Enter', 0)).toMatchObject({
      code: 'Enter',
      text: '\r',
      windowsVirtualKeyCode: 13,
    });
    expect(keyEventFields('ArrowDown', 0)).toMatchObject({
      code: 'ArrowDown',
      text: '',
      windowsVirtualKeyCode: 40,
    });
    expect(keyEventFields('Numpad7', 0)).toMatchObject({
      key: '7',
      location: 3,
      windowsVirtualKeyCode: 103,
    });
    expect(keyEventFields('F5', 0)).toMatchObject({key: 'F5', windowsVirtualKeyCode: 116});
    expect(keyEventFields('ShiftRight', 0)).toMatchObject({key: 'Shift', location: 2});
  });

  it('applies Shift to the character, and drops text under Control, Alt or Meta', () => {
    const shift = modifierBit('Shift');
    const control = modifierBit('Control');
    expect(keyEventFields('a', shift)).toMatchObject({key: 'A', text: 'A', code: 'KeyA'});
    expect(keyEventFields('1', shift)).toMatchObject({key: '!', text: '!', code: 'Digit1'});
    expect(keyEventFields('=', shift)).toMatchObject({key: '+', code: 'Equal'});
    expect(keyEventFields('a', control)).toMatchObject({key: 'a', text: ''});
    expect(keyEventFields('+', control)).toMatchObject({key: '+', code: 'Equal', text: ''});
    expect(keyEventFields('a', control | shift)).toMatchObject({key: 'A', text: ''});
  });

  it('knows which characters are typed with keys', () => {
    expect(isTypeableCharacter('x')).toBe(true);
    expect(isTypeableCharacter('~')).toBe(true);
    expect(isTypeableCharacter('\n')).toBe(true);
    expect(isTypeableCharacter('é')).toBe(false);
    expect(isTypeableCharacter('😀')).toBe(false);
    expect(
      modifierBit('Alt') | modifierBit('Control') | modifierBit('Meta') | modifierBit('Shift'),
    ).toBe(15);
    expect(modifierBit('a')).toBe(0);
  });
});
