/**
 * evaluate_script: run a function (or a classic script) in the page and return its JSON result.
 * Runs over the page's own cdp in one round trip when no DOM change follows.
 */
import {fileURLToPath} from 'node:url';
import type {CDPSession, Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {releaseObject, resolveUid, type ResolvedElement} from '../browser/input/elements.js';
import type {OpenDialog, PageState} from '../browser/pages/PageState.js';
import {
  callFunctionInPage,
  clampTimeout,
  evaluateInPage,
  EvaluationTimeoutError,
  inWorker,
  MAX_EVALUATION_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
  SCRIPT_TIMEOUT_MS,
  type InPageOptions,
} from '../browser/evaluation.js';
import {JSON_OF_THIS} from '../browser/injectedSources.generated.js';
import {actAndSettle} from '../browser/settle/settle.js';
import {settleNavigationTimeout, slowdownFeature} from '../browser/timeouts.js';
import type {FileAccess} from '../files/FileAccess.js';
import type {ResponseBuilder} from './base/ResponseBuilder.js';
import {definePageTool, type PageToolCall} from './base/definition.js';
import {uidString} from './base/paramShapes.js';
import {boundedList, SCRIPT_ELEMENTS_LIMIT} from './base/inputLimits.js';
import {oneLine} from '../../shared/inertText.js';
import {errorText} from '../../shared/values.js';
import {EVALUATE_OUTPUT} from './base/outputSchemas.js';

class ScriptError extends Error {}

/** Stack frames shown under a script's exception. */
const SHOWN_FRAMES = 7;

/**
 * The exception as one line (its message is the page's or the script's: a line break in it must
 * not start a reply line), then its first stack frames, one per line: the trailing `    at …`
 * lines of the description.
 */
function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  const lines = (details.exception?.description ?? details.text).split('\n');
  let firstFrame = lines.length;
  while (firstFrame > 1 && /^\s+at /.test(lines[firstFrame - 1] ?? '')) {
    firstFrame--;
  }
  const message = oneLine(lines.slice(0, firstFrame).join('\n'));
  const frames = lines.slice(firstFrame, firstFrame + SHOWN_FRAMES).map(frame => oneLine(frame));
  return [message, ...frames].join('\n');
}

