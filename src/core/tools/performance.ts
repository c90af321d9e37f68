/**
 * Tool family: performance — record a trace (optionally around a fresh load), stop it, and read
 * the DevTools insights computed from it. The trace engine loads on first use.
 */
import {gzip} from 'node:zlib';
import {promisify} from 'node:util';
import {z} from 'zod';
import {emulationSettings} from '../browser/pages/emulationState.js';
import type {PageState} from '../browser/pages/PageState.js';
import {navigationTimeout, slowdownFeature} from '../browser/timeouts.js';
import {analyseTrace} from '../browser/trace/engine.js';
import {formatInsight, formatTraceSummary} from '../browser/trace/format.js';
import {abandonTracing, startTracing, stopTracing, traceState} from '../browser/trace/tracing.js';
import type {ManagedBrowser} from '../browser/launch/ManagedBrowser.js';
import {withExtension, type FileAccess} from '../files/FileAccess.js';
import {SECTION_ORDER, type ResponseBuilder} from './base/ResponseBuilder.js';
import {definePageTool} from './base/definition.js';

const gzipAsync = promisify(gzip);

/** How long an auto-stopped trace keeps recording after the load (chrome-devtools-mcp's 5 s). */
const AUTO_STOP_DELAY_MS = 5_000;

const filePathSchema = z
  .string()
  .optional()
  .describe(
    'Save the raw trace here: trace.json, or trace.json.gz to compress. Absolute or relative to the working directory.',
  );

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('The call was cancelled.'));
    };
    signal.addEventListener('abort', onAbort, {once: true});
  });
}

/** Loads a URL, accepting a beforeunload prompt on the way (a trace must not hang on one). */
async function load(page: PageState, url: string, signal: AbortSignal): Promise<void> {
  const stopWatch = page.onDialog(dialog => {
    if (dialog.type === 'beforeunload') {
      page.dialog = undefined;
      dialog.dialog.accept().catch(() => undefined);
    }
  });
  try {
    await page.page.goto(url, {
      waitUntil: 'load',
      timeout: navigationTimeout(slowdownFeature.get(page)),
      signal,
    });
  } finally {
    stopWatch();
  }
  page.url = page.page.url();
}

async function stopAndSummarise(
  browser: ManagedBrowser,
  files: FileAccess,
  response: ResponseBuilder,
  filePath: string | undefined,
  reportProgress: (status: string) => void,
): Promise<void> {
  const state = traceState(browser);
  const active = state.active;
  if (!active) {
    throw new Error('no active performance trace recording to stop.');
  }
  let finished;
  reportProgress('Stopping the trace and reading its data');
  try {
    finished = await stopTracing(active.page);
  } finally {
    state.active = undefined;
  }
  if (filePath !== undefined) {
    const compressed = filePath.endsWith('.gz');
    const target = compressed ? filePath : withExtension(filePath, '.json');
    const data = compressed ? await gzipAsync(finished.data) : finished.data;
    const saved = await files.writeFile(target, data);
    response.appendLine(`The raw trace data was saved to ${saved}.`);
  }
  response.appendLine('The performance trace has been stopped.');
  if (finished.dataLoss) {
    response.appendLine(
      "Note: Chrome's trace buffer filled up, so the end of the trace is missing. Record a shorter trace.",
    );
  }
  reportProgress('Computing the trace summary and insights');
  const settings = emulationSettings(active.page);
  const analysed = await analyseTrace(finished.data, {
    cpuThrottling: settings.cpuThrottlingRate,
    networkThrottling: settings.networkConditions,
  });
  state.last = analysed;
  const summary = formatTraceSummary(analysed);
  response.addSection(SECTION_ORDER.trace, () => summary);
}

