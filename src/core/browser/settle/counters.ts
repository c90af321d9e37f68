/**
 * DOM mutation counters for settling: one per document an action may change (the top document,
 * and the frame documents it acted in). Besides counting mutations, each follows what the action
 * set in motion that changes the page a little later: timers the page's input handlers set (a
 * tooltip's show delay, a debounce) and animations it started (a menu sliding in), so settling can
 * wait for those too — on a page where the action started neither, at no extra round trip. Every
 * read is bounded and raced against dialogs.
 */
import {z} from 'zod';
import {evaluateInDocument, type DocumentRef} from '../documentWorld.js';
import {evaluateInPage, inPage, PROBE_TIMEOUT_MS} from '../evaluation.js';
import {PageFeature, type PageState} from '../pages/PageState.js';

const COUNTER_KEY = 'mcp-browser-inspector.mutations';

/** How many recent changes the mutation record keeps (what the stillness rule of actions reads). */
const MOTION_LOG_SIZE = 256;

/**
 * The document's mutation record, made on first use: how many mutations, when the last one was
 * and when the record began (what "quiet since" can be judged from), and a log of the latest
 * changed nodes (one entry per node per batch), style sheets added or removed and window resizes, with when the log last had to
 * drop an entry (`lost`): actions judge from it whether recent activity can move their element
 * (actionability). An expression.
 */
export const MUTATION_STATE = `(() => {
  const key = Symbol.for(${JSON.stringify(COUNTER_KEY)});
  let state = globalThis[key];
  if (!state) {
    const log = {entries: [], lost: -Infinity};
    const note = (t, kind, node) => {
      if (log.entries.length >= ${MOTION_LOG_SIZE}) log.lost = log.entries.shift().t;
      log.entries.push({t, kind, node});
    };
    state = {n: 0, t: 0, since: performance.now(), follow: undefined, log};
    new MutationObserver(records => {
      const t = performance.now();
      state.n += records.length;
      state.t = t;
      const seen = new Set();
      // A style sheet added or removed can move anything (the first nodes of a change are looked at).
      const sheet = nodes => {
        for (let i = 0; i < nodes.length && i < 64; i++) {
          if (nodes[i].localName === 'style' || nodes[i].localName === 'link') return true;
        }
        return false;
      };
      for (const record of records) {
        if (record.type === 'childList' && (sheet(record.addedNodes) || sheet(record.removedNodes))) note(t, 'sheet', null);
        if (seen.has(record.target)) continue;
        // A batch larger than the log: what it changed is not kept, only that it is unknown.
        if (seen.size >= ${MOTION_LOG_SIZE}) { log.lost = t; break; }
        seen.add(record.target);
        note(t, record.type, record.target);
      }
    }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    addEventListener('resize', () => note(performance.now(), 'resize', null), true);
    Object.defineProperty(globalThis, key, {value: state});
  }
  return state;
})()`;

/** Timers longer than this (a poll, an idle timeout) are not waited for. */
const FOLLOW_TIMER_MAX_MS = 1_000;
/** Bound on the timers followed per action. */
const FOLLOW_TIMER_LIMIT = 64;

/**
 * Animated properties whose change a snapshot does not show (colors, fades): an animation of only
 * these is not waited for. `visibility` is not among them: it hides and shows.
 */
const UNSEEN_PROPERTIES = [
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
];

/**
 * Before the action: remember the animations running now, and, in the page's own world
 * (`timers`), follow the timers that the page's handlers of trusted input set (a show delay, a
 * debounce) — setTimeout is wrapped until the probe after the action, and unwrapped by itself
 * after 30 s should that probe never come.
 */
function armFollowUps(timers: boolean): string {
  return `{
    const follow = state.follow || (state.follow = {timers: new Map(), before: new WeakSet(), wake: undefined, restore: undefined});
    follow.before = new WeakSet(document.getAnimations());
    follow.timers.clear();
    if (${timers} && !follow.restore) {
      const originalSet = globalThis.setTimeout;
      const originalClear = globalThis.clearTimeout;
      const followed = function (handler, delay, ...rest) {
        const event = globalThis.event;
        const ms = Number(delay) || 0;
        if (!event || !event.isTrusted || typeof handler !== 'function' || ms <= 0 || ms > ${FOLLOW_TIMER_MAX_MS} || follow.timers.size >= ${FOLLOW_TIMER_LIMIT}) {
          return originalSet.call(globalThis, handler, delay, ...rest);
        }
        const id = originalSet.call(globalThis, function (...args) {
          follow.timers.delete(id);
          if (follow.wake) follow.wake();
          return handler.apply(this, args);
        }, delay, ...rest);
        follow.timers.set(id, performance.now() + ms);
        return id;
      };
      const cleared = function (id) {
        follow.timers.delete(id);
        return originalClear.call(globalThis, id);
      };
      globalThis.setTimeout = followed;
      globalThis.clearTimeout = cleared;
      const expiry = originalSet.call(globalThis, () => follow.restore && follow.restore(), 30000);
      follow.restore = () => {
        originalClear.call(globalThis, expiry);
        if (globalThis.setTimeout === followed) globalThis.setTimeout = originalSet;
        if (globalThis.clearTimeout === cleared) globalThis.clearTimeout = originalClear;
        follow.restore = undefined;
      };
    }
  }`;
}