/** How a script run is bounded: its timeout and the call's cancel signal. */
export interface ScriptRun {
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Where agent code runs: a page or an extension service worker. Either way it runs bounded and is
 * stopped on timeout or cancel; in a page, dialogs it opens are answered by the caller
 * (actAndSettle's onDialog), so they do not end the run.
 */
export interface ScriptHost {
  evaluate(
    params: Protocol.Runtime.EvaluateRequest,
    timeoutMs?: number,
  ): Promise<Protocol.Runtime.EvaluateResponse>;
  /** `cdp`: where the objects live (a cross-site iframe's elements live on its own cdp). */
  callFunction(
    params: Protocol.Runtime.CallFunctionOnRequest,
    timeoutMs?: number,
    cdp?: CDPSession,
  ): Promise<Protocol.Runtime.CallFunctionOnResponse>;
  release(objectId: string): void;
}

function scriptOptions(run: ScriptRun, timeoutMs: number | undefined): InPageOptions {
  return {
    timeoutMs: timeoutMs ?? clampTimeout(run.timeoutMs, SCRIPT_TIMEOUT_MS),
    signal: run.signal,
    terminate: true,
    dialogs: 'continue',
    what: 'The script',
  };
}

export function pageScriptHost(state: PageState, run: ScriptRun = {}): ScriptHost {
  return {
    evaluate: (params, timeoutMs) => evaluateInPage(state, params, scriptOptions(run, timeoutMs)),
    callFunction: (params, timeoutMs, cdp) =>
      callFunctionInPage(state, params, {...scriptOptions(run, timeoutMs), cdp}),
    release: objectId => releaseObject({cdp: state.cdp, objectId}),
  };
}

function workerScriptHost(cdp: CDPSession, run: ScriptRun): ScriptHost {
  return {
    evaluate: (params, timeoutMs) =>
      inWorker(cdp, () => cdp.send('Runtime.evaluate', params), {
        ...scriptOptions(run, timeoutMs),
        what: 'The script in the service worker',
      }),
    callFunction: (params, timeoutMs) =>
      inWorker(cdp, () => cdp.send('Runtime.callFunctionOn', params), {
        ...scriptOptions(run, timeoutMs),
        what: 'The script in the service worker',
      }),
    release: objectId => {
      void cdp.send('Runtime.releaseObject', {objectId}).catch(() => undefined);
    },
  };
}

/** Says what happened to a script that ran too long and what the agent can do about it. */
function explainTimeout(error: unknown): never {
  if (error instanceof EvaluationTimeoutError) {
    throw new ScriptError(
      `${error.message} The page is usable again. Make the function finish sooner (no endless loops; await only what settles), or pass a larger timeout (at most ${MAX_EVALUATION_TIMEOUT_MS} ms).`,
    );
  }
  throw error instanceof Error ? error : new Error(String(error));
}

/** JSON.stringify of what the function returns, computed in the page (undefined stays "undefined"). */
async function evaluateFunction(
  host: ScriptHost,
  source: string,
  elements: readonly ResolvedElement[],
): Promise<string> {
  const functionSource = source.trimEnd().replace(/;$/, '');
  const declaration = `async function (...args) { const fn = (\n${functionSource}\n); return JSON.stringify(await fn(...args)); }`;
  let response: Protocol.Runtime.CallFunctionOnResponse | Protocol.Runtime.EvaluateResponse;
  try {
    if (elements.length > 0) {
      const frames = new Set(elements.map(element => element.frameId));
      if (frames.size > 1) {
        throw new ScriptError("Elements from different frames can't be evaluated together.");
      }
      const first = elements[0];
      response = await host.callFunction(
        {
          functionDeclaration: declaration,
          objectId: first?.objectId,
          arguments: elements.map(element => ({objectId: element.objectId})),
          awaitPromise: true,
          returnByValue: true,
          userGesture: true,
        },
        undefined,
        first?.cdp,
      );
    } else {
      response = await host.evaluate({
        expression: `(${declaration})()`,
        awaitPromise: true,
        returnByValue: true,
        userGesture: true,
        replMode: false,
      });
    }
  } catch (error) {
    explainTimeout(error);
  }
  if (response.exceptionDetails) {
    throw new ScriptError(exceptionText(response.exceptionDetails));
  }
  const value: unknown = response.result.value;
  return typeof value === 'string' ? value : 'undefined';
}

/** A classic script: its completion value, stringified. */
export async function evaluateScript(host: ScriptHost, source: string): Promise<string> {
  let evaluated: Protocol.Runtime.EvaluateResponse;
  try {
    evaluated = await host.evaluate({expression: source, awaitPromise: true, userGesture: true});
  } catch (error) {
    explainTimeout(error);
  }
  if (evaluated.exceptionDetails) {
    throw new ScriptError(exceptionText(evaluated.exceptionDetails));
  }
  const objectId = evaluated.result.objectId;
  if (objectId === undefined) {
    const value: unknown = evaluated.result.value;
    return value === undefined ? 'undefined' : JSON.stringify(value);
  }
  try {
    const stringified = await host
      .callFunction(
        {
          functionDeclaration: JSON_OF_THIS,
          objectId,
          returnByValue: true,
        },
        PROBE_TIMEOUT_MS,
      )
      .catch(explainTimeout);
    if (stringified.exceptionDetails) {
      throw new ScriptError(exceptionText(stringified.exceptionDetails));
    }
    const value: unknown = stringified.result.value;
    return typeof value === 'string' ? value : 'undefined';
  } finally {
    host.release(objectId);
  }
}

/** evaluate_script answers dialogs itself: "accept", "dismiss", or any other text as a prompt answer. */
function dialogResponder(
  action: string | undefined,
): (dialog: OpenDialog, state: PageState) => Promise<void> {
  const choice = action ?? 'accept';
  return async (dialog, state) => {
    state.dialog = undefined;
    if (choice === 'dismiss') {
      await dialog.dialog.dismiss();
    } else if (choice === 'accept') {
      await dialog.dialog.accept();
    } else {
      await dialog.dialog.accept(choice);
    }
  };
}

async function readSource(files: FileAccess, path: string): Promise<string> {
  const file = path.startsWith('file:') ? fileURLToPath(path) : path;
  try {
    return await files.readTextFile(file);
  } catch (error) {
    throw new Error(`Unable to read script source from ${path}: ${errorText(error)}`, {
      cause: error,
    });
  }
}

/** The value behind the result's JSON text; `undefined` (not JSON) becomes null. */
function jsonValue(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return text === 'undefined' ? null : text;
  }
}

async function reportResult(
  call: PageToolCall<unknown>,
  response: ResponseBuilder,
  result: string,
  filePath: string | undefined,
): Promise<void> {
  if (filePath !== undefined) {
    const saved = await call.files.writeFile(filePath, result);
    response.appendLine(`Script ran on page. Output saved to ${saved}.`);
    response.structured.savedTo = saved;
  } else {
    response.structured.result = jsonValue(result);
    response.appendLine('Script ran on page and returned:');
    response.appendLine('```json');
    response.appendLine(result);
    response.appendLine('```');
  }
}

/** Runs the source in an extension service worker (id from list_pages). */
async function evaluateInServiceWorker(
  call: PageToolCall<unknown>,
  serviceWorkerId: string,
  source: string,
  format: 'function' | 'script',
  run: ScriptRun,
): Promise<string> {
  const problem = call.browser.extensionSupportProblem();
  if (problem !== undefined) {
    throw new Error(problem);
  }
  const found = call.browser.extensionWorkers.find(call.browser.chromium, serviceWorkerId);
  if (!found) {
    throw new Error(
      'Service worker not found. Call list_pages to see extension service worker ids.',
    );
  }
  const host = workerScriptHost(await call.browser.extensionWorkers.runningCdp(found), run);
  return format === 'script' ? evaluateScript(host, source) : evaluateFunction(host, source, []);
}

export const evaluateScriptTool = definePageTool({
  name: 'evaluate_script',
  description:
    'Run JavaScript in the page and return the JSON-serializable result. Give `function` inline or a `sourcePath`.',
  category: 'debugging',
  readOnly: false,
  conditions: ['javascriptEvaluation'],
  blockedByDialog: true,
  outputSchema: EVALUATE_OUTPUT,
  schema: {
    function: z
      .string()
      .optional()
      .describe(
        'Source run in the page, per `format`. E.g. `() => document.title`, `async () => (await fetch("/api")).status`, `(el) => el.innerText` with args.',
      ),
    sourcePath: z
      .string()
      .optional()
      .describe('Local JavaScript file to run instead of `function`.'),
    format: z
      .enum(['function', 'script'])
      .optional()
      .describe(
        '"function" (default): a function declaration, called with args. "script": classic script, its completion value; no args.',
      ),
    args: boundedList(
      uidString('Element uid from the snapshot.'),
      SCRIPT_ELEMENTS_LIMIT,
      'Pass fewer elements, or find them inside the function.',
    )
      .optional()
      .describe('Element uids passed to the function as arguments.'),
    filePath: z
      .string()
      .optional()
      .describe('Save the result to this file instead of returning it.'),
    dialogAction: z
      .string()
      .optional()
      .describe(
        'Dialogs opened meanwhile: "accept" (default), "dismiss", or text to answer a prompt.',
      ),
    waitForStableDom: z
      .boolean()
      .optional()
      .describe('Wait for DOM changes the script causes to settle. Default true.'),
    timeout: z
      .number()
      .int()
      .optional()
      .describe(
        `Max run time in ms before the script is stopped (default ${SCRIPT_TIMEOUT_MS}, max ${MAX_EVALUATION_TIMEOUT_MS}).`,
      ),
    serviceWorkerId: z
      .string()
      .optional()
      .describe(
        'Run in this extension service worker (id from list_pages) instead of a page; omit pageId. No args.',
      ),
  },
  categoryParams: {serviceWorkerId: 'extensions'},
  pageIdOptionalWith: 'extensions',
  filePaths: [
    {param: 'filePath', scope: 'always'},
    {param: 'sourcePath', scope: 'always'},
  ],
  handler: async (call, response) => {
    const {params, page} = call;
    if ((params.function === undefined) === (params.sourcePath === undefined)) {
      throw new Error('Specify exactly one of function or sourcePath.');
    }
    const source = params.function ?? (await readSource(call.files, params.sourcePath ?? ''));
    const format = params.format ?? 'function';
    const uids = params.args ?? [];
    if (format === 'script' && uids.length > 0) {
      throw new Error('args cannot be used when format is "script".');
    }
    const run: ScriptRun = {timeoutMs: params.timeout, signal: call.signal};
    if (params.serviceWorkerId !== undefined) {
      if (uids.length > 0) {
        throw new Error('args (element uids) cannot be used when evaluating in a service worker.');
      }
      if (call.pageIdGiven) {
        throw new Error('specify either a pageId or a serviceWorkerId.');
      }
      const result = await evaluateInServiceWorker(
        call,
        params.serviceWorkerId,
        source,
        format,
        run,
      );
      await reportResult(call, response, result, params.filePath);
      return;
    }
    if (call.config.pageIdRouting && !call.pageIdGiven) {
      throw new Error('specify either a pageId or a serviceWorkerId.');
    }
    const elements: ResolvedElement[] = [];
    for (const uid of uids) {
      elements.push(await resolveUid(page, uid));
    }
    const respond = dialogResponder(params.dialogAction);
    try {
      const outcome = await actAndSettle(
        page,
        // Bounded; on timeout or cancel the script is stopped in the page, which stays usable.
        () => {
          const host = pageScriptHost(page, run);
          return format === 'script'
            ? evaluateScript(host, source)
            : evaluateFunction(host, source, elements);
        },
        {
          signal: call.signal,
          waitForDom: params.waitForStableDom ?? true,
          navigationTimeoutMs: settleNavigationTimeout(slowdownFeature.get(page)),
          onDialog: dialog => respond(dialog, page),
        },
      );
      await reportResult(call, response, outcome.value ?? 'undefined', params.filePath);
      response.setNavigatedTo(outcome.navigatedTo);
    } finally {
      for (const element of elements) {
        releaseObject(element);
      }
    }
  },
});

export const scriptTools = [evaluateScriptTool];
