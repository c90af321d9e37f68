/**
 * Actionability for pointer actions, after Playwright's model: before pressing, the element must
 * be attached, visible, enabled (click, fill), still (the same box over two animation frames; after
 * recent DOM activity also no move for a short stillness window, which catches animations a timer
 * steps), and the element a press at its action point reaches — hit-tested through shadow roots
 * and, for an element in an iframe, through every document above it. While it is not, the action
 * waits, woken by what changes the page (mutations, transition and animation ends, scrolls), and
 * scrolls it out from under sticky bars; an element still covered after a short bound fails
 * naming what covers it. On a quiet page all of this is one in-page call.
 */
import type {CDPSession} from 'puppeteer-core';
import {z} from 'zod';
import {
  ActionError,
  elementGone,
  NEXT_FRAME,
  notInteractive,
  onElement,
  type ActOptions,
  type Actionable,
  type Point,
} from './actions.js';
import {coverOf, nodeAt, type Covered} from './cover.js';
import {
  elementRect,
  isInChildFrame,
  scrollIntoTopView,
  type Rect,
  type ResolvedElement,
} from './elements.js';
import {evaluateInPage} from '../evaluation.js';
import {
  ACTIONABILITY,
  DISARM_LANDING,
  REACHES_FROM_HIT,
  WAIT_FOR_CHANGE,
} from '../injectedSources.generated.js';
import {frameTargetsFeature} from '../pages/frames.js';
import {withTimeout} from '../lock.js';
import type {PageState} from '../pages/PageState.js';
import {coveredTimeout, slowdownFeature} from '../timeouts.js';
import {actionWaitBoundsFeature} from './waitBounds.js';

/** What the action does at the point: it decides the wording and which events are checked. */
export type PressKind = 'click' | 'hover' | 'drag' | 'focus';

export interface ActionabilityOptions extends ActOptions {
  enabled: boolean;
  editable?: boolean;
  kind: PressKind;
  /** Arm the landing check for the press that follows (src/injected/common/landingSlot.ts). */
  landing?: boolean;
  /** Stop at a drop-down's <option> (the caller chooses it through its <select>). */
  options?: boolean;
}

/** Thrown by Readiness.wait for a drop-down's <option> when asked to stop at one. */
export class OptionElement extends Error {}

/** The events of a press whose landing is checked, per kind (drag moves over other elements). */
const LANDING_EVENTS: Record<PressKind, readonly string[]> = {
  click: [
    'pointerdown',
    'mousedown',
    'pointerup',
    'mouseup',
    'click',
    'dblclick',
    'auxclick',
    'contextmenu',
  ],
  hover: ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove'],
  drag: [],
  focus: [],
};

/** After DOM activity, how long a box must not move to count as still. */
const STILL_MS = 150;
/** Bound on one in-page wait for the box to hold still; the loop checks again until its deadline. */
const STILL_CAP_MS = 500;
/** Bound on one wait for the page to change while the element is not ready. */
const CHANGE_WAIT_MS = 250;
const CDP_STEP_TIMEOUT_MS = 5_000;
/** Scroll alignments tried in turn while a position:fixed/sticky bar covers the element. */
const UNPIN_SCROLLS = ['center', 'end', 'start'] as const;

const pointSchema = z.object({x: z.number(), y: z.number()});
const rectSchema = z.object({x: z.number(), y: z.number(), width: z.number(), height: z.number()});
const checkSchema = z.discriminatedUnion('state', [
  z.object({state: z.literal('ok'), rect: rectSchema, point: pointSchema}),
  z.object({
    state: z.literal('covered'),
    by: z.string(),
    pinned: z.boolean(),
    inside: z.boolean(),
    point: pointSchema,
  }),
  z.object({state: z.enum(['detached', 'option', 'disabled', 'readonly', 'hidden', 'moving'])}),
]);

type Waiting = 'disabled' | 'readonly' | 'hidden' | 'moving';

type Attempt = {done: Actionable} | {waiting: Waiting} | {covered: Covered};

const COVERED_WORDING: Record<PressKind, {lands: string; nothing: string}> = {
  click: {lands: 'A click at its center would land on', nothing: 'Nothing was clicked.'},
  hover: {lands: 'The pointer at its center would be over', nothing: 'The pointer was not moved.'},
  drag: {lands: 'A drag at its center would reach', nothing: 'Nothing was dragged.'},
  focus: {lands: 'A click to focus it would land on', nothing: 'Nothing was typed.'},
};

function coveredFailure(
  uid: string,
  kind: PressKind,
  who: string,
  waitedMs: number,
  inside: boolean,
): ActionError {
  const wording = COVERED_WORDING[kind];
  const seconds = (waitedMs / 1_000).toFixed(1);
  const start = `Failed to interact with the element with uid ${uid}. ${wording.lands} ${who} instead`;
  if (inside) {
    // Its own container draws over it (a veil of its own, a ::before overlay): nothing to close.
    return new ActionError(
      `${start}, which contains the element and is drawn over it (still after ${seconds} s). ${wording.nothing} If the container is what you meant, act on it instead; else wait until what it draws over the element is gone (a loading veil), then take a new snapshot (take_snapshot) and retry.`,
    );
  }
  return new ActionError(
    `${start}: it covers the element (still after ${seconds} s). ${wording.nothing} Close or dismiss what covers it, or wait until it is gone, then take a new snapshot (take_snapshot) and retry.`,
  );
}

