/**
 * Performance tracing over the page's own cdp. Chrome traces browser-wide, so one trace runs
 * at a time per browser; the last analysed trace is kept (only one, as
 * chrome-devtools-mcp does) for performance_analyze_insight.
 */
import {z} from 'zod';
import type {ManagedBrowser} from '../launch/ManagedBrowser.js';
import {withTimeout} from '../lock.js';
import type {PageState} from '../pages/PageState.js';
import type {AnalysedTrace} from './engine.js';

/**
 * The DevTools Performance panel's default categories plus the two optional ones its UI enables
 * by default (JS sampling, screenshots), so the insights match what a developer would see.
 */
const TRACE_CATEGORIES: readonly string[] = [
  '-*',
  'blink.console',
  'blink.user_timing',
  'loading',
  'devtools.timeline',
  'disabled-by-default-devtools.target-rundown',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.v8-source-rundown-sources',
  'disabled-by-default-devtools.v8-source-rundown',
  'disabled-by-default-layout_shift.debug',
  'disabled-by-default-v8.inspector',
  'disabled-by-default-v8.cpu_profiler.hires',
  'disabled-by-default-lighthouse',
  'v8.execute',
  'v8',
  'cppgc',
  'navigation,rail',
  'disabled-by-default-v8.cpu_profiler',
  'disabled-by-default-devtools.screenshot',
];

/**
 * A bigger buffer only helps until the JSON no longer fits one V8 string (~512 MB), which the
 * analysis needs; past that point Chrome stops recording instead of wrapping.
 */
const TRACE_BUFFER_KB = 400_000;
/** Chrome flushes the buffer after Tracing.end; big traces take a while. */
const TRACE_COMPLETE_TIMEOUT_MS = 60_000;

export interface ActiveTrace {
  page: PageState;
  startedAt: number;
}

interface TraceState {
  active: ActiveTrace | undefined;
  last: AnalysedTrace | undefined;
}

const states = new WeakMap<ManagedBrowser, TraceState>();

export function traceState(browser: ManagedBrowser): TraceState {
  let state = states.get(browser);
  if (!state) {
    state = {active: undefined, last: undefined};
    states.set(browser, state);
  }
  if (state.active?.page.closed) {
    // The traced tab is gone and its cdp with it: nothing left to stop.
    state.active = undefined;
  }
  return state;
}

export async function startTracing(page: PageState): Promise<void> {
  const included = TRACE_CATEGORIES.filter(category => !category.startsWith('-'));
  const excluded = TRACE_CATEGORIES.filter(category => category.startsWith('-')).map(category =>
    category.slice(1),
  );
  await page.cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    streamFormat: 'json',
    traceConfig: {
      recordMode: 'recordUntilFull',
      traceBufferSizeInKb: TRACE_BUFFER_KB,
      includedCategories: included,
      excludedCategories: excluded,
    },
  });
}

const tracingCompleteSchema = z.object({
  dataLossOccurred: z.boolean().optional(),
  stream: z.string().optional(),
});

export interface FinishedTrace {
  data: Buffer;
  /** Chrome's buffer filled up: the end of the trace is missing. */
  dataLoss: boolean;
}

/** Ends the trace and reads the whole trace (JSON `{"traceEvents": […]}`) from Chrome. */
export async function stopTracing(page: PageState): Promise<FinishedTrace> {
  const cdp = page.cdp;
  let onComplete: ((event: unknown) => void) | undefined;
  const complete = new Promise<z.infer<typeof tracingCompleteSchema>>((resolve, reject) => {
    onComplete = (event: unknown): void => {
      const parsed = tracingCompleteSchema.safeParse(event);
      if (parsed.success) {
        resolve(parsed.data);
      } else {
        reject(new Error(`Unexpected Tracing.tracingComplete event: ${parsed.error.message}`));
      }
    };
    cdp.once('Tracing.tracingComplete', onComplete);
  });
  let completed: z.infer<typeof tracingCompleteSchema>;
  try {
    await cdp.send('Tracing.end');
    completed = await withTimeout(
      complete,
      TRACE_COMPLETE_TIMEOUT_MS,
      `Chrome did not finish writing the trace within ${TRACE_COMPLETE_TIMEOUT_MS / 1000} s.`,
    );
  } finally {
    if (onComplete) {
      cdp.off('Tracing.tracingComplete', onComplete);
    }
  }
  const {stream, dataLossOccurred} = completed;
  if (stream === undefined) {
    throw new Error('Chrome returned no trace stream.');
  }
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      const read = await cdp.send('IO.read', {handle: stream});
      if (read.data) {
        chunks.push(Buffer.from(read.data, read.base64Encoded ? 'base64' : 'utf8'));
      }
      if (read.eof) {
        break;
      }
    }
  } finally {
    await cdp.send('IO.close', {handle: stream}).catch(() => undefined);
  }
  return {data: Buffer.concat(chunks), dataLoss: dataLossOccurred ?? false};
}

/** Best effort: used when a start fails half-way, so the browser is not left tracing. */
export async function abandonTracing(page: PageState): Promise<void> {
  try {
    await stopTracing(page);
  } catch {
    // Tracing may never have started, or the page is gone.
  }
}
