/**
 * The in-page half of actionability: functions that run with `this` bound to the element, in its
 * own document (Runtime.callFunctionOn), and return plain JSON. They check the element's state,
 * wait until its box holds still, hit-test its action point through shadow roots, and watch where
 * the press's events land, so a press that would reach another element is caught and held back.
 */
import {CLIP_HELPERS, HIT_TEST_HELPERS, MOTION_HELPERS} from './hitTestScript.js';
import {MUTATION_STATE} from '../settle/counters.js';

/**
 * Slot of the armed landing check in the element's window (one at a time, like a pointer). Read
 * and disarmed by src/injected/landing.ts under the same key, until this script moves there too.
 */
const LANDING_KEY = 'mcp-browser-inspector.landing';

/** Helpers shared by the functions below (pasted into each: every call is self-contained). */
const HELPERS = HIT_TEST_HELPERS;

/** Animated properties that do not move a box (a pulsing color or a fade keeps it in place). */
const PAINT_ONLY = [
  'opacity',
  'color',
  'backgroundColor',
  'borderColor',
  'borderTopColor',
  'borderRightColor',
  'borderBottomColor',
  'borderLeftColor',
  'outlineColor',
  'textDecorationColor',
  'caretColor',
  'accentColor',
  'boxShadow',
  'textShadow',
  'filter',
  'backdropFilter',
  'fill',
  'stroke',
  'visibility',
];

/**
 * The actionability check. Options: enabled/editable (what the action needs), options (report a
 * drop-down's <option> as state 'option' instead of checking it), scroll ('auto' = only when outside the viewport; 'start' | 'center' |
 * 'end' = align so, to get out from under a sticky bar), stillMs (how long a box must hold still
 * after DOM activity), capMs (how long this call may wait for the box), landing (arm the landing
 * check for these event types; [] = none). Returns the state, or the box and the action point in
 * this document's viewport.
 */
export const ACTIONABILITY = `async function (options) {
  ${HELPERS}
  ${CLIP_HELPERS}
  ${MOTION_HELPERS}
  const PAINT_ONLY = new Set(${JSON.stringify(PAINT_ONLY)});
  const node = this;
  if (!node.isConnected) return {state: 'detached'};
  const element = node.nodeType === 1 ? node : node.parentElement;
  if (!element) return {state: 'detached'};
  // A native <option> of a drop-down has no box to press: the caller chooses it another way.
  if (options.options && element instanceof HTMLOptionElement && element.closest('select') && !element.closest('select').multiple) return {state: 'option'};
  if (options.enabled && element.matches(':disabled')) return {state: 'disabled'};
  if (options.editable && (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && element.readOnly) return {state: 'readonly'};
  const box = () => {
    let rects;
    if (node === element) {
      rects = element.getClientRects();
    } else {
      const range = document.createRange();
      range.selectNodeContents(node);
      rects = range.getClientRects();
    }
    for (const rect of rects) {
      if (rect.width > 0 && rect.height > 0) return {x: rect.x, y: rect.y, width: rect.width, height: rect.height};
    }
    return undefined;
  };
  const viewport = () => {
    const root = document.documentElement;
    return {width: root && root.clientWidth > 0 ? root.clientWidth : innerWidth, height: root && root.clientHeight > 0 ? root.clientHeight : innerHeight};
  };
  let rect = box();
  if (!element.checkVisibility({visibilityProperty: true}) || !rect) return {state: 'hidden'};
  let view = viewport();
  // Scrolled into view through every scrolling ancestor (an inner list clips its rows though they
  // lie inside the viewport), as Playwright's scrollIntoViewIfNeeded; instantly, whatever the
  // page's scroll-behavior.
  const whole = (inner, outer) => inner.width >= outer.width - 1 && inner.height >= outer.height - 1;
  if (options.scroll !== 'auto' || !whole(clipped(element, rect, view), rect)) {
    const align = options.scroll === 'auto' ? 'center' : options.scroll;
    element.scrollIntoView({block: align, inline: align, behavior: 'instant'});
    rect = box();
    view = viewport();
    if (!rect) return {state: 'hidden'};
  }
  // Still: the same box over two animation frames, and after recent DOM activity (a timer may
  // step an animation between frames) also no move for stillMs. A quiet document whose element
  // has no box-moving animation on it or an ancestor is still without waiting.
  const motion = ${MUTATION_STATE};
  const movesBox = animation => {
    if (animation.playState !== 'running' || !animation.effect || typeof animation.effect.getKeyframes !== 'function') return false;
    for (const frame of animation.effect.getKeyframes()) {
      for (const key of Object.keys(frame)) {
        if (key !== 'offset' && key !== 'computedOffset' && key !== 'easing' && key !== 'composite' && !PAINT_ONLY.has(key)) return true;
      }
    }
    return false;
  };
  const animated = () => {
    for (let n = element, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
      if (n.nodeType === 1 && n.getAnimations().some(movesBox)) return true;
    }
    return false;
  };
  const start = performance.now();
  // Only activity that can shift this element counts: a title set by the last click does not.
  const shifted = lastShift(motion, element, start - options.stillMs);
  const recent = shifted > 0 && start - shifted < options.stillMs;
  const known = start - motion.since >= options.stillMs;
  if (recent || !known || animated()) {
    const same = (a, b) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
    const frame = () => new Promise(resolve => {
      // A tab that draws no frames still gets its box read, by the clock.
      const timer = setTimeout(resolve, 50);
      requestAnimationFrame(() => { clearTimeout(timer); resolve(); });
    });
    let lastMove = recent ? shifted : -Infinity;
    let steady = 0;
    for (;;) {
      if (performance.now() - start >= options.capMs) return {state: 'moving'};
      await frame();
      const next = box();
      if (!next) return {state: 'hidden'};
      if (same(next, rect)) {
        steady++;
      } else {
        steady = 0;
        lastMove = performance.now();
        rect = next;
      }
      if (steady >= 2 && performance.now() - lastMove >= options.stillMs) break;
    }
    view = viewport();
  }
  // The action point: the middle of the part of the box that is not clipped (by the viewport and
  // the scrolling ancestors); where the clips cannot be judged, of the part inside the viewport.
  let shown = clipped(element, rect, view);
  if (shown.width < 1 || shown.height < 1) {
    shown = intersect(rect, {x: 0, y: 0, width: view.width, height: view.height});
  }
  if (shown.width < 1 || shown.height < 1) return {state: 'hidden'};
  const point = {x: shown.x + shown.width / 2, y: shown.y + shown.height / 2};
  const {hit, under} = hitTest(element, point.x, point.y);
  if (!reaches(element, hit, under)) {
    return {state: 'covered', by: preview(hit), pinned: pinned(hit, element), inside: !!hit && contains(hit, element), point};
  }
  if (options.landing.length > 0) {
    ${armLanding()}
  }
  return {state: 'ok', rect, point};
}`;

