/**
 * drag: one element onto another with real mouse input (press, move in steps, release), which
 * drives both HTML drag and drop and pointer-event based dragging.
 */
import type {CDPSession} from 'puppeteer-core';
import {z} from 'zod';
import {
  mouse,
  NEXT_FRAME,
  onElement,
  prepareInput,
  type ActOptions,
  type Actionable,
} from './actions.js';
import {waitForActionable} from './actionability.js';
import type {Rect, ResolvedElement} from './elements.js';
import {evaluateInPage} from './evaluation.js';
import {withTimeout} from './lock.js';
import type {PageState} from './PageState.js';

/** Whether the pointer is over the element (or one of its descendants). */
const IS_HOVERED = `function () {
  const element = this.nodeType === 1 ? this : this.parentElement;
  return element ? element.matches(':hover') : false;
}`;

/** Aims of the source before pressing anyway: each after the page drew a new frame. */
const AIM_ATTEMPTS = 4;
/** Bound on bringing the tab to the front and on waiting for its next frame. */
const FRAME_WAIT_MS = 1_000;

export async function dragElement(
  state: PageState,
  from: ResolvedElement,
  to: ResolvedElement,
  options: ActOptions,
): Promise<Rect> {
  // The target first: scrolling it into view may move the source, which is measured after.
  await waitForActionable(state, to, {...options, enabled: false, kind: 'drag'});
  await prepareInput(state);
  const source = await pointAtSource(state, from, options);
  const target = await waitForActionable(state, to, {...options, enabled: false, kind: 'drag'});
  // HTML drag and drop starts in the browser, which needs the top page's coordinates (events sent
  // to a frame's own cdp would not start a drag).
  const cdp = state.cdp;
  const {x, y} = source.point;
  const end = target.point;
  await mouse(cdp, {type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1});
  try {
    // A few intermediate moves: drag starts after a threshold, and dragenter/dragover need moves
    // over the target. The last one is on the target itself.
    const steps = 3;
    for (let step = 1; step <= steps; step++) {
      await moveWithButton(cdp, x + ((end.x - x) * step) / steps, y + ((end.y - y) * step) / steps);
    }
    await moveWithButton(cdp, end.x, end.y);
  } finally {
    await mouse(cdp, {
      type: 'mouseReleased',
      x: end.x,
      y: end.y,
      button: 'left',
      buttons: 0,
      clickCount: 1,
    });
  }
  return target.rect;
}

function moveWithButton(cdp: CDPSession, x: number, y: number): Promise<unknown> {
  return mouse(cdp, {type: 'mouseMoved', x, y, button: 'left', buttons: 1});
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