/** In-page: the animations started since the arm that a snapshot would show, not yet finished. */
const STARTED_ANIMATIONS = `(follow) => {
  const unseen = new Set(${JSON.stringify(UNSEEN_PROPERTIES)});
  const shows = animation => {
    const effect = animation.effect;
    if (!effect || typeof effect.getKeyframes !== 'function') return false;
    if (effect.getComputedTiming().endTime === Infinity) return false;
    for (const frame of effect.getKeyframes()) {
      for (const key of Object.keys(frame)) {
        if (key !== 'offset' && key !== 'computedOffset' && key !== 'easing' && key !== 'composite' && !unseen.has(key)) return true;
      }
    }
    return false;
  };
  return document.getAnimations().filter(a => a.playState !== 'finished' && a.playState !== 'idle' && !follow.before.has(a) && shows(a));
}`;

/** Installs (once per document) a mutation counter and returns its count; arms the follow-ups. */
function readCounter(timers: boolean): string {
  return `(() => {
  const state = ${MUTATION_STATE};
  ${armFollowUps(timers)}
  return state.n;
})()`;
}

/**
 * After one macrotask (lets setTimeout(0) and promise reactions run): the mutation count, and
 * whether the action left follow-ups (timers it set, animations it started) to wait for.
 */
export const PROBE_COUNTER = `new Promise(resolve => setTimeout(() => {
  const state = globalThis[Symbol.for(${JSON.stringify(COUNTER_KEY)})];
  if (!state) { resolve({n: -1, late: false}); return; }
  const follow = state.follow;
  if (follow && follow.restore) follow.restore();
  const late = !!follow && (follow.timers.size > 0 || (${STARTED_ANIMATIONS})(follow).length > 0);
  resolve({n: state.n, late});
}, 0))`;

function waitQuietExpression(quietMs: number, maxMs: number): string {
  return `new Promise(resolve => {
    const state = globalThis[Symbol.for(${JSON.stringify(COUNTER_KEY)})];
    if (!state) { resolve(0); return; }
    const start = performance.now();
    const check = () => {
      const now = performance.now();
      const idle = now - state.t;
      if (idle >= ${quietMs} || now - start >= ${maxMs}) { resolve(now - start); return; }
      setTimeout(check, Math.max(1, ${quietMs} - idle));
    };
    check();
  })`;
}

/**
 * After a load, in one evaluation: installs the counter (the new document has none yet), lets the
 * page run two macrotasks and, if its DOM changed meanwhile (scripts rendering after load), waits
 * until it has been quiet for `quietMs` (at most `maxMs`); then reads the title, which the
 * browser's title event can trail. The same rule as read → probe → waitQuiet without the round
 * trips between them; the second macrotask stands in for the round trip the read and the probe
 * were apart, so the page gets as long a look as before on an idle machine.
 */
export function settleLoadedExpression(quietMs: number, maxMs: number): string {
  return `new Promise(resolve => {
    const state = ${MUTATION_STATE};
    const before = state.n;
    setTimeout(() => setTimeout(() => {
      const changed = state.n > before;
      const done = () => resolve({changed, title: document.title});
      if (!changed) { done(); return; }
      const start = performance.now();
      const check = () => {
        const now = performance.now();
        if (now - state.t >= ${quietMs} || now - start >= ${maxMs}) { done(); return; }
        setTimeout(check, Math.max(1, ${quietMs} - (now - state.t)));
      };
      check();
    }, 0), 0);
  })`;
}

/**
 * Waits until the followed timers have fired and the animations started since the arm (also by
 * those timers) have finished, or maxMs passed. Woken by each timer and animation end.
 */
