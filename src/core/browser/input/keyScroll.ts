/**
 * Keys that scroll (End, Home, Page Up/Down, Space, the arrows) start a smooth scroll that runs
 * for a few hundred milliseconds after the key: press_key answers once it ended, so the next
 * snapshot shows where the page went, not the middle of the way. A scroll is watched in the top
 * document (every scroller in it: scroll events are caught on the way down); the wait is bounded.
 * The in-page side (the watch, the wait and its rules) is src/injected/keyScroll.ts.
 */
import {z} from 'zod';
import {EvaluationTimeoutError, evaluateInPage} from '../evaluation.js';
import {callExpression} from '../injectedCall.js';
import {MARK_SCROLLS, WAIT_FOR_SCROLL_END} from '../injectedSources.generated.js';
import {pressCombo} from './keyInput.js';
import type {KeyCombo} from './keyboard.js';
import type {PageState} from '../pages/PageState.js';
import {measureSlowness} from '../workBudget.js';
import {actionWaitBoundsFeature, KEY_SCROLL_WAIT_MS} from './waitBounds.js';

const SCROLL_KEYS = new Set([
  'End',
  'Home',
  'PageDown',
  'PageUp',
  ' ',
  'Space',
  'ArrowDown',
  'ArrowUp',
  'ArrowLeft',
  'ArrowRight',
]);

/**
 * The wait for a scroll to end (KEY_SCROLL_WAIT_MS on a quiet machine, or the page's own bound):
 * the browser animates it, so a busy machine stretches it; the wait scales with the measured
 * slowness, up to SCROLL_CAP_MS (well under the lock wait it makes others do).
 */
const SCROLL_CAP_MS = 10_000;
/** Beyond the in-page wait: the round trip of one evaluation on a quiet machine (it scales too). */
const EVALUATION_SLACK_MS = 1_000;
const STEP_TIMEOUT_MS = KEY_SCROLL_WAIT_MS + EVALUATION_SLACK_MS;

/**
 * How a scrolling key's wait ended: no scroll began, it ended, the page could not be read before
 * the key (no wait then), the page said it still scrolled when the wait ran out, or it gave no
 * answer within the wait (busy or frozen: whether the scroll ended is not known).
 */
export type KeyScrollOutcome =
  {kind: 'none' | 'ended' | 'unread'} | {kind: 'bounded' | 'unanswered'; waitedMs: number};

const waitReplySchema = z.enum(['none', 'ended', 'bounded']);

const markSchema = z.object({scrolls: z.number(), ends: z.number()});
type Mark = z.infer<typeof markSchema>;

/** Presses the combination; for a key that scrolls, returns once the scroll it started ended. */
export async function pressAndSettleScroll(
  state: PageState,
  combo: KeyCombo,
): Promise<KeyScrollOutcome> {
  if (!SCROLL_KEYS.has(combo.key)) {
    await pressCombo(state, combo);
    return {kind: 'none'};
  }
  const mark = await readMark(state);
  await pressCombo(state, combo);
  if (!mark) {
    return {kind: 'unread'};
  }
  const {keyScrollMs} = actionWaitBoundsFeature.get(state);
  const {factor} = measureSlowness(state);
  const maxMs = Math.round(Math.min(SCROLL_CAP_MS, keyScrollMs * factor));
  const slackMs = Math.round(Math.min(SCROLL_CAP_MS, EVALUATION_SLACK_MS * factor));
  try {
    const reply = await evaluateInPage(
      state,
      {
        expression: callExpression(WAIT_FOR_SCROLL_END, mark, maxMs),
        awaitPromise: true,
        returnByValue: true,
      },
      {timeoutMs: maxMs + slackMs},
    );
    const kind = waitReplySchema.safeParse(reply.result.value);
    if (!kind.success) {
      return {kind: 'unread'};
    }
    return kind.data === 'bounded' ? {kind: 'bounded', waitedMs: maxMs} : {kind: kind.data};
  } catch (error) {
    // No answer in time is not an end: the reply says it is not known (a dialog or a navigation
    // the key caused is told by the action's own outcome).
    return error instanceof EvaluationTimeoutError
      ? {kind: 'unanswered', waitedMs: maxMs + slackMs}
      : {kind: 'unread'};
  }
}

/** The watch's counts before the key, or undefined when the page cannot be read (no wait then). */
async function readMark(state: PageState): Promise<Mark | undefined> {
  try {
    const reply = await evaluateInPage(
      state,
      {expression: callExpression(MARK_SCROLLS), returnByValue: true},
      {timeoutMs: STEP_TIMEOUT_MS},
    );
    const parsed = markSchema.safeParse(reply.result.value);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
