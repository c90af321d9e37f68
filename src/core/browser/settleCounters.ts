/**
 * DOM mutation counters for settling: one per document an action may change (the top document,
 * and the frame documents it acted in). Every read is bounded and raced against dialogs.
 */
import {evaluateInDocument, type DocumentRef} from './documentWorld.js';
import {evaluateInPage, inPage, PROBE_TIMEOUT_MS} from './evaluation.js';
import type {PageState} from './PageState.js';

const COUNTER_KEY = 'mcp-browser-inspector.mutations';

/** Installs (once per document) a mutation counter and returns its count. */
const READ_COUNTER = `(() => {
  const key = Symbol.for(${JSON.stringify(COUNTER_KEY)});
  let state = globalThis[key];
  if (!state) {
    state = {n: 0, t: 0};
    new MutationObserver(records => { state.n += records.length; state.t = performance.now(); })
      .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    Object.defineProperty(globalThis, key, {value: state});
  }
  return state.n;
})()`;

/** After one macrotask (lets setTimeout(0) and promise reactions run), the mutation count. */
const PROBE_COUNTER = `new Promise(resolve => setTimeout(() => {
  const state = globalThis[Symbol.for(${JSON.stringify(COUNTER_KEY)})];
  resolve(state ? state.n : -1);
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

/** The mutation counter of one document. Readings are -1 when the document did not answer. */
export interface MutationCounter {
  /** Installs the counter if needed; the count now. */
  read(): Promise<number>;
  /** The count after the page ran one macrotask. */
  probe(): Promise<number>;
  /** Resolves once the DOM was quiet for `quietMs` (or after `maxMs`). */
  waitQuiet(quietMs: number, maxMs: number): Promise<void>;
}

function asCount(value: unknown): number {
  return typeof value === 'number' ? value : -1;
}

/** The top document's counter, in its main world. */
export function topCounter(state: PageState): MutationCounter {
  const evaluate = async (
    expression: string,
    awaitPromise: boolean,
    timeoutMs = PROBE_TIMEOUT_MS,
  ): Promise<number> => {
    const reply = await evaluateInPage(
      state,
      {expression, awaitPromise, returnByValue: true},
      {timeoutMs},
    );
    return asCount(reply.result.value);
  };
  return {
    read: () => evaluate(READ_COUNTER, false).catch(() => -1),
    // Over puppeteer's own session, the one that reports requests, so a fetch the action started
    // is seen before the probe's answer even on a busy machine.
    probe: async () =>
      asCount(
        await inPage(state, () => state.page.evaluate(PROBE_COUNTER), {
          timeoutMs: PROBE_TIMEOUT_MS,
        }),
      ),
    waitQuiet: async (quietMs, maxMs) => {
      await evaluate(waitQuietExpression(quietMs, maxMs), true, maxMs + 1_000).catch(() => -1);
    },
  };
}

/** A frame document's counter, in our isolated world there (same DOM, out of the page's reach). */
export function frameCounter(state: PageState, doc: DocumentRef): MutationCounter {
  const evaluate = async (
    expression: string,
    awaitPromise: boolean,
    timeoutMs = PROBE_TIMEOUT_MS,
  ): Promise<number> => {
    const {value} = await evaluateInDocument(state, doc, {
      expression,
      returnByValue: true,
      awaitPromise,
      timeoutMs,
    });
    return asCount(value);
  };
  return {
    read: () => evaluate(READ_COUNTER, false).catch(() => -1),
    probe: () => evaluate(PROBE_COUNTER, true),
    waitQuiet: async (quietMs, maxMs) => {
      await evaluate(waitQuietExpression(quietMs, maxMs), true, maxMs + 1_000).catch(() => -1);
    },
  };
}