/**
 * The waits of one action on one element: how long it may take to become ready, and how long it
 * may stay covered, counted from the first time it was found covered.
 */
export class Readiness {
  readonly #deadline: number;
  readonly #coveredMs: number;
  #coveredSince: number | undefined;
  #lastCover: Covered | undefined;
  #unpinned = 0;

  constructor(
    private readonly state: PageState,
    private readonly element: ResolvedElement,
    private readonly options: ActionabilityOptions,
  ) {
    this.#deadline = Date.now() + options.timeoutMs;
    this.#coveredMs = Math.min(
      coveredTimeout(slowdownFeature.get(state)),
      actionWaitBoundsFeature.get(state).coveredMaxMs ?? Infinity,
      options.timeoutMs,
    );
  }

  /** Waits until the element is actionable and returns where to aim; throws when it never is. */
  async wait(): Promise<Actionable> {
    for (;;) {
      this.options.signal?.throwIfAborted();
      const outcome = await this.#attempt();
      if ('done' in outcome) {
        return outcome.done;
      }
      if ('covered' in outcome) {
        await this.covered(outcome.covered);
      } else if (Date.now() >= this.#deadline) {
        throw notInteractive(this.element.uid, outcome.waiting);
      }
      // A box that was moving was already watched for a while in the page.
      if (!('waiting' in outcome && outcome.waiting === 'moving')) {
        await this.#waitForChange();
      }
    }
  }

  /** Records that a press would land elsewhere; throws naming what covers it once time is up. */
  async covered(cover: Covered): Promise<void> {
    const now = Date.now();
    this.#coveredSince ??= now;
    this.#lastCover = cover;
    if (now - this.#coveredSince >= this.#coveredMs || now >= this.#deadline) {
      const who = await coverOf(this.state, this.element, cover);
      throw coveredFailure(
        this.element.uid,
        this.options.kind,
        who,
        now - this.#coveredSince,
        cover.inside === true,
      );
    }
  }

  async #attempt(): Promise<Attempt> {
    const {state, element, options} = this;
    const cover = this.#lastCover;
    // Out from under a sticky header: scroll with another alignment each time.
    const scroll = cover?.pinned ? UNPIN_SCROLLS[this.#unpinned++ % UNPIN_SCROLLS.length] : 'auto';
    this.#lastCover = undefined;
    const landing = options.landing === true ? LANDING_EVENTS[options.kind] : [];
    const check = await onElement(
      state,
      element,
      ACTIONABILITY,
      [
        {
          enabled: options.enabled,
          editable: options.editable ?? false,
          options: options.options ?? false,
          scroll,
          stillMs: STILL_MS,
          capMs: STILL_CAP_MS,
          landing,
        },
      ],
      checkSchema,
    );
    if (check.state === 'detached') {
      throw elementGone(element.uid);
    }
    if (check.state === 'option') {
      throw new OptionElement('a drop-down option');
    }
    if (check.state === 'covered') {
      const {by, pinned, inside} = check;
      return {covered: {by, pinned, inside, ...this.lookUpAt(check.point)}};
    }
    if (check.state !== 'ok') {
      return {waiting: check.state};
    }
    if (!isInChildFrame(state, element)) {
      const {point, rect} = check;
      return {done: {point, rect, pointer: {cdp: state.cdp, point}, local: point}};
    }
    const framed = await this.#throughFrames(check.point, check.rect);
    if (!('done' in framed) && landing.length > 0) {
      disarmLanding(state, element);
    }
    return framed;
  }

  /**
   * Where the point of the element's own document can be looked up (cover.ts): in the top
   * document and at the root of a cross-site frame's cdp, its viewport is the cdp's; in any
   * other frame (a same-site one), by hit testing in the element's own document again.
   */
  lookUpAt(point: Point): Pick<Covered, 'at' | 'inDocument'> {
    const {state, element} = this;
    if (!isInChildFrame(state, element)) {
      return {at: {cdp: state.cdp, point}};
    }
    const owner = frameTargetsFeature.get(state).ownerOf(element.cdp);
    return owner?.frameId === element.frameId
      ? {at: {cdp: element.cdp, point}}
      : {inDocument: point};
  }

  /**
   * An element of an iframe: the frame itself must be in the top page's view and still, and a
   * press at the point must pass every document above the element's own to reach it.
   */
  async #throughFrames(local: Point, localRect: Rect): Promise<Attempt> {
    const {state, element} = this;
    const offsetX = local.x - localRect.x;
    const offsetY = local.y - localRect.y;
    // The frame itself may be scrolled out of the top-level viewport.
    await scrollIntoTopView(state, element);
    const first = await elementRect(state, element);
    if (first) {
      // A scroll an iframe passed up to its parent lands asynchronously: read again after it.
      await evaluateInPage(
        state,
        {expression: NEXT_FRAME, awaitPromise: true},
        {timeoutMs: 1_000},
      ).catch(() => undefined);
    }
    const rect = first && (await elementRect(state, element));
    if (!first || !rect) {
      return {waiting: 'hidden'};
    }
    if (!sameRect(first, rect)) {
      return {waiting: 'moving'};
    }
    const point = {x: rect.x + offsetX, y: rect.y + offsetY};
    const blocked = await hitThroughFrames(state, element, point, local);
    if (blocked) {
      return {covered: blocked};
    }
    const frames = frameTargetsFeature.get(state);
    const offset = element.cdp === state.cdp ? {x: 0, y: 0} : await frames.offsetOf(element.cdp);
    const pointer = {
      cdp: element.cdp,
      point: {x: point.x - offset.x, y: point.y - offset.y},
    };
    return {done: {point, rect, pointer, local}};
  }

  async #waitForChange(): Promise<void> {
    const left = this.#deadline - Date.now();
    if (left <= 0) {
      return;
    }
    await onElement(
      this.state,
      this.element,
      WAIT_FOR_CHANGE,
      [Math.min(CHANGE_WAIT_MS, left)],
      z.boolean(),
    ).catch((error: unknown) => {
      if (error instanceof ActionError) {
        throw error;
      }
    });
  }
}

