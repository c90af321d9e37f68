/**
 * Keyboard input over the page's cdp: key combinations (modifiers held in order and released in
 * reverse) and typing text, with the key events a US layout produces.
 */
import type {Protocol} from 'puppeteer-core';
import {prepareInput} from './actions.js';
import {isTypeableCharacter, keyEventFields, modifierBit, type KeyCombo} from './keyboard.js';
import type {PageState} from './PageState.js';

export function keyEvents(
  name: string,
  modifiers: number,
  kind: 'down' | 'up',
): Protocol.Input.DispatchKeyEventRequest {
  const fields = keyEventFields(name, modifiers);
  const common = {
    modifiers,
    key: fields.key,
    code: fields.code,
    windowsVirtualKeyCode: fields.windowsVirtualKeyCode,
    location: fields.location,
    isKeypad: fields.location === 3,
  };
  if (kind === 'up') {
    return {type: 'keyUp', ...common};
  }
  return fields.text
    ? {type: 'keyDown', text: fields.text, unmodifiedText: fields.text, ...common}
    : {type: 'rawKeyDown', ...common};
}

/** Sends key events back to back (CDP keeps their order) and reports the first failure. */
export async function sendKeys(
  state: PageState,
  events: Protocol.Input.DispatchKeyEventRequest[],
): Promise<void> {
  const results = await Promise.allSettled(
    events.map(event => state.cdp.send('Input.dispatchKeyEvent', event)),
  );
  for (const result of results) {
    if (result.status === 'rejected') {
      throw result.reason instanceof Error ? result.reason : new Error(String(result.reason));
    }
  }
}

/**
 * Holds the modifiers, presses the key, and releases the modifiers in reverse order. The releases
 * are queued with the presses, so they go out even when the key press fails.
 */
export async function pressCombo(state: PageState, combo: KeyCombo): Promise<void> {
  await prepareInput(state);
  const events: Protocol.Input.DispatchKeyEventRequest[] = [];
  let modifiers = 0;
  for (const modifier of combo.modifiers) {
    modifiers |= modifierBit(modifier);
    events.push(keyEvents(modifier, modifiers, 'down'));
  }
  events.push(keyEvents(combo.key, modifiers, 'down'), keyEvents(combo.key, modifiers, 'up'));
  for (const modifier of [...combo.modifiers].reverse()) {
    modifiers &= ~modifierBit(modifier);
    events.push(keyEvents(modifier, modifiers, 'up'));
  }
  await sendKeys(state, events);
}

/**
 * Types text into whatever has focus: characters on the keyboard layout as key presses (keydown,
 * keypress, input, keyup), others (accents, emoji) as inserted text.
 */
export async function typeText(state: PageState, text: string): Promise<void> {
  await prepareInput(state);
  let batch: Protocol.Input.DispatchKeyEventRequest[] = [];
  for (const character of text) {
    if (isTypeableCharacter(character)) {
      batch.push(keyEvents(character, 0, 'down'), keyEvents(character, 0, 'up'));
      continue;
    }
    await sendKeys(state, batch);
    batch = [];
    await state.cdp.send('Input.insertText', {text: character});
  }
  await sendKeys(state, batch);
}
