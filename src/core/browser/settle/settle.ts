/**
 * Settling after an action: if the action started a navigation, wait for it to load; if it changed
 * the DOM, wait until the DOM has been quiet for a moment; if it did neither, return at once. There
 * is no fixed delay, so a click that changes nothing costs two round trips, not 100 ms. Besides the
 * top document, the frame documents the action acted in (an element inside an iframe, also a
 * cross-site one) are watched the same way.
 */
import {z} from 'zod';
import type {DocumentRef} from '../documentWorld.js';
import {evaluateInPage, PROBE_TIMEOUT_MS} from '../evaluation.js';
import type {OpenDialog, PageState} from '../pages/PageState.js';
import {
  frameCounter,
  settleLoadedExpression,
  takeHandedOverProbe,
  topCounter,
  type MutationCounter,
  type Probe,
} from './counters.js';
import {NavigationWatch, RequestTracker} from './watch.js';

export interface SettleOptions {
  signal?: AbortSignal | undefined;
  /** How long to wait for a navigation the action started (default 3 s, like chrome-devtools-mcp). */
  navigationTimeoutMs?: number | undefined;
  /** Cap on waiting for the DOM to go quiet. */
  domTimeoutMs?: number | undefined;
  /** Quiet period that counts as settled. */
  quietMs?: number | undefined;
  waitForDom?: boolean | undefined;
  /**
   * What to do with a dialog the action opens: by default the wait ends and the dialog is reported;
   * a function handles it instead (evaluate_script accepts dialogs) and the wait goes on.
   */
  onDialog?: ((dialog: OpenDialog) => Promise<void>) | undefined;
  /** Cap on waiting for fetch/XHR requests the action started (default: the navigation timeout). */
  requestTimeoutMs?: number | undefined;
  /** Frame documents the action acts in, watched besides the top document. */
  frames?: readonly DocumentRef[] | undefined;
  /** Cap on waiting for the timers and animations the action started (default 1 s). */
  followUpTimeoutMs?: number | undefined;
}

/**
 * How long settling waits for what an action set in motion: a tooltip's show delay, a menu's
 * slide-in. Short: a timer longer than this (a poll) is not followed at all.
 */
const FOLLOW_UP_TIMEOUT_MS = 1_000;

export interface SettleOutcome<T> {
  /** Undefined when a dialog opened before the action finished. */
  value: T | undefined;
  /** Set when the main frame moved to another URL. */
  navigatedTo?: string;
  /** Set when the action opened a JavaScript dialog (the page is blocked until it is handled). */
  dialog?: OpenDialog;
}

/** A dialog the action opened, as a promise to race waits against. */
class DialogWatch {
  seen: OpenDialog | undefined;
  readonly opened: Promise<'dialog'>;
  readonly stop: () => void;

  constructor(state: PageState, onDialog: SettleOptions['onDialog']) {
    let stop: () => void = () => undefined;
    this.opened = new Promise<'dialog'>(resolve => {
      stop = state.onDialog(dialog => {
        if (onDialog) {
          void onDialog(dialog).catch(() => undefined);
          return;
        }
        this.seen = dialog;
        resolve('dialog');
      });
    });
    this.stop = stop;
  }
}

/** Runs `action` on the page and waits until what it started has finished (bounded). */
export async function actAndSettle<T>(
  state: PageState,
  action: () => Promise<T>,
  options: SettleOptions = {},
): Promise<SettleOutcome<T>> {
  const urlBefore = state.page.url();
  const frames = distinctFrames(state, options.frames ?? []);
  const watch = new NavigationWatch(state, frames);
  const requests = new RequestTracker(state);
  const dialogs = new DialogWatch(state, options.onDialog);
  const counters = [topCounter(state), ...frames.map(frame => frameCounter(state, frame))];
  const outcome = (value: T | undefined): SettleOutcome<T> => ({
    value,
    ...outcomeExtras(state, urlBefore, dialogs.seen),
  });
  let probed = false;
  // A probe left by an earlier action (one that failed after its press) is not this one's.
  takeHandedOverProbe(state);
  try {
    const before = await Promise.all(counters.map(counter => counter.read()));
    const acted = action().then(value => ({value}));
    // If a dialog wins the race, the action may still fail later: that must not go unhandled.
    acted.catch(() => undefined);
    const raced = await Promise.race([acted, dialogs.opened]);
    if (raced === 'dialog') {
      return outcome(undefined);
    }
    const handedOver = takeHandedOverProbe(state);
    if (!navigationStarted(watch)) {
      probed = true;
      await settleChanges(counters, before, {watch, requests, dialogs, options, handedOver});
    }
    if (navigationStarted(watch) && !dialogs.seen) {
      await watch.waitForEnd(options.navigationTimeoutMs ?? 3_000, options.signal, dialogs.opened);
    }
    return outcome(raced.value);
  } finally {
    if (!probed) {
      // The action failed or a dialog ended the wait: the probe still ends the following of
      // timers (otherwise it ends by itself later).
      for (const counter of counters) {
        void counter.probe().catch(() => undefined);
      }
    }
    requests.dispose();
    watch.dispose();
    dialogs.stop();
  }
}

