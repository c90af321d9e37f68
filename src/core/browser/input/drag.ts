/**
 * drag: one element onto another with real mouse input, moved like a hand: press, leave the drag
 * threshold, a path of moves spread over time (sortable lists reorder as the pointer passes and
 * ignore it while each reorder animates; dragover handlers need moves), a pause over the target
 * with small moves until the page holds still, then release. The same input drives the browser's
 * own HTML5 drag and drop. Where the dragged element ended up is read before and after, and said.
 */
import type {CDPSession} from 'puppeteer-core';
import {z} from 'zod';
import {
  mouse,
  NEXT_FRAME,
  onElement,
  onElementWith,
  prepareInput,
  type ActOptions,
  type Actionable,
  type Point,
} from './actions.js';
import {waitForActionable} from './actionability.js';
import {placeSchema, type Place} from './dragScript.js';
import type {Rect, ResolvedElement} from './elements.js';
import {evaluateInPage} from '../evaluation.js';
import {DRAG_PLACE, IS_HOVERED, QUIET_FOR} from '../injectedSources.generated.js';
import {withTimeout} from '../lock.js';
import type {PageState} from '../pages/PageState.js';

/** Aims of the source before pressing anyway: each after the page drew a new frame. */
const AIM_ATTEMPTS = 4;
/** Bound on bringing the tab to the front and on waiting for its next frame. */
const FRAME_WAIT_MS = 1_000;
/** Between the moves of the path: about one frame, as a hand's moves arrive. */
const PATH_STEP_MS = 16;
/** Pixels per move of the path, and the bounds on its number of moves. */
const PATH_STEP_PX = 25;
const PATH_STEPS_MIN = 6;
const PATH_STEPS_MAX = 20;
/** Past the browser's drag threshold (a few pixels) before the path starts. */
const THRESHOLD_PX = 6;
/**
 * Over the target: a small move this often, for at least the minimum, until the page has not
 * changed for the quiet time (a reorder animation of 150 ms, the libraries' default, has ended
 * and no further step followed), at most the maximum.
 */
const DWELL_STEP_MS = 50;
const DWELL_MIN_MS = 200;
const DWELL_QUIET_MS = 200;
const DWELL_MAX_MS = 1_500;

export interface DragResult {
  rect: Rect;
  /** Where the dragged element was before the drag (read again after it: describeDrop). */
  before: Place;
}

export async function dragElement(
  state: PageState,
  from: ResolvedElement,
  to: ResolvedElement,
  options: ActOptions,
): Promise<DragResult> {
  // The target first: scrolling it into view may move the source, which is measured after.
  await waitForActionable(state, to, {...options, enabled: false, kind: 'drag'});
  await prepareInput(state);
  const before = await placeOf(state, from, to);
  const source = await pointAtSource(state, from, options);
  const target = await waitForActionable(state, to, {...options, enabled: false, kind: 'drag'});
  // Made before the press, so the pause over the target can tell when the page holds still.
  await quietFor(state, to);
  // HTML drag and drop starts in the browser, which needs the top page's coordinates (events sent
  // to a frame's own cdp would not start a drag).
  const cdp = state.cdp;
  const start = source.point;
  const end = target.point;
  await mouse(cdp, {type: 'mousePressed', ...start, button: 'left', buttons: 1, clickCount: 1});
  try {
    await movePath(cdp, start, end, options.signal);
    await dwell(state, to, end, options.signal);
  } finally {
    await mouse(cdp, {type: 'mouseReleased', ...end, button: 'left', buttons: 0, clickCount: 1});
  }
  return {rect: target.rect, before};
}

/** Where the dragged element is now, read after the drop settled; undefined when it is gone. */
export async function placeOf(
  state: PageState,
  from: ResolvedElement,
  to: ResolvedElement,
): Promise<Place> {
  // The target's object lives on its own cdp: from another document, it is not passed.
  const target = from.cdp === to.cdp ? [{objectId: to.objectId}] : [];
  return onElementWith(state, from, DRAG_PLACE, target, placeSchema).catch((): Place => ({
    attached: false,
  }));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  return new Promise(resolve => setTimeout(resolve, ms));
}

