/**
 * Mouse, keyboard and form actions on snapshot elements, over the page's own CDP session. Before
 * acting, an element must be actionable: attached, visible with a non-empty box, enabled (and
 * editable for text), and in the same place on two reads. Each check is one or two round trips
 * and is repeated only while the element is not ready, so an action on a ready element costs a
 * handful of round trips and no fixed delay.
 */
import type {Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {elementRect, type Rect, type ResolvedElement} from './elements.js';
import {callFunctionInPage} from './evaluation.js';
import {isTypeableCharacter, keyEventFields, modifierBit, type KeyCombo} from './keyboard.js';
import {PageFeature, type PageState} from './PageState.js';

export interface Point {
  x: number;
  y: number;
}

/** Errors whose text is meant for the agent as is. */
export class ActionError extends Error {}

export function interactionFailure(uid: string, reason: string): ActionError {
  return new ActionError(`Failed to interact with the element with uid ${uid}. ${reason}`);
}

function notInteractive(uid: string, lastState: string): ActionError {
  const detail: Record<string, string> = {
    disabled: ' It stayed disabled.',
    readonly: ' It stayed read-only.',
    hidden: ' It stayed hidden or without size.',
    moving: ' It kept moving.',
  };
  return interactionFailure(
    uid,
    `The element did not become interactive within the configured timeout.${detail[lastState] ?? ''} Take a new snapshot (take_snapshot) to check its state.`,
  );
}

export function elementGone(uid: string): ActionError {
  return new ActionError(
    `Element with uid ${uid} no longer exists on the page. Take a new snapshot (take_snapshot) and use its uids.`,
  );
}

// In-page functions. They run with `this` bound to the element (Runtime.callFunctionOn) and
// return plain JSON, checked with zod on the way back.

/** Actionability: attached, enabled/editable if asked, visible with size; scrolls into view. */
const CHECK_ACTIONABLE = `function (needEnabled, needEditable) {
  const node = this;
  if (!node.isConnected) return {state: 'detached'};
  const element = node.nodeType === 1 ? node : node.parentElement;
  if (!element) return {state: 'detached'};
  if (needEnabled && element.matches(':disabled')) return {state: 'disabled'};
  if (needEditable && (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && element.readOnly) return {state: 'readonly'};
  let rect;
  if (node === element) {
    rect = element.getBoundingClientRect();
  } else {
    const range = document.createRange();
    range.selectNodeContents(node);
    rect = range.getBoundingClientRect();
  }
  if (!element.checkVisibility({visibilityProperty: true}) || rect.width === 0 || rect.height === 0) return {state: 'hidden'};
  const width = window.innerWidth;
  const height = window.innerHeight;
  const inView = rect.top >= 0 && rect.left >= 0 && rect.bottom <= height && rect.right <= width;
  if (!inView) element.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  return {state: 'ok', width, height};
}`;

const checkSchema = z.object({
  state: z.enum(['ok', 'detached', 'disabled', 'readonly', 'hidden']),
  width: z.number().optional(),
  height: z.number().optional(),
});

/** What kind of control `fill` deals with, and whether it can be seen at all. */
const CLASSIFY = `function () {
  const el = this;
  if (el.nodeType !== 1) return {kind: 'unknown', hidden: false};
  const box = el.getBoundingClientRect();
  const hidden = !el.checkVisibility({visibilityProperty: true}) || box.width === 0 || box.height === 0;
  let kind = 'unknown';
  if (el instanceof HTMLSelectElement) kind = 'select';
  else if (el instanceof HTMLTextAreaElement) kind = 'text';
  else if (el instanceof HTMLInputElement) {
    switch (el.type) {
      case 'checkbox': case 'radio': kind = 'checkable'; break;
      case 'file': kind = 'file'; break;
      case 'text': case 'url': case 'tel': case 'search': case 'password': case 'number': case 'email': kind = 'text'; break;
      case 'button': case 'submit': case 'reset': case 'image': kind = 'unknown'; break;
      default: kind = 'direct';
    }
  } else {
    const role = el.getAttribute('role');
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' || role === 'menuitemradio') kind = 'checkable';
    else if (el.isContentEditable) kind = 'contenteditable';
  }
  return {kind, hidden};
}`;

const classifySchema = z.object({
  kind: z.enum(['select', 'text', 'checkable', 'file', 'direct', 'contenteditable', 'unknown']),
  hidden: z.boolean(),
});

const CHECKED_STATE = `function () {
  if (this.indeterminate || this.getAttribute('aria-checked') === 'mixed') return 'mixed';
  return this.checked === true || this.getAttribute('aria-checked') === 'true' ? 'true' : 'false';
}`;

/** Focuses a text control and selects its content so inserted text replaces it. */
const PREPARE_TEXT = `function (value) {
  const el = this;
  const current = el.isContentEditable ? el.innerText : el.value;
  if (current === value) return 'same';
  el.focus();
  const root = el.getRootNode();
  const focused = root.activeElement === el || (el.isContentEditable && el.contains(root.activeElement));
  if (!focused) return 'unfocused';
  if (el.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  } else {
    el.select();
  }
  return 'ready';
}`;

/** Sets a value directly and fires the events a user edit would. Returns the value it ended with. */
const SET_VALUE = `function (value) {
  const el = this;
  if (el.isContentEditable) el.innerText = value; else el.value = value;
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return el.isContentEditable ? el.innerText : el.value;
}`;

/** After text was inserted: the change event a committed edit fires, and the resulting value. */
const FINISH_TEXT = `function () {
  const el = this;
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return el.isContentEditable ? el.innerText : el.value;
}`;

/** Chooses an option of a <select> by its visible text (or, failing that, its value). */
const SELECT_BY_TEXT = `function (text) {
  const select = this;
  if (!select.isConnected) return {state: 'detached'};
  if (select.disabled) return {state: 'disabled'};
  if (!select.checkVisibility({visibilityProperty: true})) return {state: 'hidden'};
  const normalize = s => s.replace(/\\s+/g, ' ').trim();
  const options = [...select.options];
  const wanted = normalize(text);
  const option = options.find(o => normalize(o.label || o.textContent || '') === wanted) ?? options.find(o => o.value === text);
  if (!option) return {state: 'missing', options: options.slice(0, 25).map(o => normalize(o.label || o.textContent || ''))};
  const before = options.map(o => o.selected).join();
  if (select.multiple) { for (const o of options) o.selected = o === option; } else { option.selected = true; }
  if (options.map(o => o.selected).join() !== before) {
    select.dispatchEvent(new Event('input', {bubbles: true}));
    select.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return {state: 'ok'};
}`;

const selectSchema = z.object({
  state: z.enum(['ok', 'detached', 'disabled', 'hidden', 'missing']),
  options: z.array(z.string()).optional(),
});

/**
 * A native <option> of a drop-down <select> has no box to click: choose it through its select, as
 * a user picking it from the list would. 'no' = not such an option (click it like anything else).
 */
const SELECT_OPTION = `function () {
  const option = this;
  if (!(option instanceof HTMLOptionElement)) return {state: 'no'};
  const select = option.closest('select');
  if (!select || select.multiple) return {state: 'no'};
  if (!option.isConnected) return {state: 'detached'};
  if (select.disabled || option.disabled || (option.parentElement instanceof HTMLOptGroupElement && option.parentElement.disabled)) return {state: 'disabled'};
  if (!select.checkVisibility({visibilityProperty: true})) return {state: 'hidden'};
  const r = select.getBoundingClientRect();
  if (!option.selected) {
    option.selected = true;
    select.dispatchEvent(new Event('input', {bubbles: true}));
    select.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return {state: 'ok', rect: {x: r.x, y: r.y, width: r.width, height: r.height}};
}`;

const selectOptionSchema = z.object({
  state: z.enum(['ok', 'no', 'detached', 'disabled', 'hidden']),
  rect: z.object({x: z.number(), y: z.number(), width: z.number(), height: z.number()}).optional(),
});

const FILE_INPUT_INFO = `function () {
  const el = this;
  if (el instanceof HTMLInputElement && el.type === 'file') return {file: true, multiple: el.multiple, disabled: el.disabled};
  return {file: false, multiple: false, disabled: false};
}`;

const fileInputSchema = z.object({file: z.boolean(), multiple: z.boolean(), disabled: z.boolean()});

/** Focus emulation makes every tab behave as the focused one (focus events, :focus styles). */
const focusFeature = new PageFeature<Promise<void>>('inputFocus', state =>
  state.session
    .send('Emulation.setFocusEmulationEnabled', {enabled: true})
    .then(() => undefined)
    .catch(() => undefined),
);

async function callOn<T>(
  state: PageState,
  objectId: string,
  declaration: string,
  args: readonly unknown[],
  schema: z.ZodType<T>,
): Promise<T> {
  // Bounded and raced against dialogs: a page handler the helper triggers may open one.
  const reply = await callFunctionInPage(state, {
    functionDeclaration: declaration,
    objectId,
    arguments: args.map(value => ({value})),
    returnByValue: true,
    awaitPromise: true,
    userGesture: true,
  });
  if (reply.exceptionDetails) {
    const details = reply.exceptionDetails;
    throw new Error(details.exception?.description ?? details.text);
  }
  const parsed = schema.safeParse(reply.result.value);
  if (!parsed.success) {
    throw new Error(`Unexpected reply from the page: ${parsed.error.message}`);
  }
  return parsed.data;
}

/** A call on an element whose document went away (navigation, frame removal) means it is gone. */
async function onElement<T>(
  state: PageState,
  element: ResolvedElement,
  declaration: string,
  args: readonly unknown[],
  schema: z.ZodType<T>,
): Promise<T> {
  try {
    return await callOn(state, element.objectId, declaration, args, schema);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/Cannot find context|Could not find object|Execution context was destroyed/i.test(text)) {
      throw elementGone(element.uid);
    }
    throw error;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise(resolve => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, {once: true});
  });
}

