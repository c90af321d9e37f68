/**
 * Key names and key combinations ("Enter", "Control+Shift+R", "Control++") turned into what CDP's
 * Input.dispatchKeyEvent needs: key, code, Windows virtual key code, text and location, on a US
 * layout. Accepts chrome-devtools-mcp's key names, plus a few common aliases (Ctrl, Cmd, Esc).
 */

export interface KeyDefinition {
  /** KeyboardEvent.key without Shift. */
  key: string;
  /** KeyboardEvent.code (the physical key). */
  code: string;
  /** Windows virtual key code (KeyboardEvent.keyCode). */
  keyCode: number;
  /** Character the key inserts without Shift ('' for none). */
  text: string;
  /** KeyboardEvent.key (and inserted text) with Shift held, when it differs. */
  shiftKey?: string;
  /** 0 standard, 1 left, 2 right, 3 numpad. */
  location: number;
}

/** Modifier bit masks of Input.dispatchKeyEvent / dispatchMouseEvent. */
const MODIFIER_BITS: Readonly<Record<string, number>> = {
  Alt: 1,
  AltLeft: 1,
  AltRight: 1,
  Control: 2,
  ControlLeft: 2,
  ControlRight: 2,
  Meta: 4,
  MetaLeft: 4,
  MetaRight: 4,
  Shift: 8,
  ShiftLeft: 8,
  ShiftRight: 8,
};

const SHIFT_BIT = 8;

const definitions = new Map<string, KeyDefinition>();

function define(
  name: string,
  definition: Omit<KeyDefinition, 'text' | 'location'> & Partial<KeyDefinition>,
): void {
  definitions.set(name, {text: '', location: 0, ...definition});
}

// Letters: "a" and "KeyA" are the same key; "A" is the key with its shifted character.
for (let index = 0; index < 26; index++) {
  const lower = String.fromCharCode(97 + index);
  const upper = lower.toUpperCase();
  const code = `Key${upper}`;
  const keyCode = 65 + index;
  define(lower, {key: lower, code, keyCode, text: lower, shiftKey: upper});
  define(code, {key: lower, code, keyCode, text: lower, shiftKey: upper});
  define(upper, {key: upper, code, keyCode, text: upper});
}

// Digits and the characters Shift puts on them.
const SHIFTED_DIGITS = ')!@#$%^&*(';
for (let digit = 0; digit < 10; digit++) {
  const key = String(digit);
  const code = `Digit${key}`;
  const shifted = SHIFTED_DIGITS.charAt(digit);
  define(key, {key, code, keyCode: 48 + digit, text: key, shiftKey: shifted});
  define(code, {key, code, keyCode: 48 + digit, text: key, shiftKey: shifted});
  define(shifted, {key: shifted, code, keyCode: 48 + digit, text: shifted});
  define(`Numpad${key}`, {key, code: `Numpad${key}`, keyCode: 96 + digit, text: key, location: 3});
}

// Punctuation keys: [code, keyCode, unshifted, shifted].
const PUNCTUATION: readonly [string, number, string, string][] = [
  ['Semicolon', 186, ';', ':'],
  ['Equal', 187, '=', '+'],
  ['Comma', 188, ',', '<'],
  ['Minus', 189, '-', '_'],
  ['Period', 190, '.', '>'],
  ['Slash', 191, '/', '?'],
  ['Backquote', 192, '`', '~'],
  ['BracketLeft', 219, '[', '{'],
  ['Backslash', 220, '\\', '|'],
  ['BracketRight', 221, ']', '}'],
  ['Quote', 222, "'", '"'],
];
for (const [code, keyCode, plain, shifted] of PUNCTUATION) {
  define(plain, {key: plain, code, keyCode, text: plain, shiftKey: shifted});
  define(code, {key: plain, code, keyCode, text: plain, shiftKey: shifted});
  define(shifted, {key: shifted, code, keyCode, text: shifted});
}

