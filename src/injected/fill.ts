/**
 * In-page side of fill (src/core/browser/input/fill.ts): what kind of control an element is, and
 * the steps done in the page: focusing and selecting a text control before typing into it,
 * setting a value directly, choosing an option of a <select> by its text. Each runs with `this`
 * bound to the element.
 */
import {isElement, isShadowRoot} from './common/composedTree.js';

/** How fill treats an element; fill.ts checks it (classifySchema). */
export type FillKind =
  'select' | 'text' | 'checkable' | 'file' | 'direct' | 'contenteditable' | 'unknown';

/** Roles of the elements filled with "true" or "false". */
const CHECKABLE_ROLES = new Set([
  'checkbox',
  'radio',
  'switch',
  'menuitemcheckbox',
  'menuitemradio',
]);

/** Input types typed into key by key. */
const TEXT_INPUT_TYPES = new Set(['text', 'url', 'tel', 'search', 'password', 'number', 'email']);

/** Input types that cannot be filled (click them). */
const BUTTON_INPUT_TYPES = new Set(['button', 'submit', 'reset', 'image']);

/** Editable content (any element: an SVG element has no isContentEditable, and is not). */
function isEditableContent(element: Element): boolean {
  return 'isContentEditable' in element && element.isContentEditable === true;
}

function inputKind(input: HTMLInputElement): FillKind {
  if (input.type === 'checkbox' || input.type === 'radio') {
    return 'checkable';
  }
  if (input.type === 'file') {
    return 'file';
  }
  if (TEXT_INPUT_TYPES.has(input.type)) {
    return 'text';
  }
  return BUTTON_INPUT_TYPES.has(input.type) ? 'unknown' : 'direct';
}

function fillKind(element: Element): FillKind {
  if (element instanceof HTMLSelectElement) {
    return 'select';
  }
  if (element instanceof HTMLTextAreaElement) {
    return 'text';
  }
  if (element instanceof HTMLInputElement) {
    return inputKind(element);
  }
  if (CHECKABLE_ROLES.has(element.getAttribute('role') ?? '')) {
    return 'checkable';
  }
  return isEditableContent(element) ? 'contenteditable' : 'unknown';
}

/** The kind of control, and whether it is hidden or without size (a styled control's input). */
export function classifyFillTarget(this: Node): {kind: FillKind; hidden: boolean} {
  if (!isElement(this)) {
    return {kind: 'unknown', hidden: false};
  }
  const box = this.getBoundingClientRect();
  const hidden =
    !this.checkVisibility({visibilityProperty: true}) || box.width === 0 || box.height === 0;
  return {kind: fillKind(this), hidden};
}

/** A checkable control's state; its own properties first, as a custom element may keep them. */
export function checkedState(this: Element): 'true' | 'false' | 'mixed' {
  const indeterminate: unknown = Reflect.get(this, 'indeterminate');
  if (indeterminate || this.getAttribute('aria-checked') === 'mixed') {
    return 'mixed';
  }
  const checked: unknown = Reflect.get(this, 'checked');
  return checked === true || this.getAttribute('aria-checked') === 'true' ? 'true' : 'false';
}

/** The text a control holds: an editable element's text, else its value property. */
function textOf(element: HTMLElement): unknown {
  const value: unknown = element.isContentEditable
    ? element.innerText
    : Reflect.get(element, 'value');
  return value;
}

function isDocument(node: Node): node is Document {
  return node.nodeType === Node.DOCUMENT_NODE;
}

/** The focused element of a document or shadow root; undefined for a detached subtree's top. */
function activeElementOf(root: Node): Element | null | undefined {
  return isDocument(root) || isShadowRoot(root) ? root.activeElement : undefined;
}

/** Selects all the content of a focused text control, so typed text replaces it. */
function selectContent(element: HTMLElement): void {
  if (element.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  } else if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    element.select();
  }
}

/**
 * Focuses a text control and selects its content, so typed text replaces it. Reports whether the
 * control takes several lines (Enter then types a line break instead of submitting).
 */
export function prepareText(
  this: HTMLElement,
  value: string,
): {state: 'same' | 'unfocused' | 'ready'; multiline: boolean} {
  if (textOf(this) === value) {
    return {state: 'same', multiline: false};
  }
  this.focus();
  const active = activeElementOf(this.getRootNode());
  const focused = active === this || (this.isContentEditable && this.contains(active ?? null));
  const multiline = this instanceof HTMLTextAreaElement || this.isContentEditable;
  if (!focused) {
    return {state: 'unfocused', multiline};
  }
  selectContent(this);
  return {state: 'ready', multiline};
}

/** Sets a value directly and fires the events a user edit would. Returns the value it ended with. */
export function setValue(this: HTMLElement, value: string): unknown {
  if (this.isContentEditable) {
    this.innerText = value;
  } else {
    Reflect.set(this, 'value', value);
  }
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return textOf(this);
}

/** Leaves the control (its change event fires). */
export function blurElement(this: HTMLElement): boolean {
  this.blur();
  return true;
}

/** The text the control holds now. */
export function readText(this: HTMLElement): unknown {
  return textOf(this);
}

/** Whether the element is disabled (a styled control's hidden input waits for this to end). */
export function isDisabled(this: Element): boolean {
  return this.matches(':disabled');
}

/** Clicks the element in the page, as a click on its label would (a hidden styled input). */
export function clickInPage(this: HTMLElement): boolean {
  this.click();
  return true;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function optionText(option: HTMLOptionElement): string {
  return normalize(option.label || option.textContent || '');
}

/** How many option texts a missing option's answer lists. */
const LISTED_OPTIONS = 25;

/** Chooses an option of a <select> by its visible text (or, failing that, its value). */
export function selectByText(
  this: HTMLSelectElement,
  text: string,
): {state: 'ok' | 'detached' | 'disabled' | 'hidden' | 'missing'; options?: string[]} {
  if (!this.isConnected) {
    return {state: 'detached'};
  }
  if (this.disabled) {
    return {state: 'disabled'};
  }
  if (!this.checkVisibility({visibilityProperty: true})) {
    return {state: 'hidden'};
  }
  const options = [...this.options];
  const wanted = normalize(text);
  const option = options.find(o => optionText(o) === wanted) ?? options.find(o => o.value === text);
  if (!option) {
    return {state: 'missing', options: options.slice(0, LISTED_OPTIONS).map(optionText)};
  }
  const before = options.map(o => o.selected).join();
  if (this.multiple) {
    for (const o of options) {
      o.selected = o === option;
    }
  } else {
    option.selected = true;
  }
  if (options.map(o => o.selected).join() !== before) {
    this.dispatchEvent(new Event('input', {bubbles: true}));
    this.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return {state: 'ok'};
}