function waitFollowUpsExpression(maxMs: number): string {
  return `new Promise(resolve => {
    const state = globalThis[Symbol.for(${JSON.stringify(COUNTER_KEY)})];
    const follow = state && state.follow;
    if (!follow) { resolve(0); return; }
    const start = performance.now();
    const started = ${STARTED_ANIMATIONS};
    const step = () => {
      const left = ${maxMs} - (performance.now() - start);
      const animations = started(follow);
      if (left <= 0 || (follow.timers.size === 0 && animations.length === 0)) {
        follow.wake = undefined;
        resolve(performance.now() - start);
        return;
      }
      let woken = false;
      const wake = () => { if (!woken) { woken = true; clearTimeout(timer); step(); } };
      const timer = setTimeout(wake, left);
      follow.wake = wake;
      for (const animation of animations) animation.finished.then(wake, wake);
    };
    step();
  })`;
}

/** One reading after the action: the count (-1 when the document did not answer), follow-ups. */
export interface Probe {
  count: number;
  late: boolean;
}

/** The mutation counter of one document. Readings are -1 when the document did not answer. */
export interface MutationCounter {
  /** Installs the counter if needed and arms the follow-ups; the count now. */
  read(): Promise<number>;
  /** The count after the page ran one macrotask, and whether follow-ups are pending. */
  probe(): Promise<Probe>;
  /** Resolves once the DOM was quiet for `quietMs` (or after `maxMs`). */
  waitQuiet(quietMs: number, maxMs: number): Promise<void>;
  /** Resolves once the follow-ups the probe saw are done (or after `maxMs`). */
  waitFollowUps(maxMs: number): Promise<void>;
}

function asCount(value: unknown): number {
  return typeof value === 'number' ? value : -1;
}

const probeSchema = z.object({n: z.number(), late: z.boolean()});

function asProbe(value: unknown): Probe {
  const parsed = probeSchema.safeParse(value);
  return parsed.success ? {count: parsed.data.n, late: parsed.data.late} : {count: -1, late: false};
}

/**
 * The top document's probe, taken by the action itself right after its press (pointer.ts reads
 * where the press landed in the same call, over the same cdp): settling takes it as its
 * first reading instead of probing again, one round trip less. Set and taken within one action,
 * under the page's lock.
 */
export const handedOverProbe = new PageFeature<{probe: Probe | undefined}>(
  'handedOverProbe',
  () => ({probe: undefined}),
);

/** Hands settling the probe an action took (see handedOverProbe). */
export function handOverProbe(state: PageState, value: unknown): void {
  const probe = asProbe(value);
  handedOverProbe.get(state).probe = probe.count >= 0 ? probe : undefined;
}

/** The probe the action handed over, if any; taken once. */
export function takeHandedOverProbe(state: PageState): Probe | undefined {
  const slot = handedOverProbe.get(state);
  const probe = slot.probe;
  slot.probe = undefined;
  return probe;
}

/** A counter over one way of evaluating in its document. */
function counterOver(
  evaluate: (expression: string, awaitPromise: boolean, timeoutMs: number) => Promise<unknown>,
  timers: boolean,
  probe: () => Promise<unknown> = () => evaluate(PROBE_COUNTER, true, PROBE_TIMEOUT_MS),
): MutationCounter {
  const wait = async (expression: string, maxMs: number): Promise<void> => {
    await evaluate(expression, true, maxMs + 1_000).catch(() => undefined);
  };
  return {
    read: async () =>
      asCount(await evaluate(readCounter(timers), false, PROBE_TIMEOUT_MS).catch(() => -1)),
    probe: async () => asProbe(await probe()),
    waitQuiet: (quietMs, maxMs) => wait(waitQuietExpression(quietMs, maxMs), maxMs),
    waitFollowUps: maxMs => wait(waitFollowUpsExpression(maxMs), maxMs),
  };
}

/** The top document's counter, in its main world (where the page's own timers are set). */
export function topCounter(state: PageState): MutationCounter {
  return counterOver(
    async (expression, awaitPromise, timeoutMs) => {
      const reply = await evaluateInPage(
        state,
        {expression, awaitPromise, returnByValue: true},
        {timeoutMs},
      );
      const value: unknown = reply.result.value;
      return value;
    },
    true,
    // Over puppeteer's own cdp, the one that reports requests, so a fetch the action started
    // is seen before the probe's answer even on a busy machine.
    () => inPage(state, () => state.page.evaluate(PROBE_COUNTER), {timeoutMs: PROBE_TIMEOUT_MS}),
  );
}

/**
 * A frame document's counter, in our isolated world there (same DOM, out of the page's reach):
 * it follows the animations an action starts there, not the page's timers.
 */
export function frameCounter(state: PageState, doc: DocumentRef): MutationCounter {
  return counterOver(async (expression, awaitPromise, timeoutMs) => {
    const {value} = await evaluateInDocument(state, doc, {
      expression,
      returnByValue: true,
      awaitPromise,
      timeoutMs,
    });
    return value;
  }, false);
}