function moveWithButton(cdp: CDPSession, x: number, y: number): Promise<unknown> {
  return mouse(cdp, {type: 'mouseMoved', x, y, button: 'left', buttons: 1});
}

/** Out past the drag threshold, then towards the target in steps about a frame apart. */
async function movePath(
  cdp: CDPSession,
  start: Point,
  end: Point,
  signal: AbortSignal | undefined,
): Promise<void> {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const distance = Math.hypot(dx, dy);
  // Leave the threshold in the direction of the target (straight down when they coincide).
  const unit = distance > 0 ? {x: dx / distance, y: dy / distance} : {x: 0, y: 1};
  await moveWithButton(cdp, start.x + unit.x * THRESHOLD_PX, start.y + unit.y * THRESHOLD_PX);
  await sleep(PATH_STEP_MS, signal);
  const steps = Math.min(
    PATH_STEPS_MAX,
    Math.max(PATH_STEPS_MIN, Math.round(distance / PATH_STEP_PX)),
  );
  for (let step = 1; step <= steps; step++) {
    await moveWithButton(cdp, start.x + (dx * step) / steps, start.y + (dy * step) / steps);
    await sleep(PATH_STEP_MS, signal);
  }
}

/** Small moves over the target until the page holds still (bounded), as a hand pauses there. */
async function dwell(
  state: PageState,
  to: ResolvedElement,
  end: Point,
  signal: AbortSignal | undefined,
): Promise<void> {
  const started = Date.now();
  for (let step = 0; ; step++) {
    await sleep(DWELL_STEP_MS, signal);
    await moveWithButton(state.cdp, end.x + (step % 2 === 0 ? 1 : 0), end.y);
    const waited = Date.now() - started;
    if (waited >= DWELL_MAX_MS) {
      return;
    }
    if (waited >= DWELL_MIN_MS && (await quietFor(state, to)) >= DWELL_QUIET_MS) {
      return;
    }
  }
}

/** How long the target's document has not changed; 0 when it cannot be read. */
function quietFor(state: PageState, to: ResolvedElement): Promise<number> {
  return onElement(state, to, QUIET_FOR, [], z.number()).catch(() => 0);
}

/**
 * Moves the pointer onto the source and checks that it arrived there. The events go to the top
 * page, so for a cross-site frame the browser places them by the last frame the page drew: right
 * after a scroll (or in a tab that is not in front) that can be the old position, and the press
 * would miss. Each miss waits for a new frame and aims again; after a few the press goes anyway.
 */
async function pointAtSource(
  state: PageState,
  from: ResolvedElement,
  options: ActOptions,
): Promise<Actionable> {
  const crossSite = from.cdp !== state.cdp;
  for (let attempt = 1; ; attempt++) {
    const source = await waitForActionable(state, from, {...options, enabled: false, kind: 'drag'});
    await mouse(state.cdp, {type: 'mouseMoved', x: source.point.x, y: source.point.y});
    if (!crossSite || attempt >= AIM_ATTEMPTS) {
      return source;
    }
    const hovered = await onElement(state, from, IS_HOVERED, [], z.boolean()).catch(() => true);
    if (hovered) {
      return source;
    }
    if (attempt === 1) {
      // A tab in the background draws no frames: put it in front.
      await withTimeout(
        state.cdp.send('Page.bringToFront'),
        FRAME_WAIT_MS,
        'Page.bringToFront timed out',
      ).catch(() => undefined);
    }
    await evaluateInPage(
      state,
      {expression: NEXT_FRAME, awaitPromise: true},
      {timeoutMs: FRAME_WAIT_MS},
    ).catch(() => undefined);
  }
}
