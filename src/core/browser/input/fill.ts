/**
 * fill and fill_form on one element: a <select> by option text, a checkbox/radio/switch by
 * "true"/"false", a text field or contenteditable by typing like a user (focus, select what is
 * there, then one key press per character: keydown, keypress, beforeinput, input, keyup; change
 * follows natively when focus leaves the field), other inputs (date, color, range…) by setting
 * the value with input and change events. The in-page steps are src/injected/fill.ts.
 */
import type {Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {
  ActionError,
  elementGone,
  interactionFailure,
  onElement,
  prepareInput,
  retry,
  type ActOptions,
} from './actions.js';
import {waitForActionable} from './actionability.js';
import {keyEvents, sendKeys} from './keyInput.js';
import {elementRect, type Rect, type ResolvedElement} from './elements.js';
import {isTypeableCharacter} from './keyboard.js';
import {clickElement} from './pointer.js';
import {
  BLUR_ELEMENT,
  CHECKED_STATE,
  CLASSIFY_FILL_TARGET,
  CLICK_IN_PAGE,
  IS_DISABLED,
  PREPARE_TEXT,
  READ_TEXT,
  SELECT_BY_TEXT,
  SET_VALUE,
} from '../injectedSources.generated.js';
import type {PageState} from '../pages/PageState.js';

const classifySchema = z.object({
  kind: z.enum(['select', 'text', 'checkable', 'file', 'direct', 'contenteditable', 'unknown']),
  hidden: z.boolean(),
});

const prepareSchema = z.object({
  state: z.enum(['same', 'unfocused', 'ready']),
  multiline: z.boolean(),
});

const selectSchema = z.object({
  state: z.enum(['ok', 'detached', 'disabled', 'hidden', 'missing']),
  options: z.array(z.string()).optional(),
});

export interface FillOptions extends ActOptions {
  value: string;
  /**
   * Leave the field after typing, as a user moving on to the next field does (fill_form does so
   * for every field but the last): its change event then fires here, not during the next fill.
   */
  commit?: boolean;
}

/**
 * Values up to this long are typed key by key; a longer one is inserted as one edit except for its
 * last character, which is typed, so key listeners still run once (a paste-like fill stays fast).
 */
const TYPED_LENGTH_LIMIT = 256;

/**
 * The key events typing `text` produces. Characters on the keyboard layout are key presses; other
 * characters (accents, emoji) are inserted as text, as an input method would. A line break is
 * Enter only where it types one (textarea, contenteditable); a single-line field drops it, as a
 * paste would.
 */
function typingEvents(
  text: string,
  multiline: boolean,
): (Protocol.Input.DispatchKeyEventRequest | {insert: string})[] {
  const events: (Protocol.Input.DispatchKeyEventRequest | {insert: string})[] = [];
  for (const character of text) {
    if (character === '\r' || character === '\n') {
      if (multiline) {
        events.push(keyEvents('Enter', 0, 'down'), keyEvents('Enter', 0, 'up'));
      }
      continue;
    }
    if (isTypeableCharacter(character)) {
      events.push(keyEvents(character, 0, 'down'), keyEvents(character, 0, 'up'));
    } else {
      events.push({insert: character});
    }
  }
  return events;
}

/** Sends typing events in order: key events back to back, inserted text between them. */
async function type(
  state: PageState,
  events: readonly (Protocol.Input.DispatchKeyEventRequest | {insert: string})[],
): Promise<void> {
  let batch: Protocol.Input.DispatchKeyEventRequest[] = [];
  for (const event of events) {
    if ('insert' in event) {
      await sendKeys(state, batch);
      batch = [];
      await state.cdp.send('Input.insertText', {text: event.insert});
    } else {
      batch.push(event);
    }
  }
  await sendKeys(state, batch);
}

async function fillText(
  state: PageState,
  element: ResolvedElement,
  options: FillOptions,
): Promise<Rect> {
  const {value} = options;
  const target = await waitForActionable(state, element, {
    ...options,
    enabled: true,
    editable: true,
    kind: 'focus',
  });
  const prepared = await onElement(state, element, PREPARE_TEXT, [value], prepareSchema);
  if (prepared.state === 'same') {
    return target.rect;
  }
  if (prepared.state === 'unfocused') {
    // Something took the focus away (a widget that moves it): set the value the direct way.
    await onElement(state, element, SET_VALUE, [value], z.string());
    return target.rect;
  }
  await prepareInput(state);
  if (value === '') {
    // Deleting the selected text, as a user clearing the field would.
    await sendKeys(state, [keyEvents('Backspace', 0, 'down'), keyEvents('Backspace', 0, 'up')]);
  } else {
    // Code points, as a keyboard produces them (an emoji sequence is inserted piece by piece).
    const characters = Array.from(value);
    if (characters.length > TYPED_LENGTH_LIMIT) {
      const head = characters.slice(0, -1).join('');
      await state.cdp.send('Input.insertText', {
        text: prepared.multiline ? head : head.replace(/[\r\n]/g, ''),
      });
      await type(state, typingEvents(characters.slice(-1).join(''), prepared.multiline));
    } else {
      await type(state, typingEvents(value, prepared.multiline));
    }
  }
  const result = await onElement(state, element, READ_TEXT, [], z.string());
  if (value === '' && result !== '') {
    await onElement(state, element, SET_VALUE, [value], z.string());
  }
  if (options.commit === true) {
    await onElement(state, element, BLUR_ELEMENT, [], z.boolean());
  }
  return target.rect;
}

async function fillSelect(
  state: PageState,
  element: ResolvedElement,
  options: FillOptions,
): Promise<Rect> {
  const {value} = options;
  const target = await waitForActionable(state, element, {
    ...options,
    enabled: true,
    kind: 'focus',
  });
  const result = await onElement(state, element, SELECT_BY_TEXT, [value], selectSchema);
  if (result.state === 'missing') {
    const listed = (result.options ?? []).map(option => JSON.stringify(option)).join(', ');
    throw interactionFailure(
      element.uid,
      `Could not find option with text "${value}". Options: ${listed}.`,
    );
  }
  if (result.state === 'detached') {
    throw elementGone(element.uid);
  }
  return target.rect;
}

async function fillCheckable(
  state: PageState,
  element: ResolvedElement,
  options: FillOptions & {hidden: boolean},
): Promise<Rect> {
  const {value} = options;
  if (value !== 'true' && value !== 'false') {
    throw new ActionError(
      `Checkboxes, radio boxes and toggles require "true" or "false" value, but ${value} was used`,
    );
  }
  const current = await onElement(
    state,
    element,
    CHECKED_STATE,
    [],
    z.enum(['true', 'false', 'mixed']),
  );
  const rect = (await elementRect(state, element)) ?? {x: 0, y: 0, width: 0, height: 0};
  if (current === value) {
    return rect;
  }
  if (options.hidden) {
    // A styled control often hides the native input; clicking it in the page toggles it the
    // same way a click on its label would.
    await retry(element.uid, options, async () => {
      const disabled = await onElement(state, element, IS_DISABLED, [], z.boolean());
      return disabled ? {waiting: 'disabled'} : {done: true};
    });
    await onElement(state, element, CLICK_IN_PAGE, [], z.boolean());
    return rect;
  }
  return clickElement(state, element, {...options, clickCount: 1});
}

async function fillDirect(
  state: PageState,
  element: ResolvedElement,
  options: FillOptions,
): Promise<Rect> {
  const {value} = options;
  const target = await waitForActionable(state, element, {
    ...options,
    enabled: true,
    editable: true,
    kind: 'focus',
  });
  const result = await onElement(state, element, SET_VALUE, [value], z.string());
  if (result !== value) {
    throw interactionFailure(
      element.uid,
      `The input did not accept the value "${value}" (it now holds "${result}"). Use the format the input expects, e.g. "2024-05-31" for a date or "#ff0000" for a color.`,
    );
  }
  return target.rect;
}

/** Fills one element according to its kind (see the module comment). */
export async function fillElement(
  state: PageState,
  element: ResolvedElement,
  options: FillOptions,
): Promise<Rect> {
  const {kind, hidden} = await onElement(state, element, CLASSIFY_FILL_TARGET, [], classifySchema);
  switch (kind) {
    case 'select':
      return fillSelect(state, element, options);
    case 'checkable':
      return fillCheckable(state, element, {...options, hidden});
    case 'text':
    case 'contenteditable':
      return fillText(state, element, options);
    case 'direct':
      return fillDirect(state, element, options);
    case 'file':
      throw interactionFailure(element.uid, 'It is a file input. Use upload_file to choose files.');
    case 'unknown':
      throw interactionFailure(
        element.uid,
        'Element cannot be filled out. Fill text fields, selects, checkboxes, radios or switches; use click for buttons and links.',
      );
  }
}
