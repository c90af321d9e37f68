/**
 * Keys that scroll (End, Home, Page Up/Down, Space, the arrows) start a smooth scroll that runs
 * for a few hundred milliseconds after the key: press_key answers once it ended, so the next
 * snapshot shows where the page went, not the middle of the way. A scroll is watched in the top
 * document (every scroller in it: scroll events are caught on the way down); the wait is bounded.
 */
import {z} from 'zod';
import {evaluateInPage} from '../evaluation.js';
import {pressCombo} from './keyInput.js';
import type {KeyCombo} from './keyboard.js';
import type {PageState} from '../pages/PageState.js';
import {measureSlowness} from '../workBudget.js';

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

const WATCH_KEY = 'mcp-browser-inspector.scrolls';
/**
 * Longest wait for a scroll to end on a quiet machine (a smooth scroll over a long page takes
 * about 0.5 s). The browser animates it, so a busy machine stretches it: the wait scales with the
 * measured slowness, up to SCROLL_CAP_MS (well under the lock wait it makes others do).
 */
const SCROLL_MAX_MS = 1_500;
const SCROLL_CAP_MS = 10_000;
/** A scroll with no scroll event for this long has ended (where scrollend does not come). */
const SCROLL_IDLE_MS = 100;
/**
 * After a scrollend, still no scroll event for this long: a page that animates its own scrolling
 * sets it frame by frame, and each set may end with a scrollend of its own.
 */
const SCROLLEND_IDLE_MS = 50;
/**
 * Frames in a row without a scroll event before a scroll counts as ended, besides the idle time:
 * a busy machine draws frames far apart, and an animation scrolls once per frame, however slow.
 */
const QUIET_FRAMES = 2;
/** A tab that drew no frame for this long draws none (hidden): quiet is then counted by the clock. */
const NO_FRAMES_MS = 500;
/** Frames to wait for a scroll to begin after the key (smooth scrolls start on the next one). */
const START_FRAMES = 3;
/** Beyond the in-page wait: the round trip of one evaluation. */
const EVALUATION_SLACK_MS = 1_000;
const STEP_TIMEOUT_MS = SCROLL_MAX_MS + EVALUATION_SLACK_MS;

/** How a scrolling key's wait ended: no scroll began, it ended, or the wait ran out (ms). */
export type KeyScrollOutcome =
  {kind: 'none' | 'ended' | 'unread'} | {kind: 'bounded'; waitedMs: number};

const waitReplySchema = z.enum(['none', 'ended', 'bounded']);

/** Installs the watch once per document and returns its counts: the mark to wait from. */
const MARK = `(() => {
  const key = Symbol.for(${JSON.stringify(WATCH_KEY)});
  let watch = globalThis[key];
  if (!watch) {
    watch = {scrolls: 0, last: 0, ends: 0, lastEnd: 0};
    addEventListener('scroll', () => { watch.scrolls++; watch.last = performance.now(); }, {capture: true, passive: true});
    addEventListener('scrollend', () => { watch.ends++; watch.lastEnd = performance.now(); }, {capture: true, passive: true});
    Object.defineProperty(globalThis, key, {value: watch});
  }
  return {scrolls: watch.scrolls, ends: watch.ends};
})()`;

const markSchema = z.object({scrolls: z.number(), ends: z.number()});
type Mark = z.infer<typeof markSchema>;

/** Resolves when no scroll began within a few frames of the mark, or the scroll that did ended. */
function waitExpression(mark: Mark, maxMs: number): string {
  return `new Promise(resolve => {
    const watch = globalThis[Symbol.for(${JSON.stringify(WATCH_KEY)})];
    if (!watch) { resolve('none'); return; }
    const start = performance.now();
    let frames = 0;
    let seen = watch.scrolls;
    let quiet = 0;
    let lastFrame = start;
    // Quiet is counted in frames drawn; the clock's ticks count only where no frame came lately.
    const tick = fromFrame => {
      const now = performance.now();
      if (fromFrame) { lastFrame = now; }
      if (watch.scrolls !== seen) { seen = watch.scrolls; quiet = 0; }
      else if (fromFrame || now - lastFrame >= ${NO_FRAMES_MS}) { quiet++; }
      if (watch.scrolls === ${mark.scrolls}) {
        if (++frames >= ${START_FRAMES}) { resolve('none'); return; }
      } else if (quiet >= ${QUIET_FRAMES} && ((watch.ends > ${mark.ends} && watch.lastEnd >= watch.last && now - watch.last >= ${SCROLLEND_IDLE_MS}) || now - watch.last >= ${SCROLL_IDLE_MS})) {
        // Both parts need the quiet frames: a busy machine can draw one frame ${SCROLL_IDLE_MS} ms late mid-scroll.
        resolve('ended'); return;
      }
      if (now - start >= ${maxMs}) { resolve('bounded'); return; }
      // A tab that draws no frames is still checked, by the clock.
      const timer = setTimeout(() => tick(false), 50);
      requestAnimationFrame(() => { clearTimeout(timer); tick(true); });
    };
    tick(false);
  })`;
}

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
  const maxMs = Math.round(Math.min(SCROLL_CAP_MS, SCROLL_MAX_MS * measureSlowness(state).factor));
  try {
    const reply = await evaluateInPage(
      state,
      {expression: waitExpression(mark, maxMs), awaitPromise: true, returnByValue: true},
      {timeoutMs: maxMs + EVALUATION_SLACK_MS},
    );
    const kind = waitReplySchema.safeParse(reply.result.value);
    if (!kind.success) {
      return {kind: 'unread'};
    }
    return kind.data === 'bounded' ? {kind: 'bounded', waitedMs: maxMs} : {kind: kind.data};
  } catch {
    return {kind: 'unread'};
  }
}

/** The watch's counts before the key, or undefined when the page cannot be read (no wait then). */
async function readMark(state: PageState): Promise<Mark | undefined> {
  try {
    const reply = await evaluateInPage(
      state,
      {expression: MARK, returnByValue: true},
      {timeoutMs: STEP_TIMEOUT_MS},
    );
    const parsed = markSchema.safeParse(reply.result.value);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
