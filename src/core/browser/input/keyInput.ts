/**
 * Keyboard input over the page's cdp: key combinations (modifiers held in order and released in
 * reverse) and typing text, with the key events a US layout produces.
 */
import type {Protocol} from 'puppeteer-core';
import {prepareInput} from './actions.js';
import {isTypeableCharacter, keyEventFields, modifierBit, type KeyCombo} from './keyboard.js';
import type {PageState} from '../pages/PageState.js';

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
 * Characters typed per slice. The DevTools pipe and the renderer are shared: a slice's key events
 * are answered before the next slice goes, so other pages' messages wait at most one slice, and a
 * cancel stops typing within one.
 */
export const TYPING_SLICE_CHARACTERS = 50;

/** Lets the other calls' work run between two slices of typing. */
function yieldToOthers(): Promise<void> {
  return new Promise(resolve => setImmediate(resolve));
}

/**
 * Types text into whatever has focus: characters on the keyboard layout as key presses (keydown,
 * keypress, input, keyup), others (accents, emoji) as inserted text. Sent in slices of
 * TYPING_SLICE_CHARACTERS, each answered before the next; `signal` stops it between slices.
 */
export async function typeText(
  state: PageState,
  text: string,
  signal?: AbortSignal,
): Promise<void> {
  await prepareInput(state);
  const characters = Array.from(text);
  for (let start = 0; start < characters.length; start += TYPING_SLICE_CHARACTERS) {
    signal?.throwIfAborted();
    if (start > 0) {
      await yieldToOthers();
      signal?.throwIfAborted();
    }
    let batch: Protocol.Input.DispatchKeyEventRequest[] = [];
    for (const character of characters.slice(start, start + TYPING_SLICE_CHARACTERS)) {
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
}