/**
 * Arms the landing check: the first event of the press (of the given types, trusted: sent by the
 * browser) is hit-tested at its own point; if it would reach another element, it and the rest of
 * the press are stopped before the page sees them. One listener per window, installed once; the
 * armed slot expires by itself in case the press never comes (a dialog, a failure).
 */
function armLanding(): string {
  return `
    const key = Symbol.for(${JSON.stringify(LANDING_KEY)});
    let slot = globalThis[key];
    if (!slot) {
      slot = {armed: undefined, types: new Set()};
      Object.defineProperty(globalThis, key, {value: slot});
    }
    for (const type of options.landing) {
      if (slot.types.has(type)) continue;
      slot.types.add(type);
      addEventListener(type, event => {
        const armed = slot.armed;
        if (!armed || !event.isTrusted || !armed.types.has(event.type)) return;
        if (performance.now() > armed.expires) { slot.armed = undefined; return; }
        if (armed.result === undefined) {
          const at = typeof event.clientX === 'number' ? hitTest(armed.target, event.clientX, event.clientY) : {hit: armed.target, under: [armed.target]};
          armed.result = reaches(armed.target, at.hit, at.under) ? 'ok' : preview(at.hit);
        }
        if (armed.result !== 'ok') {
          event.preventDefault();
          event.stopImmediatePropagation();
        }
      }, {capture: true, passive: false});
    }
    slot.armed = {target: element, types: new Set(options.landing), result: undefined, expires: performance.now() + 5000};
  `;
}

/**
 * Called on the element a hit test found: it and its ancestors up to (not including) the first
 * that holds the target (argument; absent when the target is in another document), at most 24.
 * Returned as an array object, for mapping each to a snapshot uid.
 */
export const INTERCEPTOR_CHAIN = `function (target) {
  ${HELPERS}
  const chain = [];
  for (let n = this.nodeType === 1 ? this : this.parentElement; n && chain.length < 24; n = parentOf(n)) {
    if (target && contains(n, target)) break;
    if (n.nodeType === 1) chain.push(n);
  }
  return chain;
}`;

/**
 * INTERCEPTOR_CHAIN for the point (x, y) of this element's own document, hit-tested there as the
 * actionability check does: for an element of a frame whose viewport cannot be addressed from its
 * cdp's root document (a same-site iframe), without converting coordinates.
 */
export const INTERCEPTOR_CHAIN_AT = `function (x, y) {
  ${HELPERS}
  const target = this.nodeType === 1 ? this : this.parentElement;
  const chain = [];
  for (let n = target ? elementAt(target, x, y) : null; n && chain.length < 24; n = parentOf(n)) {
    if (contains(n, target)) break;
    if (n.nodeType === 1) chain.push(n);
  }
  return chain;
}`;

/**
 * Whether a press on the node `hit` (argument: a node a protocol hit test found, maybe a text
 * node) at (x, y) of this element's document reaches this element (see reachedBy).
 */
export const REACHES = `function (hit, x, y) {
  ${HELPERS}
  const element = this.nodeType === 1 ? this : this.parentElement;
  if (!hit || !element) return false;
  // A slotted text node's composed parent is its slot.
  const from = hit.nodeType === 1 ? hit : (hit.assignedSlot || hit.parentElement);
  return reaches(element, from, hitTest(element, x, y).under);
}`;

/** A short description of an element for when it has no uid and no accessible name. */
export const PREVIEW = `function () {
  ${HELPERS}
  return preview(this);
}`;