// Keys that insert a character of their own.
define('Enter', {key: 'Enter', code: 'Enter', keyCode: 13, text: '\r'});
define('\r', {key: 'Enter', code: 'Enter', keyCode: 13, text: '\r'});
define('\n', {key: 'Enter', code: 'Enter', keyCode: 13, text: '\r'});
define('NumpadEnter', {key: 'Enter', code: 'NumpadEnter', keyCode: 13, text: '\r', location: 3});
define(' ', {key: ' ', code: 'Space', keyCode: 32, text: ' '});
define('Space', {key: ' ', code: 'Space', keyCode: 32, text: ' '});
define('NumpadMultiply', {key: '*', code: 'NumpadMultiply', keyCode: 106, text: '*', location: 3});
define('NumpadAdd', {key: '+', code: 'NumpadAdd', keyCode: 107, text: '+', location: 3});
define('NumpadSubtract', {key: '-', code: 'NumpadSubtract', keyCode: 109, text: '-', location: 3});
define('NumpadDecimal', {key: '.', code: 'NumpadDecimal', keyCode: 110, text: '.', location: 3});
define('NumpadDivide', {key: '/', code: 'NumpadDivide', keyCode: 111, text: '/', location: 3});
define('NumpadEqual', {key: '=', code: 'NumpadEqual', keyCode: 12, text: '=', location: 3});

// Modifiers, left and right.
for (const [name, keyCode] of [
  ['Shift', 16],
  ['Control', 17],
  ['Alt', 18],
  ['Meta', 91],
] as const) {
  define(name, {key: name, code: `${name}Left`, keyCode, location: 1});
  define(`${name}Left`, {key: name, code: `${name}Left`, keyCode, location: 1});
  define(`${name}Right`, {
    key: name,
    code: `${name}Right`,
    keyCode: name === 'Meta' ? 92 : keyCode,
    location: 2,
  });
}

// Named keys without text: [name, keyCode, code (defaults to the name)].
const NAMED: readonly [string, number, string?][] = [
  ['Cancel', 3, 'Abort'],
  ['Abort', 3],
  ['Help', 6],
  ['Backspace', 8],
  ['Tab', 9],
  ['Clear', 12, 'Numpad5'],
  ['Pause', 19],
  ['CapsLock', 20],
  ['Escape', 27],
  ['Convert', 28],
  ['NonConvert', 29],
  ['Accept', 30],
  ['ModeChange', 31],
  ['PageUp', 33],
  ['PageDown', 34],
  ['End', 35],
  ['Home', 36],
  ['ArrowLeft', 37],
  ['ArrowUp', 38],
  ['ArrowRight', 39],
  ['ArrowDown', 40],
  ['Select', 41],
  ['Print', 42],
  ['Execute', 43, 'Open'],
  ['PrintScreen', 44],
  ['Insert', 45],
  ['Delete', 46],
  ['ContextMenu', 93],
  ['NumLock', 144],
  ['ScrollLock', 145],
  ['AudioVolumeMute', 173],
  ['AudioVolumeDown', 174],
  ['AudioVolumeUp', 175],
  ['VolumeDown', 174, 'AudioVolumeDown'],
  ['VolumeUp', 175, 'AudioVolumeUp'],
  ['MediaTrackNext', 176],
  ['MediaTrackPrevious', 177],
  ['MediaStop', 178],
  ['MediaPlayPause', 179],
  ['AltGraph', 225],
  ['Attn', 246],
  ['CrSel', 247],
  ['ExSel', 248],
  ['EraseEof', 249],
  ['Play', 250],
  ['ZoomOut', 251],
];
for (const [name, keyCode, code] of NAMED) {
  define(name, {key: name, code: code ?? name, keyCode});
}
for (let index = 1; index <= 24; index++) {
  define(`F${index}`, {key: `F${index}`, code: `F${index}`, keyCode: 111 + index});
}

/** Spellings agents often use for named keys (matched case-insensitively, like the names). */
const ALIASES: Readonly<Record<string, string>> = {
  ctrl: 'Control',
  control: 'Control',
  controlormeta: 'Control',
  cmd: 'Meta',
  command: 'Meta',
  super: 'Meta',
  win: 'Meta',
  option: 'Alt',
  esc: 'Escape',
  return: 'Enter',
  del: 'Delete',
  spacebar: 'Space',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  pgup: 'PageUp',
  pgdn: 'PageDown',
};

