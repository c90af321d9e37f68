/**
 * The in-page half of actionability: functions that run with `this` bound to the element, in its
 * own document (Runtime.callFunctionOn), and return plain JSON. They check the element's state,
 * wait until its box holds still, hit-test its action point through shadow roots, and watch where
 * the press's events land, so a press that would reach another element is caught and held back.
 */
import {MUTATION_STATE, PROBE_COUNTER} from './settleCounters.js';

/** Slot of the armed landing check in the element's window (one at a time, like a pointer). */
const LANDING_KEY = 'mcp-browser-inspector.landing';

/** Helpers shared by the functions below (pasted into each: every call is self-contained). */
const HELPERS = `
  const MAX_DEPTH = 512;
  // The composed tree, as hit testing sees it: a slotted node's parent is its slot, a shadow
  // root's is its host.
  const parentOf = node => {
    if (node.assignedSlot) return node.assignedSlot;
    if (node.parentElement) return node.parentElement;
    const parent = node.parentNode;
    return parent && parent.nodeType === 11 && parent.host ? parent.host : null;
  };
  const contains = (ancestor, node) => {
    for (let n = node, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
      if (n === ancestor) return true;
    }
    return false;
  };
  // What a pointer event at (x, y) of this document reaches, down through the shadow roots on
  // the way to the target (an open or closed root is reachable from inside it).
  const elementAt = (target, x, y) => {
    const roots = [];
    for (let n = target, depth = 0; n && depth < 64; depth++) {
      const root = n.getRootNode();
      roots.push(root);
      if (!root.host) break;
      n = root.host;
    }
    let hit = null;
    for (let i = roots.length - 1; i >= 0; i--) {
      const root = roots[i];
      if (typeof root.elementFromPoint !== 'function') break;
      const found = root.elementFromPoint(x, y);
      if (!found) break;
      hit = found;
      if (i > 0 && found !== roots[i - 1].host) break;
    }
    return hit;
  };
  // Whether a press on 'hit' reaches the target: the target itself or inside it; its own
  // <label> (which passes a click on to its control, as for a styled checkbox hidden under it);
  // for a target that lets pointer events through, what is under it.
  const reaches = (target, hit) => {
    if (!hit) return false;
    if (contains(target, hit)) return true;
    for (let n = hit, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
      if (n instanceof HTMLLabelElement && n.control === target) return true;
    }
    return contains(hit, target) && getComputedStyle(target).pointerEvents === 'none';
  };
  const preview = element => {
    if (!element || element.nodeType !== 1) return 'the page';
    let text = element.localName;
    if (element.id) text += '#' + element.id;
    for (const name of [...element.classList].slice(0, 2)) text += '.' + name;
    const label = (element.getAttribute('aria-label') || element.textContent || '').replace(/\\s+/g, ' ').trim();
    return label ? text + ' "' + label.slice(0, 40) + '"' : text;
  };
  // Outside the viewport or under a position:fixed/sticky bar: scrolling may uncover it.
  const pinned = (hit, target) => {
    for (let n = hit, depth = 0; n && depth < MAX_DEPTH && !contains(n, target); n = parentOf(n), depth++) {
      const position = n.nodeType === 1 ? getComputedStyle(n).position : '';
      if (position === 'fixed' || position === 'sticky') return true;
    }
    return false;
  };
`;

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
  const inView = r => r.y >= 0 && r.x >= 0 && r.y + r.height <= view.height && r.x + r.width <= view.width;
  if (options.scroll !== 'auto' || !inView(rect)) {
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
  const recent = motion.t > 0 && start - motion.t < options.stillMs;
  const known = start - motion.since >= options.stillMs;
  if (recent || !known || animated()) {
    const same = (a, b) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
    const frame = () => new Promise(resolve => {
      // A tab that draws no frames still gets its box read, by the clock.
      const timer = setTimeout(resolve, 50);
      requestAnimationFrame(() => { clearTimeout(timer); resolve(); });
    });
    let lastMove = recent ? motion.t : -Infinity;
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
  // The action point: the middle of the part of the box inside the viewport.
  const left = Math.max(rect.x, 0);
  const top = Math.max(rect.y, 0);
  const right = Math.min(rect.x + rect.width, view.width);
  const bottom = Math.min(rect.y + rect.height, view.height);
  if (right - left < 1 || bottom - top < 1) return {state: 'hidden'};
  const point = {x: (left + right) / 2, y: (top + bottom) / 2};
  const hit = elementAt(element, point.x, point.y);
  if (!reaches(element, hit)) {
    return {state: 'covered', by: preview(hit), pinned: pinned(hit, element), point};
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
          const at = typeof event.clientX === 'number' ? elementAt(armed.target, event.clientX, event.clientY) : armed.target;
          armed.result = reaches(armed.target, at) ? 'ok' : preview(at);
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

/** Reads and disarms the landing check: 'ok', 'none' (no event came) or what got the press. */
export const READ_LANDING = `function () {
  const slot = globalThis[Symbol.for(${JSON.stringify(LANDING_KEY)})];
  const armed = slot && slot.armed;
  if (!armed) return 'none';
  slot.armed = undefined;
  return armed.result === undefined ? 'none' : armed.result;
}`;

/**
 * READ_LANDING for an element of the top document, whose landing check lives in the page's main
 * world as the settle counter does, and in the same call, once the press landed (or no event of
 * it came), the settle probe (PROBE_COUNTER): the action hands it over, one round trip less. A
 * press held back is answered at once and leaves the following of timers on: it is tried again.
 */
export const READ_LANDING_THEN_PROBE = `(() => {
  const landed = (${READ_LANDING}).call(undefined);
  if (landed !== 'ok' && landed !== 'none') return {landed};
  return ${PROBE_COUNTER}.then(probe => ({landed, probe}));
})()`;

/** Disarms the landing check without reading it (the press did not go out). */
export const DISARM_LANDING = `function () {
  const slot = globalThis[Symbol.for(${JSON.stringify(LANDING_KEY)})];
  if (slot) slot.armed = undefined;
  return true;
}`;

/**
 * Resolves on the first sign that the page changed (a DOM mutation, the end of a transition or an
 * animation, a scroll, a resize) or after capMs: what a waiting action re-checks after.
 */
export const WAIT_FOR_CHANGE = `function (capMs) {
  return new Promise(resolve => {
    const events = ['transitionend', 'transitioncancel', 'animationend', 'animationcancel', 'scroll', 'resize'];
    let observer;
    let timer;
    const finish = () => {
      clearTimeout(timer);
      if (observer) observer.disconnect();
      for (const type of events) removeEventListener(type, finish, true);
      resolve(true);
    };
    timer = setTimeout(finish, capMs);
    observer = new MutationObserver(finish);
    observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    for (const type of events) addEventListener(type, finish, true);
  });
}`;

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

/** Whether a press on the node `hit` (argument) reaches this element (see reaches above). */
export const REACHES = `function (hit) {
  ${HELPERS}
  const element = this.nodeType === 1 ? this : this.parentElement;
  return reaches(element, hit && hit.nodeType === 1 ? hit : hit && hit.parentElement);
}`;

/** A short description of an element for when it has no uid and no accessible name. */
export const PREVIEW = `function () {
  ${HELPERS}
  return preview(this);
}`;
