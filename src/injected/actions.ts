/**
 * In-page pieces every element action shares (src/core/browser/input/actions.ts): waiting for the
 * next frame, and choosing a drop-down's <option> through its select.
 */
import {nextFrame} from './common/frameClock.js';

/** Bound on the wait for a frame (a tab in the background draws none). */
const FRAME_WAIT_MS = 100;

/**
 * One animation frame of the top page, capped: a scroll that an iframe passed up to its parent
 * lands asynchronously, so the element's box is read again only after it. True when a frame came.
 */
export function nextAnimationFrame(): Promise<boolean> {
  return nextFrame(FRAME_WAIT_MS);
}

/** The shape selectOptionSchema of actions.ts checks. */
export interface OptionChoice {
  state: 'ok' | 'no' | 'detached' | 'disabled' | 'hidden';
  rect?: {x: number; y: number; width: number; height: number};
}

function isDisabledOption(select: HTMLSelectElement, option: HTMLOptionElement): boolean {
  const group = option.parentElement;
  return (
    select.disabled || option.disabled || (group instanceof HTMLOptGroupElement && group.disabled)
  );
}

/**
 * A native <option> of a drop-down <select> has no box to click: choose it through its select, as
 * a user picking it from the list would. 'no' = not such an option (click it like anything else).
 */
export function selectOption(this: Node): OptionChoice {
  if (!(this instanceof HTMLOptionElement)) {
    return {state: 'no'};
  }
  const select = this.closest('select');
  if (!select || select.multiple) {
    return {state: 'no'};
  }
  if (!this.isConnected) {
    return {state: 'detached'};
  }
  if (isDisabledOption(select, this)) {
    return {state: 'disabled'};
  }
  if (!select.checkVisibility({visibilityProperty: true})) {
    return {state: 'hidden'};
  }
  const r = select.getBoundingClientRect();
  if (!this.selected) {
    this.selected = true;
    select.dispatchEvent(new Event('input', {bubbles: true}));
    select.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return {state: 'ok', rect: {x: r.x, y: r.y, width: r.width, height: r.height}};
}
