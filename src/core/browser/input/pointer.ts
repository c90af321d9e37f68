/**
 * click and hover on snapshot elements. Each waits until its element is actionable
 * (actionability.ts), presses, then reads where the press's events landed: a press that would
 * have reached another element (the page moved between the check and the press) was held back in
 * the page, and is tried again while time allows — so success is reported only for a press its
 * element received.
 */
import {z} from 'zod';
import {
  clickAt,
  elementGone,
  moveTo,
  onElement,
  retry,
  selectOptionSchema,
  type ActOptions,
  type Actionable,
} from './actions.js';
import {
  disarmLanding,
  OptionElement,
  Readiness,
  type ActionabilityOptions,
} from './actionability.js';
import {isInChildFrame, type Rect, type ResolvedElement} from './elements.js';
import {inPage, PROBE_TIMEOUT_MS} from '../evaluation.js';
import {callExpression} from '../injectedCall.js';
import {
  READ_LANDING,
  READ_LANDING_THEN_PROBE,
  SELECT_OPTION,
} from '../injectedSources.generated.js';
import type {PageState} from '../pages/PageState.js';
import {handOverProbe} from '../settle/counters.js';

/**
 * Where the press's events landed: 'ok', 'none' (the element's document saw no event of the
 * press, as for a hover where the pointer already was), or what received them instead. A
 * document that went away with the press (a link) counts as 'none'.
 */
async function readLanding(state: PageState, element: ResolvedElement): Promise<string> {
  if (isInChildFrame(state, element)) {
    return onElement(state, element, READ_LANDING, [], z.string()).catch(() => 'none');
  }
  // The top document: over puppeteer's cdp and in its main world, as settling probes, so
  // the probe can come in the same call and be handed over (a fetch the press started is
  // reported on that cdp before the answer).
  try {
    const reply = landedSchema.parse(
      await inPage(state, () => state.page.evaluate(callExpression(READ_LANDING_THEN_PROBE)), {
        timeoutMs: PROBE_TIMEOUT_MS,
      }),
    );
    if (reply.probe !== undefined) {
      handOverProbe(state, reply.probe);
    }
    return reply.landed;
  } catch {
    return 'none';
  }
}

const landedSchema = z.object({landed: z.string(), probe: z.unknown().optional()});

/** Waits until the element is actionable, presses, and repeats while the press landed elsewhere. */
async function pressChecked(
  state: PageState,
  element: ResolvedElement,
  options: ActionabilityOptions,
  press: (target: Actionable) => Promise<void>,
): Promise<Rect> {
  const readiness = new Readiness(state, element, {...options, landing: true});
  for (;;) {
    const target = await readiness.wait();
    try {
      await press(target);
    } catch (error) {
      disarmLanding(state, element);
      throw error;
    }
    const landed = await readLanding(state, element);
    if (landed === 'ok' || landed === 'none') {
      return target.rect;
    }
    // The page held the press back; describe what is there now if it stays so.
    await readiness.covered({by: landed, pinned: false, ...readiness.lookUpAt(target.local)});
  }
}

/** Clicks an element (an <option> of a drop-down is chosen through its <select>). */
export async function clickElement(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions & {clickCount: number},
): Promise<Rect> {
  try {
    return await pressChecked(
      state,
      element,
      {...options, enabled: true, kind: 'click', options: options.clickCount === 1},
      target =>
        clickAt(
          state,
          target.pointer.point,
          options.clickCount,
          target.pointer.cdp,
          options.signal,
        ),
    );
  } catch (error) {
    if (error instanceof OptionElement) {
      return chooseOption(state, element, options);
    }
    throw error;
  }
}

/** Chooses a drop-down's <option> through its <select>, as a user picking it from the list. */
async function chooseOption(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions,
): Promise<Rect> {
  const chosen = await retry<z.infer<typeof selectOptionSchema>>(element.uid, options, async () => {
    const result = await onElement(state, element, SELECT_OPTION, [], selectOptionSchema);
    if (result.state === 'detached') {
      throw elementGone(element.uid);
    }
    return result.state === 'ok' || result.state === 'no'
      ? {done: result}
      : {waiting: result.state};
  });
  return chosen.rect ?? {x: 0, y: 0, width: 0, height: 0};
}

export function hoverElement(
  state: PageState,
  element: ResolvedElement,
  options: ActOptions,
): Promise<Rect> {
  return pressChecked(state, element, {...options, enabled: false, kind: 'hover'}, target =>
    moveTo(state, target.pointer.point, target.pointer.cdp),
  );
}
