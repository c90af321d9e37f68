/**
 * evaluate_script: run a function (or a classic script) in the page and return its JSON result.
 * Runs over the page's own CDP session in one round trip when no DOM change follows.
 */
import {fileURLToPath} from 'node:url';
import type {Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {releaseObject, resolveUid, type ResolvedElement} from '../browser/elements.js';
import type {OpenDialog, PageState} from '../browser/PageState.js';
import {
  callFunctionInPage,
  clampTimeout,
  evaluateInPage,
  EvaluationTimeoutError,
  MAX_EVALUATION_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
  SCRIPT_TIMEOUT_MS,
  type InPageOptions,
} from '../browser/evaluation.js';
import {actAndSettle} from '../browser/settle.js';
import {settleNavigationTimeout, slowdownFeature} from '../browser/timeouts.js';
import type {FileAccess} from '../mcp/files.js';
import {definePageTool} from './definition.js';

export class ScriptError extends Error {}

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  const description = details.exception?.description ?? details.text;
  return description.split('\n').slice(0, 8).join('\n');
}

/** How a script run is bounded: its timeout and the call's cancel signal. */
export interface ScriptRun {
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Agent code runs bounded and is stopped in the page on timeout or cancel; dialogs it opens are
 * answered by the caller (actAndSettle's onDialog), so they do not end the run.
 */
function scriptOptions(state: PageState, run: ScriptRun): InPageOptions {
  return {
    timeoutMs: clampTimeout(run.timeoutMs, SCRIPT_TIMEOUT_MS),
    signal: run.signal,
    terminate: true,
    dialogs: 'continue',
    session: state.session,
    what: 'The script',
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
export async function evaluateFunction(
  state: PageState,
  source: string,
  elements: readonly ResolvedElement[],
  run: ScriptRun = {},
): Promise<string> {
  const functionSource = source.trimEnd().replace(/;$/, '');
  const declaration = `async function (...args) { const fn = (\n${functionSource}\n); return JSON.stringify(await fn(...args)); }`;
  const options = scriptOptions(state, run);
  let response: Protocol.Runtime.CallFunctionOnResponse | Protocol.Runtime.EvaluateResponse;
  try {
    if (elements.length > 0) {
      const frames = new Set(elements.map(element => element.frameId));
      if (frames.size > 1) {
        throw new ScriptError("Elements from different frames can't be evaluated together.");
      }
      const first = elements[0];
      response = await callFunctionInPage(
        state,
        {
          functionDeclaration: declaration,
          objectId: first?.objectId,
          arguments: elements.map(element => ({objectId: element.objectId})),
          awaitPromise: true,
          returnByValue: true,
          userGesture: true,
        },
        options,
      );
    } else {
      response = await evaluateInPage(
        state,
        {
          expression: `(${declaration})()`,
          awaitPromise: true,
          returnByValue: true,
          userGesture: true,
          replMode: false,
        },
        options,
      );
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
export async function evaluateScript(
  state: PageState,
  source: string,
  run: ScriptRun = {},
): Promise<string> {
  const options = scriptOptions(state, run);
  let evaluated: Protocol.Runtime.EvaluateResponse;
  try {
    evaluated = await evaluateInPage(
      state,
      {expression: source, awaitPromise: true, userGesture: true},
      options,
    );
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
    const stringified = await callFunctionInPage(
      state,
      {
        functionDeclaration: 'function () { return JSON.stringify(this); }',
        objectId,
        returnByValue: true,
      },
      {...options, timeoutMs: PROBE_TIMEOUT_MS},
    ).catch(explainTimeout);
    if (stringified.exceptionDetails) {
      throw new ScriptError(exceptionText(stringified.exceptionDetails));
    }
    const value: unknown = stringified.result.value;
    return typeof value === 'string' ? value : 'undefined';
  } finally {
    releaseObject(state, objectId);
  }
}

/** evaluate_script answers dialogs itself: "accept", "dismiss", or any other text as a prompt answer. */
export function dialogResponder(
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
    throw new Error(
      `Unable to read script source from ${path}: ${error instanceof Error ? error.message : String(error)}`,
      {cause: error},
    );
  }
}

export const evaluateScriptTool = definePageTool({
  name: 'evaluate_script',
  description:
    'Run JavaScript in the page and return the JSON-serializable result. Give `function` inline or a `sourcePath`.',
  category: 'debugging',
  readOnly: false,
  conditions: ['javascriptEvaluation'],
  blockedByDialog: true,
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
    args: z
      .array(z.string().describe('Element uid from the snapshot.'))
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
  },
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
          const run = {timeoutMs: params.timeout, signal: call.signal};
          return format === 'script'
            ? evaluateScript(page, source, run)
            : evaluateFunction(page, source, elements, run);
        },
        {
          signal: call.signal,
          waitForDom: params.waitForStableDom ?? true,
          navigationTimeoutMs: settleNavigationTimeout(slowdownFeature.get(page)),
          onDialog: dialog => respond(dialog, page),
        },
      );
      const result = outcome.value ?? 'undefined';
      if (params.filePath !== undefined) {
        const saved = await call.files.writeFile(params.filePath, result);
        response.appendLine(`Script ran on page. Output saved to ${saved}.`);
      } else {
        response.appendLine('Script ran on page and returned:');
        response.appendLine('```json');
        response.appendLine(result);
        response.appendLine('```');
      }
      response.setNavigatedTo(outcome.navigatedTo);
    } finally {
      for (const element of elements) {
        releaseObject(page, element.objectId);
      }
    }
  },
});

export const scriptTools = [evaluateScriptTool];
