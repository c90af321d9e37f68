/**
 * Mouse, keyboard and form actions on snapshot elements, over the page's own CDP session. Before
 * acting, an element must be actionable: attached, visible with a non-empty box, enabled (and
 * editable for text), and in the same place on two reads. Each check is one or two round trips
 * and is repeated only while the element is not ready, so an action on a ready element costs a
 * handful of round trips and no fixed delay.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {
  elementRect,
  isInChildFrame,
  scrollIntoTopView,
  type Rect,
  type ResolvedElement,
} from './elements.js';
import {callFunctionInPage, evaluateInPage, IN_PAGE_TIMEOUT_MS} from './evaluation.js';
import {frameTargetsFeature} from './frames.js';
import {PageFeature, PageState} from './PageState.js';
import {errorText} from '../../shared/values.js';

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

/**
 * One animation frame of the top page, capped: a scroll that an iframe passed up to its parent
 * lands asynchronously, so the element's box is read again only after it.
 */
export const NEXT_FRAME = `new Promise(resolve => {
  const timer = setTimeout(() => resolve(false), 100);
  requestAnimationFrame(() => { clearTimeout(timer); resolve(true); });
})`;

const checkSchema = z.object({
  state: z.enum(['ok', 'detached', 'disabled', 'readonly', 'hidden']),
  width: z.number().optional(),
  height: z.number().optional(),
});

/** What kind of control `fill` deals with, and whether it can be seen at all. */
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

/** Focus emulation makes every tab behave as the focused one (focus events, :focus styles). */
const focusFeature = new PageFeature<Promise<void>>('inputFocus', state =>
  state.cdp
    .send('Emulation.setFocusEmulationEnabled', {enabled: true})
    .then(() => undefined)
    .catch(() => undefined),
);

async function callOn<T>(
  state: PageState,
  element: ResolvedElement,
  declaration: string,
  args: readonly unknown[],
  schema: z.ZodType<T>,
): Promise<T> {
  // Bounded and raced against dialogs: a page handler the helper triggers may open one. The
  // element's own session: a cross-site iframe's elements live on the frame's session.
  const reply = await callFunctionInPage(
    state,
    {
      functionDeclaration: declaration,
      objectId: element.objectId,
      arguments: args.map(value => ({value})),
      returnByValue: true,
      awaitPromise: true,
      userGesture: true,
    },
    {cdp: element.cdp, timeoutMs: IN_PAGE_TIMEOUT_MS, what: 'The page'},
  );
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

/**
 * Calls a function on the element in its own document. A call whose document went away
 * (navigation, frame removal) means the element is gone.
 */
export async function onElement<T>(
  state: PageState,
  element: ResolvedElement,
  declaration: string,
  args: readonly unknown[],
  schema: z.ZodType<T>,
): Promise<T> {
  try {
    return await callOn(state, element, declaration, args, schema);
  } catch (error) {
    const text = errorText(error);
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
export async function retry<T>(
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

/**
 * Where mouse events for an element go: the top page's session with top-page coordinates, or, for
 * an element of a cross-site frame, that frame's own session with its own viewport coordinates
 * (the browser then needs no hit test, which a frame in a background tab cannot answer).
 */
export interface PointerTarget {
  cdp: CDPSession;
  point: Point;
}

export interface Actionable {
  /** Where to point the mouse, in the top page's viewport CSS pixels. */
  point: Point;
  /** The element's box in the top page's viewport CSS pixels. */
  rect: Rect;
  pointer: PointerTarget;
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
  const inChildFrame = isInChildFrame(state, element);
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
      await scrollIntoTopView(state, element);
    }
    const first = await elementRect(state, element);
    if (first && inChildFrame) {
      await evaluateInPage(
        state,
        {expression: NEXT_FRAME, awaitPromise: true},
        {timeoutMs: 1_000},
      ).catch(() => undefined);
    }
    const second = first && (await elementRect(state, element));
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
    let pointer: PointerTarget = {cdp: state.cdp, point: {x, y}};
    if (element.cdp !== state.cdp) {
      const offset = await frameTargetsFeature.get(state).offsetOf(element.cdp);
      pointer = {cdp: element.cdp, point: {x: x - offset.x, y: y - offset.y}};
    }
    return {done: {point: {x, y}, rect: second, pointer}};
  });
}

export async function prepareInput(state: PageState): Promise<void> {
  await focusFeature.get(state);
}

// Mouse ----------------------------------------------------------------------------------------

export function mouse(
  target: PageState | CDPSession,
  params: Protocol.Input.DispatchMouseEventRequest,
): Promise<unknown> {
  const cdp = target instanceof PageState ? target.cdp : target;
  return cdp.send('Input.dispatchMouseEvent', params);
}

/**
 * Move, then press and release `clickCount` times. The events are sent back to back: CDP keeps
 * their order, and a click handler that opens a dialog holds the rest until it is handled.
 */
export async function clickAt(
  state: PageState,
  point: Point,
  clickCount: number,
  cdp: CDPSession = state.cdp,
): Promise<void> {
  await prepareInput(state);
  const sent: Promise<unknown>[] = [mouse(cdp, {type: 'mouseMoved', x: point.x, y: point.y})];
  for (let count = 1; count <= clickCount; count++) {
    const press = {x: point.x, y: point.y, button: 'left' as const, clickCount: count};
    sent.push(mouse(cdp, {type: 'mousePressed', buttons: 1, ...press}));
    sent.push(mouse(cdp, {type: 'mouseReleased', buttons: 0, ...press}));
  }
  await Promise.all(sent);
}

async function moveTo(state: PageState, point: Point, cdp: CDPSession = state.cdp): Promise<void> {
  await prepareInput(state);
  await mouse(cdp, {type: 'mouseMoved', x: point.x, y: point.y});
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
  await clickAt(state, target.pointer.point, options.clickCount, target.pointer.cdp);
  return target.rect;
}

export async function hoverElement(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions,
): Promise<Rect> {
  const target = await waitForActionable(state, element, {...options, enabled: false});
  await moveTo(state, target.pointer.point, target.pointer.cdp);
  return target.rect;
}
