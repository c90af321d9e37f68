/**
 * The pieces every element action shares: calling functions on the element in its own document,
 * errors worded for the agent, bounded retries, and raw mouse input (pointer.ts and
 * actionability.ts build the element actions on them).
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {z} from 'zod';
import type {Rect, ResolvedElement} from './elements.js';
import {callFunctionInPage, IN_PAGE_TIMEOUT_MS} from '../evaluation.js';
import {callExpression} from '../injectedCall.js';
import {NEXT_ANIMATION_FRAME} from '../injectedSources.generated.js';
import {PageFeature, PageState} from '../pages/PageState.js';
import {errorText} from '../../../shared/values.js';

export interface Point {
  x: number;
  y: number;
}

/** Errors whose text is meant for the agent as is. */
export class ActionError extends Error {}

export function interactionFailure(uid: string, reason: string): ActionError {
  return new ActionError(`Failed to interact with the element with uid ${uid}. ${reason}`);
}

export function notInteractive(uid: string, lastState: string): ActionError {
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

// In-page functions run with `this` bound to the element (Runtime.callFunctionOn) and return
// plain JSON, checked with zod on the way back.

/**
 * One animation frame of the top page, capped: a scroll that an iframe passed up to its parent
 * lands asynchronously, so the element's box is read again only after it.
 */
export const NEXT_FRAME = callExpression(NEXT_ANIMATION_FRAME);

/** What SELECT_OPTION (src/injected/actions.ts: choosing a drop-down's option) answers. */
export const selectOptionSchema = z.object({
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
  args: Protocol.Runtime.CallArgument[],
  schema: z.ZodType<T>,
): Promise<T> {
  // Bounded and raced against dialogs: a page handler the helper triggers may open one. The
  // element's own cdp: a cross-site iframe's elements live on the frame's cdp.
  const reply = await callFunctionInPage(
    state,
    {
      functionDeclaration: declaration,
      objectId: element.objectId,
      arguments: args,
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
export function onElement<T>(
  state: PageState,
  element: ResolvedElement,
  declaration: string,
  args: readonly unknown[],
  schema: z.ZodType<T>,
): Promise<T> {
  return onElementWith(
    state,
    element,
    declaration,
    args.map(value => ({value})),
    schema,
  );
}

/** onElement with protocol arguments (remote objects of the element's cdp among them). */
export async function onElementWith<T>(
  state: PageState,
  element: ResolvedElement,
  declaration: string,
  args: Protocol.Runtime.CallArgument[],
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

/** Waits `ms`, or less when the call is cancelled (resolves either way). */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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
 * Where mouse events for an element go: the top page's cdp with top-page coordinates, or, for
 * an element of a cross-site frame, that frame's own cdp with its own viewport coordinates
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
  /** The same point in the viewport of the element's own document. */
  local: Point;
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
 * Between the clicks of a double click: a person's pace, well inside every platform's double-click
 * interval (500 ms on Windows, 400 ms on GTK), so a page that times the gap sees one.
 */
const DOUBLE_CLICK_GAP_MS = 50;

/**
 * Move, then press and release `clickCount` times (clickCount 1, then 2: the second release is
 * what makes a dblclick). The events of one click are sent back to back: CDP keeps their order,
 * and a click handler that opens a dialog holds the rest until it is handled.
 */
export async function clickAt(
  state: PageState,
  point: Point,
  clickCount: number,
  cdp: CDPSession = state.cdp,
  signal?: AbortSignal,
): Promise<void> {
  await prepareInput(state);
  let sent: Promise<unknown>[] = [mouse(cdp, {type: 'mouseMoved', x: point.x, y: point.y})];
  for (let count = 1; count <= clickCount; count++) {
    if (count > 1) {
      await Promise.all(sent);
      sent = [];
      await sleep(DOUBLE_CLICK_GAP_MS, signal);
      signal?.throwIfAborted();
    }
    const press = {x: point.x, y: point.y, button: 'left' as const, clickCount: count};
    sent.push(mouse(cdp, {type: 'mousePressed', buttons: 1, ...press}));
    sent.push(mouse(cdp, {type: 'mouseReleased', buttons: 0, ...press}));
  }
  await Promise.all(sent);
}

export async function moveTo(
  state: PageState,
  point: Point,
  cdp: CDPSession = state.cdp,
): Promise<void> {
  await prepareInput(state);
  await mouse(cdp, {type: 'mouseMoved', x: point.x, y: point.y});
}