/** Named keys (longer than one character) by lower-case name, for case-insensitive lookup. */
const namedByLowerCase = new Map<string, string>();
for (const name of definitions.keys()) {
  if (name.length > 1) {
    namedByLowerCase.set(name.toLowerCase(), name);
  }
}

/** The canonical key name, or undefined when the name is not a key. Single characters are exact. */
export function canonicalKeyName(name: string): string | undefined {
  if (definitions.has(name)) {
    return name;
  }
  if (name.length <= 1) {
    return undefined;
  }
  const lower = name.toLowerCase();
  return namedByLowerCase.get(lower) ?? ALIASES[lower];
}

function keyDefinition(name: string): KeyDefinition | undefined {
  const canonical = canonicalKeyName(name);
  return canonical === undefined ? undefined : definitions.get(canonical);
}

class KeyParseError extends Error {}

function invalidKey(token: string): KeyParseError {
  return new KeyParseError(
    `${JSON.stringify(token)} is not a valid key. Use a key name such as "Enter", "Tab", "Escape", "ArrowDown", "Backspace", "F5", "a" or "A", joined with "+" for combinations like "Control+Shift+R" or "Control++".`,
  );
}

export interface KeyCombo {
  /** The key pressed last, canonical name. */
  key: string;
  /** Keys held down while it is pressed, in the order given. */
  modifiers: string[];
}

/**
 * Splits "Control+Shift+R" into modifiers and the key. A "+" right after a separator is the plus
 * key itself, so "Control++" is Control held while "+" is pressed.
 */
export function parseKeyCombo(input: string): KeyCombo {
  const tokens: string[] = [];
  let current = '';
  for (const character of input) {
    if (character === '+' && current !== '') {
      tokens.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  if (current !== '') {
    tokens.push(current);
  }
  if (tokens.length === 0) {
    throw new KeyParseError(
      `Key ${JSON.stringify(input)} could not be parsed. Pass a key name such as "Enter" or a combination such as "Control+A".`,
    );
  }
  const names = tokens.map(token => {
    const canonical = canonicalKeyName(token);
    if (canonical === undefined) {
      throw invalidKey(token);
    }
    return canonical;
  });
  if (new Set(names).size !== names.length) {
    throw new KeyParseError(
      `Key ${JSON.stringify(input)} contains duplicate keys. Name each key once, e.g. "Control+Shift+R".`,
    );
  }
  const key = names[names.length - 1] ?? '';
  return {key, modifiers: names.slice(0, -1)};
}

/** The modifier bit of a key name (0 for keys that are not modifiers). */
export function modifierBit(name: string): number {
  return MODIFIER_BITS[name] ?? 0;
}

export interface KeyEventFields {
  key: string;
  code: string;
  windowsVirtualKeyCode: number;
  text: string;
  location: number;
}

/**
 * What one key press sends with the given modifiers held: Shift picks the shifted character;
 * Control, Alt or Meta suppress text, so "Control+A" selects instead of typing "a".
 */
export function keyEventFields(name: string, modifiers: number): KeyEventFields {
  const definition = keyDefinition(name);
  if (!definition) {
    throw invalidKey(name);
  }
  let key = definition.key;
  let text = definition.text;
  if (modifiers & SHIFT_BIT && definition.shiftKey !== undefined) {
    key = definition.shiftKey;
    text = definition.shiftKey;
  }
  if (modifiers & ~SHIFT_BIT) {
    text = '';
  }
  return {
    key,
    code: definition.code,
    windowsVirtualKeyCode: definition.keyCode,
    text,
    location: definition.location,
  };
}

/** Whether a single character is typed with a key press (otherwise it is inserted as text). */
export function isTypeableCharacter(character: string): boolean {
  return character.length === 1 && definitions.has(character);
}
