/**
 * In-page side of actionability (src/core/browser/input/actionability.ts and cover.ts): functions
 * that run with `this` bound to the element, in its own document (Runtime.callFunctionOn), and
 * return plain JSON or elements. They check the element's state, wait until its box holds still,
 * hit-test its action point through shadow roots, and arm the landing check that catches a press
 * reaching another element.
 */
import {animatesOtherThan, boxKeepingProperties} from './common/animatedProperties.js';
import {clipped, intersect, type Box, type Size} from './common/clip.js';
import {
  MAX_DEPTH,
  assignedSlotOf,
  contains,
  documentParts,
  elementOf,
  isElement,
  parentOf,
} from './common/composedTree.js';
import {clockCountsAsFrame, nextFrame} from './common/frameClock.js';
import {elementAt, hitTest, pinned, preview, reaches} from './common/hitTest.js';
import {armLanding} from './common/landingSlot.js';
import {lastShift} from './common/motion.js';
import {mutationState} from './common/mutationState.js';

/** Bound on the elements of an interceptor chain. */
const CHAIN_LIMIT = 24;
/** A tab that draws no frames still gets its box read, by the clock, this often. */
const FRAME_FALLBACK_MS = 50;

export interface ActionabilityOptions {
  /** The action needs the element enabled. */
  enabled: boolean;
  /** The action needs it editable (not a read-only field). */
  editable: boolean;
  /** Report a drop-down's <option> as state 'option' instead of checking it. */
  options: boolean;
  /** 'auto': only when outside the viewport; else align so (out from under a sticky bar). */
  scroll: 'auto' | 'start' | 'center' | 'end';
  /** How long a box must hold still after DOM activity. */
  stillMs: number;
  /** How long this call may wait for the box to hold still. */
  capMs: number;
  /** Arm the landing check for these event types ([] = none). */
  landing: readonly string[];
}

type Point = {x: number; y: number};

export type ActionabilityState =
  | {state: 'ok'; rect: Box; point: Point}
  | {state: 'covered'; by: string; pinned: boolean; inside: boolean; point: Point}
  | {state: 'detached' | 'option' | 'disabled' | 'readonly' | 'hidden' | 'moving'};

/** The node's first box with an area (a text node's, by a range over it). */
function boxOf(node: Node, element: Element): Box | undefined {
  let rects: DOMRectList;
  if (node === element) {
    rects = element.getClientRects();
  } else {
    const range = document.createRange();
    range.selectNodeContents(node);
    rects = range.getClientRects();
  }
  for (const rect of rects) {
    if (rect.width > 0 && rect.height > 0) {
      return {x: rect.x, y: rect.y, width: rect.width, height: rect.height};
    }
  }
  return undefined;
}

function viewport(): Size {
  const {root} = documentParts();
  return {
    width: root && root.clientWidth > 0 ? root.clientWidth : innerWidth,
    height: root && root.clientHeight > 0 ? root.clientHeight : innerHeight,
  };
}

function sameBox(a: Box, b: Box): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** The state that stops the check before any box is read, if any. */
function stateBlock(
  element: Element,
  options: ActionabilityOptions,
): ActionabilityState | undefined {
  // A native <option> of a drop-down has no box to press: the caller chooses it another way.
  const select = element.closest('select');
  if (options.options && element instanceof HTMLOptionElement && select && !select.multiple) {
    return {state: 'option'};
  }
  if (options.enabled && element.matches(':disabled')) {
    return {state: 'disabled'};
  }
  if (
    options.editable &&
    (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) &&
    element.readOnly
  ) {
    return {state: 'readonly'};
  }
  return undefined;
}

/** Whether the element or an ancestor runs an animation that can move its box. */
function animated(element: Element): boolean {
  const keeping = boxKeepingProperties();
  const movesBox = (animation: Animation): boolean =>
    animation.playState === 'running' &&
    !!animation.effect &&
    animatesOtherThan(animation.effect, keeping);
  for (let n: Node | null = element, depth = 0; n && depth < MAX_DEPTH; n = parentOf(n), depth++) {
    if (isElement(n) && n.getAnimations().some(movesBox)) {
      return true;
    }
  }
  return false;
}

/**
 * Waits until the box is the same over two frames and has not moved for stillMs (counted from
 * `movedAt`, the last activity that could move it), at most capMs from `start`: the box then, or
 * a state.
 */
async function holdStill(
  read: () => Box | undefined,
  from: Box,
  times: {start: number; movedAt: number},
  options: ActionabilityOptions,
): Promise<Box | {state: 'hidden' | 'moving'}> {
  const start = times.start;
  let rect = from;
  let lastMove = times.movedAt;
  let steady = 0;
  let lastFrame = start;
  for (;;) {
    if (performance.now() - start >= options.capMs) {
      return {state: 'moving'};
    }
    const drawn = await nextFrame(FRAME_FALLBACK_MS);
    const now = performance.now();
    if (drawn) {
      lastFrame = now;
    }
    const next = read();
    if (!next) {
      return {state: 'hidden'};
    }
    if (sameBox(next, rect)) {
      // A clock read between two frames of a busy machine sees a box no animation step has moved yet.
      if (drawn || clockCountsAsFrame(now, lastFrame)) {
        steady++;
      }
    } else {
      steady = 0;
      lastMove = performance.now();
      rect = next;
    }
    if (steady >= 2 && performance.now() - lastMove >= options.stillMs) {
      return rect;
    }
  }
}