/**
 * After an action that started no navigation: waits for the fetches it started and for what it
 * set in motion (timers, animations), then for the DOM of every document whose counter moved to
 * go quiet. Ends early when a dialog opens.
 */
async function settleChanges(
  counters: readonly MutationCounter[],
  before: readonly number[],
  context: {
    watch: NavigationWatch;
    requests: RequestTracker;
    dialogs: DialogWatch;
    options: SettleOptions;
    /** The top document's first probe, when the action took it (handedOverProbe). */
    handedOver: Probe | undefined;
  },
): Promise<void> {
  const {watch, requests, dialogs, options} = context;
  const probeAll = (top?: Probe): Promise<Probe[] | 'dialog'> =>
    Promise.race([
      Promise.all(
        counters.map((counter, index) =>
          index === 0 && top !== undefined
            ? Promise.resolve(top)
            : counter.probe().catch(() => ({count: -2, late: false})),
        ),
      ),
      dialogs.opened,
    ]);
  const stopped = (): boolean => dialogs.seen !== undefined || navigationStarted(watch);
  // Always probed, also when not waiting: the probe ends the following of timers.
  let after = await probeAll(context.handedOver);
  if (after === 'dialog' || options.waitForDom === false) {
    return;
  }
  // A fetch the action started usually renders its answer: wait for it, then look again.
  const fetches = async (): Promise<void> => {
    if (requests.pending > 0 && !stopped()) {
      await Promise.race([
        requests.idle(options.requestTimeoutMs ?? options.navigationTimeoutMs ?? 3_000),
        dialogs.opened,
      ]);
    }
  };
  const pendingFetches = requests.pending > 0;
  await fetches();
  // A show delay or a transition the action started changes the page a moment later.
  const late = after.some(probe => probe.late);
  if (late && !stopped()) {
    const followMs = options.followUpTimeoutMs ?? FOLLOW_UP_TIMEOUT_MS;
    await Promise.race([
      Promise.all(counters.map(counter => counter.waitFollowUps(followMs))),
      dialogs.opened,
    ]);
    await fetches();
  }
  if (stopped()) {
    return;
  }
  if (pendingFetches || late) {
    after = await probeAll();
    if (after === 'dialog') {
      return;
    }
  }
  const readings = after;
  const changed = counters.filter((_counter, index) => {
    const [was, now] = [before[index] ?? -1, readings[index]?.count ?? -1];
    return was >= 0 && now >= 0 && was !== now;
  });
  const domTimeoutMs = options.domTimeoutMs ?? 3_000;
  const quietMs = options.quietMs ?? 50;
  await Promise.race([
    Promise.all(changed.map(counter => counter.waitQuiet(quietMs, domTimeoutMs))),
    dialogs.opened,
  ]);
}

/** The frames to watch besides the top document, each once. */
function distinctFrames(state: PageState, frames: readonly DocumentRef[]): DocumentRef[] {
  const seen = new Set<string>([state.mainFrameId]);
  return frames.filter(frame => {
    if (seen.has(frame.frameId)) {
      return false;
    }
    seen.add(frame.frameId);
    return true;
  });
}

/** Read through a call so flow analysis does not assume it cannot change across awaits. */
function navigationStarted(watch: NavigationWatch): boolean {
  return watch.started;
}

function outcomeExtras(
  state: PageState,
  urlBefore: string,
  dialog: OpenDialog | undefined,
): {navigatedTo?: string; dialog?: OpenDialog} {
  const urlAfter = state.page.url();
  return {
    ...(urlAfter !== urlBefore ? {navigatedTo: urlAfter} : {}),
    ...(dialog ? {dialog} : {}),
  };
}

/**
 * After a load: if the page is still changing its DOM (scripts rendering after load), wait until it
 * has been quiet for a moment; a static page costs one short round trip. Returns the document's
 * title as read at the end (undefined when the document did not answer: it navigated away or a
 * dialog blocks it), since the browser's title event can trail the load.
 */
export async function settleDom(
  state: PageState,
  options: {signal?: AbortSignal; quietMs?: number; maxMs?: number} = {},
): Promise<{title: string | undefined}> {
  const maxMs = options.maxMs ?? 3_000;
  try {
    const reply = await evaluateInPage(
      state,
      {
        expression: settleLoadedExpression(options.quietMs ?? 50, maxMs),
        awaitPromise: true,
        returnByValue: true,
      },
      // The first macrotask as bounded as a probe, plus the longest quiet wait.
      {timeoutMs: PROBE_TIMEOUT_MS + maxMs, signal: options.signal},
    );
    const settled = settledSchema.safeParse(reply.result.value);
    return {title: settled.success ? settled.data.title : undefined};
  } catch {
    // A document that navigates away or blocks on a dialog is settled as far as we can tell.
    return {title: undefined};
  }
}

const settledSchema = z.object({changed: z.boolean(), title: z.string()});