export interface ActOptions {
  /** How long the element may take to become actionable. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

type Attempt<T> = {done: T} | {waiting: string};

/**
 * Runs `attempt` until it succeeds or the time is up. The first try is immediate; later ones back
 * off from 10 ms to 100 ms, so a ready element costs nothing extra.
 */
async function retry<T>(
  uid: string,
  options: ActOptions,
  attempt: () => Promise<Attempt<T>>,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = 5;
  for (;;) {
    options.signal?.throwIfAborted();
    const result = await attempt();
    if ('done' in result) {
      return result.done;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw notInteractive(uid, result.waiting);
    }
    delay = Math.min(delay * 2, 100);
    await sleep(Math.min(delay, remaining), options.signal);
  }
}

export interface Actionable {
  /** Where to point the mouse, in viewport CSS pixels. */
  point: Point;
  /** The element's box in viewport CSS pixels. */
  rect: Rect;
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** Waits until the element can take pointer input and returns where to aim. */
export async function waitForActionable(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions & {enabled: boolean; editable?: boolean},
): Promise<Actionable> {
  const inChildFrame = element.frameId !== state.mainFrameId;
  return retry<Actionable>(element.uid, options, async () => {
    const check = await onElement(
      state,
      element,
      CHECK_ACTIONABLE,
      [options.enabled, options.editable ?? false],
      checkSchema,
    );
    if (check.state === 'detached') {
      throw elementGone(element.uid);
    }
    if (check.state !== 'ok') {
      return {waiting: check.state};
    }
    if (inChildFrame) {
      // The frame itself may be scrolled out of the top-level viewport.
      await state.session
        .send('DOM.scrollIntoViewIfNeeded', {backendNodeId: element.backendNodeId})
        .catch(() => undefined);
    }
    const first = await elementRect(state, element.backendNodeId);
    const second = first && (await elementRect(state, element.backendNodeId));
    if (!first || !second) {
      return {waiting: 'hidden'};
    }
    if (!sameRect(first, second) || second.width <= 0 || second.height <= 0) {
      return {waiting: 'moving'};
    }
    let x = second.x + second.width / 2;
    let y = second.y + second.height / 2;
    if (!inChildFrame && check.width !== undefined && check.height !== undefined) {
      // An element larger than the viewport: aim at the visible part.
      x = Math.min(
        Math.max(x, Math.max(second.x, 0) + 1),
        Math.min(second.x + second.width, check.width) - 1,
      );
      y = Math.min(
        Math.max(y, Math.max(second.y, 0) + 1),
        Math.min(second.y + second.height, check.height) - 1,
      );
    }
    return {done: {point: {x, y}, rect: second}};
  });
}

async function prepareInput(state: PageState): Promise<void> {
  await focusFeature.get(state);
}

// Mouse ----------------------------------------------------------------------------------------

function mouse(
  state: PageState,
  params: Protocol.Input.DispatchMouseEventRequest,
): Promise<unknown> {
  return state.session.send('Input.dispatchMouseEvent', params);
}

/**
 * Move, then press and release `clickCount` times. The events are sent back to back: CDP keeps
 * their order, and a click handler that opens a dialog holds the rest until it is handled.
 */
export async function clickAt(state: PageState, point: Point, clickCount: number): Promise<void> {
  await prepareInput(state);
  const sent: Promise<unknown>[] = [mouse(state, {type: 'mouseMoved', x: point.x, y: point.y})];
  for (let count = 1; count <= clickCount; count++) {
    const press = {x: point.x, y: point.y, button: 'left' as const, clickCount: count};
    sent.push(mouse(state, {type: 'mousePressed', buttons: 1, ...press}));
    sent.push(mouse(state, {type: 'mouseReleased', buttons: 0, ...press}));
  }
  await Promise.all(sent);
}

export async function moveTo(state: PageState, point: Point): Promise<void> {
  await prepareInput(state);
  await mouse(state, {type: 'mouseMoved', x: point.x, y: point.y});
}

/** Clicks an element (an <option> of a drop-down is chosen through its <select>). */
export async function clickElement(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions & {clickCount: number},
): Promise<Rect> {
  if (options.clickCount === 1) {
    const viaSelect = await retry<z.infer<typeof selectOptionSchema>>(
      element.uid,
      options,
      async () => {
        const result = await onElement(state, element, SELECT_OPTION, [], selectOptionSchema);
        if (result.state === 'detached') {
          throw elementGone(element.uid);
        }
        if (result.state === 'ok' || result.state === 'no') {
          return {done: result};
        }
        return {waiting: result.state};
      },
    );
    if (viaSelect.state === 'ok') {
      return viaSelect.rect ?? {x: 0, y: 0, width: 0, height: 0};
    }
  }
  const target = await waitForActionable(state, element, {...options, enabled: true});
  await clickAt(state, target.point, options.clickCount);
  return target.rect;
}

export async function hoverElement(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions,
): Promise<Rect> {
  const target = await waitForActionable(state, element, {...options, enabled: false});
  await moveTo(state, target.point);
  return target.rect;
}

/**
 * Drags one element onto another with real mouse input (press, move in steps, release), which
 * drives both HTML drag and drop and pointer-event based dragging.
 */
export async function dragElement(
  state: PageState,
  from: ResolvedElement,
  to: ResolvedElement,
  options: ActOptions,
): Promise<Rect> {
  const source = await waitForActionable(state, from, {...options, enabled: false});
  const target = await waitForActionable(state, to, {...options, enabled: false});
  await prepareInput(state);
  const {x, y} = source.point;
  await mouse(state, {type: 'mouseMoved', x, y});
  await mouse(state, {type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1});
  try {
    // A few intermediate moves: drag starts after a threshold, and dragenter/dragover need moves
    // over the target.
    const steps = 3;
    for (let step = 1; step <= steps; step++) {
      await mouse(state, {
        type: 'mouseMoved',
        x: x + ((target.point.x - x) * step) / steps,
        y: y + ((target.point.y - y) * step) / steps,
        button: 'left',
        buttons: 1,
      });
    }
    await mouse(state, {
      type: 'mouseMoved',
      x: target.point.x,
      y: target.point.y,
      button: 'left',
      buttons: 1,
    });
  } finally {
    await mouse(state, {
      type: 'mouseReleased',
      x: target.point.x,
      y: target.point.y,
      button: 'left',
      buttons: 0,
      clickCount: 1,
    });
  }
  return target.rect;
}

// Keyboard -------------------------------------------------------------------------------------

function keyEvents(
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
async function sendKeys(
  state: PageState,
  events: Protocol.Input.DispatchKeyEventRequest[],
): Promise<void> {
  const results = await Promise.allSettled(
    events.map(event => state.session.send('Input.dispatchKeyEvent', event)),
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
    await state.session.send('Input.insertText', {text: character});
  }
  await sendKeys(state, batch);
}

// Forms ----------------------------------------------------------------------------------------

export interface FillOptions extends ActOptions {
  value: string;
}

/**
 * Fills one element: a <select> by option text, a checkbox/radio/switch by "true"/"false", a text
 * field or contenteditable by replacing its text (inserted as one edit, firing input and change),
 * other inputs (date, color, range…) by setting the value with input and change events.
 */
export async function fillElement(
  state: PageState,
  element: ResolvedElement,
  options: FillOptions,
): Promise<Rect> {
  const {value} = options;
  const {kind, hidden} = await onElement(state, element, CLASSIFY, [], classifySchema);
  switch (kind) {
    case 'select': {
      const target = await waitForActionable(state, element, {...options, enabled: true});
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
    case 'checkable': {
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
      const rect = (await elementRect(state, element.backendNodeId)) ?? {
        x: 0,
        y: 0,
        width: 0,
        height: 0,
      };
      if (current === value) {
        return rect;
      }
      if (hidden) {
        // A styled control often hides the native input; clicking it in the page toggles it the
        // same way a click on its label would.
        await retry(element.uid, options, async () => {
          const disabled = await onElement(
            state,
            element,
            'function () { return this.matches(":disabled"); }',
            [],
            z.boolean(),
          );
          return disabled ? {waiting: 'disabled'} : {done: true};
        });
        await onElement(
          state,
          element,
          'function () { this.click(); return true; }',
          [],
          z.boolean(),
        );
        return rect;
      }
      return clickElement(state, element, {...options, clickCount: 1});
    }
    case 'text':
    case 'contenteditable': {
      const target = await waitForActionable(state, element, {
        ...options,
        enabled: true,
        editable: true,
      });
      const prepared = await onElement(
        state,
        element,
        PREPARE_TEXT,
        [value],
        z.enum(['same', 'unfocused', 'ready']),
      );
      if (prepared === 'same') {
        return target.rect;
      }
      if (prepared === 'unfocused' || value === '') {
        await onElement(state, element, SET_VALUE, [value], z.string());
        return target.rect;
      }
      await prepareInput(state);
      await state.session.send('Input.insertText', {text: value});
      await onElement(state, element, FINISH_TEXT, [], z.string());
      return target.rect;
    }
    case 'direct': {
      const target = await waitForActionable(state, element, {
        ...options,
        enabled: true,
        editable: true,
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
    case 'file':
      throw interactionFailure(element.uid, 'It is a file input. Use upload_file to choose files.');
    case 'unknown':
      throw interactionFailure(
        element.uid,
        'Element cannot be filled out. Fill text fields, selects, checkboxes, radios or switches; use click for buttons and links.',
      );
  }
}

// Files ----------------------------------------------------------------------------------------

const chooserSchema = z.object({backendNodeId: z.number(), mode: z.string()});

/**
 * Sets files on a file input; for any other element (a styled "Upload" button), clicks it and
 * answers the file chooser it opens within 3 s.
 */
export async function uploadFiles(
  state: PageState,
  element: ResolvedElement,
  files: string[],
  options: ActOptions,
): Promise<void> {
  const info = await onElement(state, element, FILE_INPUT_INFO, [], fileInputSchema);
  if (info.file) {
    if (files.length > 1 && !info.multiple) {
      throw new ActionError(
        'Multiple file uploads only work with <input type=file multiple>. Upload one file, or use an input that accepts several.',
      );
    }
    await state.session.send('DOM.setFileInputFiles', {
      files,
      backendNodeId: element.backendNodeId,
    });
    return;
  }
  await state.session.send('Page.setInterceptFileChooserDialog', {enabled: true});
  let stop: () => void = () => undefined;
  try {
    const chooser = new Promise<z.infer<typeof chooserSchema> | undefined>(resolve => {
      const timer = setTimeout(() => resolve(undefined), 3_000);
      const listener = (event: Protocol.Page.FileChooserOpenedEvent): void => {
        const parsed = chooserSchema.safeParse(event);
        if (parsed.success) {
          resolve(parsed.data);
        }
      };
      state.session.on('Page.fileChooserOpened', listener);
      stop = () => {
        clearTimeout(timer);
        state.session.off('Page.fileChooserOpened', listener);
      };
    });
    let opened: z.infer<typeof chooserSchema> | undefined;
    try {
      await clickElement(state, element, {...options, clickCount: 1});
      opened = await chooser;
    } catch {
      opened = undefined;
    }
    if (!opened) {
      throw new ActionError(
        'Failed to upload file. The element could not accept the file directly, and clicking it did not trigger a file chooser.',
      );
    }
    if (files.length > 1 && opened.mode !== 'selectMultiple') {
      throw new ActionError(
        'Multiple file uploads only work with <input type=file multiple>. Upload one file, or use an input that accepts several.',
      );
    }
    await state.session.send('DOM.setFileInputFiles', {files, backendNodeId: opened.backendNodeId});
  } finally {
    stop();
    await state.session
      .send('Page.setInterceptFileChooserDialog', {enabled: false})
      .catch(() => undefined);
  }
}