export const startTrace = definePageTool({
  name: 'performance_start_trace',
  description:
    'Start a performance trace on the page. Use to find frontend performance issues, Core Web Vitals (LCP, INP, CLS), and improve page load speed.',
  category: 'performance',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    reload: z
      .boolean()
      .default(true)
      .describe(
        'Reload the page once tracing has started. Navigate to the right URL with navigate_page BEFORE starting if reload or autoStop is true.',
      ),
    autoStop: z
      .boolean()
      .default(true)
      .describe('Stop the recording automatically (5 s after the load).'),
    ignoreCache: z
      .boolean()
      .optional()
      .describe('Bypass the HTTP cache for the reload, to measure a cold load. Only with reload.'),
    filePath: filePathSchema,
  },
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    const {reload, autoStop, ignoreCache, filePath} = call.params;
    const page = call.page;
    const state = traceState(call.browser);
    if (state.active) {
      throw new Error(
        `a performance trace is already running${state.active.page === page ? '' : ` on page ${state.active.page.id}`}. Use performance_stop_trace to stop it. Only one trace can be running at any given time.`,
      );
    }
    // Claimed before the first await, so a concurrent start on another page sees it.
    state.active = {page, startedAt: Date.now()};
    let tracing = false;
    try {
      const url = page.page.url();
      if (reload) {
        // A blank page first, so the trace starts from a clean slate and holds one whole load.
        await load(page, 'about:blank', call.signal);
      }
      call.reportProgress('Starting the trace');
      await startTracing(page);
      tracing = true;
      if (reload) {
        call.reportProgress(`Recording the trace while ${url} reloads`);
        if (ignoreCache) {
          await page.page.setCacheEnabled(false);
        }
        try {
          await load(page, url, call.signal);
        } finally {
          if (ignoreCache) {
            await page.page.setCacheEnabled(true).catch(() => undefined);
          }
        }
      }
      if (!autoStop) {
        response.appendLine(
          'The performance trace is being recorded. Use performance_stop_trace to stop it.',
        );
        return;
      }
      call.reportProgress(
        `Recording the trace (stops ${AUTO_STOP_DELAY_MS / 1000} s after the load)`,
      );
      await sleep(AUTO_STOP_DELAY_MS, call.signal);
      await stopAndSummarise(call.browser, call.files, response, filePath, call.reportProgress);
    } catch (error) {
      // Re-read: a failed auto-stop has already released the recording.
      if (traceState(call.browser).active?.page === page) {
        state.active = undefined;
        if (tracing) {
          await abandonTracing(page);
        }
      }
      throw error;
    }
  },
});

export const stopTrace = definePageTool({
  name: 'performance_stop_trace',
  description: 'Stop the active performance trace recording on the page.',
  category: 'performance',
  readOnly: false,
  blockedByDialog: true,
  schema: {filePath: filePathSchema},
  filePaths: [{param: 'filePath', scope: 'always'}],
  handler: async (call, response) => {
    if (!traceState(call.browser).active) {
      throw new Error(
        'no active performance trace recording to stop. Start one with performance_start_trace (autoStop=false to stop it yourself).',
      );
    }
    await stopAndSummarise(
      call.browser,
      call.files,
      response,
      call.params.filePath,
      call.reportProgress,
    );
  },
});

export const analyzeInsight = definePageTool({
  name: 'performance_analyze_insight',
  description:
    'Detailed information on one Performance Insight of an insight set listed in the results of a trace recording.',
  category: 'performance',
  readOnly: true,
  schema: {
    insightSetId: z
      .string()
      .describe('Id of the insight set. Only use ids from the "Available insight sets" list.'),
    insightName: z
      .string()
      .describe('Name of the insight, for example "DocumentLatency" or "LCPBreakdown".'),
  },
  handler: async (call, response) => {
    const last = traceState(call.browser).last;
    if (!last) {
      throw new Error(
        'No recorded traces found. Record a performance trace (performance_start_trace) so you have Insights to analyze.',
      );
    }
    const text = formatInsight(last, call.params.insightSetId, call.params.insightName);
    response.addSection(SECTION_ORDER.trace, () => text);
    return Promise.resolve();
  },
});

export const performanceTools = [startTrace, stopTrace, analyzeInsight];