/**
 * The actionability check, called on the element. Returns the state, or the box and the action
 * point in this document's viewport.
 */
export function actionability(
  this: Node,
  options: ActionabilityOptions,
): Promise<ActionabilityState> {
  return check(this, options);
}

async function check(node: Node, options: ActionabilityOptions): Promise<ActionabilityState> {
  if (!node.isConnected) {
    return {state: 'detached'};
  }
  const element = elementOf(node);
  if (!element) {
    return {state: 'detached'};
  }
  const blocked = stateBlock(element, options);
  if (blocked) {
    return blocked;
  }
  const box = (): Box | undefined => boxOf(node, element);
  let rect = box();
  if (!element.checkVisibility({visibilityProperty: true}) || !rect) {
    return {state: 'hidden'};
  }
  let view = viewport();
  // Scrolled into view through every scrolling ancestor (an inner list clips its rows though they
  // lie inside the viewport), as Playwright's scrollIntoViewIfNeeded; instantly, whatever the
  // page's scroll-behavior.
  const shownWhole = (inner: Box, outer: Box): boolean =>
    inner.width >= outer.width - 1 && inner.height >= outer.height - 1;
  if (options.scroll !== 'auto' || !shownWhole(clipped(element, rect, view), rect)) {
    const align = options.scroll === 'auto' ? 'center' : options.scroll;
    element.scrollIntoView({block: align, inline: align, behavior: 'instant'});
    rect = box();
    view = viewport();
    if (!rect) {
      return {state: 'hidden'};
    }
  }
  // Still: the same box over two animation frames, and after recent DOM activity (a timer may
  // step an animation between frames) also no move for stillMs. A quiet document whose element
  // has no box-moving animation on it or an ancestor is still without waiting.
  const motion = mutationState();
  const start = performance.now();
  // Only activity that can shift this element counts: a title set by the last click does not.
  const shifted = lastShift(motion, element, start - options.stillMs);
  const recent = shifted > 0 && start - shifted < options.stillMs;
  const known = start - motion.since >= options.stillMs;
  if (recent || !known || animated(element)) {
    const still = await holdStill(
      box,
      rect,
      {start, movedAt: recent ? shifted : -Infinity},
      options,
    );
    if ('state' in still) {
      return still;
    }
    rect = still;
    view = viewport();
  }
  return aim(element, rect, view, options);
}

/** The action point of a still box, hit-tested; arms the landing check when it is reached. */
function aim(
  element: Element,
  rect: Box,
  view: Size,
  options: ActionabilityOptions,
): ActionabilityState {
  // The action point: the middle of the part of the box that is not clipped (by the viewport and
  // the scrolling ancestors); where the clips cannot be judged, of the part inside the viewport.
  let shown = clipped(element, rect, view);
  if (shown.width < 1 || shown.height < 1) {
    shown = intersect(rect, {x: 0, y: 0, width: view.width, height: view.height});
  }
  if (shown.width < 1 || shown.height < 1) {
    return {state: 'hidden'};
  }
  const point = {x: shown.x + shown.width / 2, y: shown.y + shown.height / 2};
  const {hit, under} = hitTest(element, point.x, point.y);
  if (!reaches(element, hit, under)) {
    return {
      state: 'covered',
      by: preview(hit),
      pinned: pinned(hit, element),
      inside: !!hit && contains(hit, element),
      point,
    };
  }
  if (options.landing.length > 0) {
    armLanding(element, options.landing);
  }
  return {state: 'ok', rect, point};
}

/**
 * Called on the element a hit test found: it and its ancestors up to (not including) the first
 * that holds the target (argument; absent when the target is in another document), at most
 * CHAIN_LIMIT. Returned as an array object, for mapping each to a snapshot uid.
 */
export function interceptorChain(this: Node, target: Node | undefined): Element[] {
  const chain: Element[] = [];
  for (let n: Node | null = elementOf(this); n && chain.length < CHAIN_LIMIT; n = parentOf(n)) {
    if (target && contains(n, target)) {
      break;
    }
    if (isElement(n)) {
      chain.push(n);
    }
  }
  return chain;
}

/**
 * interceptorChain for the point (x, y) of this element's own document, hit-tested there as the
 * actionability check does: for an element of a frame whose viewport cannot be addressed from its
 * cdp's root document (a same-site iframe), without converting coordinates.
 */
export function interceptorChainAt(this: Node, x: number, y: number): Element[] {
  const target = elementOf(this);
  const chain: Element[] = [];
  for (
    let n: Node | null = target ? elementAt(target, x, y) : null;
    n && chain.length < CHAIN_LIMIT;
    n = parentOf(n)
  ) {
    if (contains(n, target)) {
      break;
    }
    if (isElement(n)) {
      chain.push(n);
    }
  }
  return chain;
}

/**
 * Whether a press on the node `hit` (argument: a node a protocol hit test found, maybe a text
 * node) at (x, y) of this element's document reaches this element.
 */
export function reachesFromHit(this: Node, hit: Node | null, x: number, y: number): boolean {
  const element = elementOf(this);
  if (!hit || !element) {
    return false;
  }
  // A slotted text node's composed parent is its slot.
  const from = isElement(hit) ? hit : (assignedSlotOf(hit) ?? hit.parentElement);
  return reaches(element, from, hitTest(element, x, y).under);
}

/** A short description of this element, for when it has no uid and no accessible name. */
export function previewElement(this: Node): string {
  return preview(this);
}
