/**
 * DOM mutation counters for settling: one per document an action may change (the top document,
 * and the frame documents it acted in). Besides counting mutations, each follows what the action
 * set in motion that changes the page a little later: timers the page's input handlers set (a
 * tooltip's show delay, a debounce) and animations it started (a menu sliding in), so settling can
 * wait for those too — on a page where the action started neither, at no extra round trip. Every
 * read is bounded and raced against dialogs. The in-page side is src/injected/settleCounters.ts.
 */
import {z} from 'zod';
import {evaluateInDocument, type DocumentRef} from '../documentWorld.js';
import {evaluateInPage, inPage, PROBE_TIMEOUT_MS} from '../evaluation.js';
import {callExpression} from '../injectedCall.js';
import {
  PROBE_MUTATIONS,
  READ_MUTATION_COUNT,
  SETTLE_LOADED,
  WAIT_FOLLOW_UPS,
  WAIT_QUIET,
} from '../injectedSources.generated.js';
import {PageFeature, type PageState} from '../pages/PageState.js';

/**
 * After one macrotask (lets setTimeout(0) and promise reactions run): the mutation count, and
 * whether the action left follow-ups (timers it set, animations it started) to wait for.
 */
const PROBE_COUNTER = callExpression(PROBE_MUTATIONS);

/**
 * After a load, in one evaluation: installs the counter (the new document has none yet), lets the
 * page run two macrotasks and, if its DOM changed meanwhile (scripts rendering after load), waits
 * until it has been quiet for `quietMs` (at most `maxMs`); then reads the title, which the
 * browser's title event can trail. The same rule as read → probe → waitQuiet without the round
 * trips between them; the second macrotask stands in for the round trip the read and the probe
 * were apart, so the page gets as long a look as before on an idle machine.
 */
export function settleLoadedExpression(quietMs: number, maxMs: number): string {
  return callExpression(SETTLE_LOADED, quietMs, maxMs);
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
      asCount(
        await evaluate(callExpression(READ_MUTATION_COUNT, timers), false, PROBE_TIMEOUT_MS).catch(
          () => -1,
        ),
      ),
    probe: async () => asProbe(await probe()),
    waitQuiet: (quietMs, maxMs) => wait(callExpression(WAIT_QUIET, quietMs, maxMs), maxMs),
    waitFollowUps: maxMs => wait(callExpression(WAIT_FOLLOW_UPS, maxMs), maxMs),
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