function sameRect(
  a: {x: number; y: number; width: number; height: number},
  b: {x: number; y: number; width: number; height: number},
): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** Waits until the element can take pointer input and returns where to aim. */
export function waitForActionable(
  state: PageState,
  element: ResolvedElement,
  options: ActionabilityOptions,
): Promise<Actionable> {
  return new Readiness(state, element, options).wait();
}

/** Takes back an armed landing check whose press does not come. */
export function disarmLanding(state: PageState, element: ResolvedElement): void {
  void onElement(state, element, DISARM_LANDING, [], z.boolean()).catch(() => undefined);
}

/**
 * Hit tests at `point` (top page viewport) in each cdp from the top page down to the element's:
 * each must reach the <iframe> of the next, and the element's own must reach the element (hit
 * testing in a cdp passes into its same-process frames). Undefined when it does. `inDocument` is
 * the point in the viewport of the element's own document.
 */
async function hitThroughFrames(
  state: PageState,
  element: ResolvedElement,
  point: Point,
  inDocument: Point,
): Promise<Covered | undefined> {
  const frames = frameTargetsFeature.get(state);
  const cdps: CDPSession[] = [element.cdp];
  for (let depth = 0; depth < 16; depth++) {
    const owner = frames.ownerOf(cdps[0] ?? element.cdp);
    if (!owner) {
      break;
    }
    cdps.unshift(owner.parent);
  }
  for (const [index, cdp] of cdps.entries()) {
    const offset = cdp === state.cdp ? {x: 0, y: 0} : await frames.offsetOf(cdp);
    const local = {x: point.x - offset.x, y: point.y - offset.y};
    const hit = await nodeAt(cdp, local);
    const covered: Covered = {by: 'another element', at: {cdp, point: local}, pinned: false};
    if (!hit) {
      return covered;
    }
    const next = cdps[index + 1];
    if (next) {
      const owner = frames.ownerOf(next);
      const frameOwner =
        owner && (await step(cdp.send('DOM.getFrameOwner', {frameId: owner.frameId})));
      if (frameOwner?.backendNodeId !== hit.backendNodeId) {
        return covered;
      }
      continue;
    }
    if (hit.frameId !== element.frameId) {
      return covered;
    }
    if (
      hit.backendNodeId !== element.backendNodeId &&
      !(await reachesNode(element, hit, inDocument))
    ) {
      return covered;
    }
  }
  return undefined;
}

/**
 * Whether a hit on the node (same document as the element) reaches the element; `local` is the
 * point in the viewport of the element's document.
 */
async function reachesNode(
  element: ResolvedElement,
  hit: {backendNodeId: number},
  local: Point,
): Promise<boolean> {
  const resolved = await step(
    element.cdp.send('DOM.resolveNode', {backendNodeId: hit.backendNodeId}),
  );
  const objectId = resolved?.object.objectId;
  if (objectId === undefined) {
    return false;
  }
  try {
    const reply = await step(
      element.cdp.send('Runtime.callFunctionOn', {
        functionDeclaration: REACHES_FROM_HIT,
        objectId: element.objectId,
        arguments: [{objectId}, {value: local.x}, {value: local.y}],
        returnByValue: true,
      }),
    );
    return reply?.result.value === true;
  } finally {
    void element.cdp.send('Runtime.releaseObject', {objectId}).catch(() => undefined);
  }
}

/** One bounded CDP step of the frame walk; undefined when it failed. */
function step<T>(work: Promise<T>): Promise<T | undefined> {
  return withTimeout(work, CDP_STEP_TIMEOUT_MS, 'CDP step timed out').catch(() => undefined);
}
