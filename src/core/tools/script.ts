/**
 * evaluate_script: run a function (or a classic script) in the page and return its JSON result.
 * Runs over the page's own CDP session in one round trip when no DOM change follows.
 */
import fs from 'node:fs/promises';
import {fileURLToPath} from 'node:url';
import type {Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {releaseObject, resolveUid, type ResolvedElement} from '../browser/elements.js';
import type {OpenDialog, PageState} from '../browser/PageState.js';
import {abortable} from '../browser/lock.js';
import {actAndSettle} from '../browser/settle.js';
import {settleNavigationTimeout, slowdownFeature} from '../browser/timeouts.js';
import {definePageTool} from './definition.js';

export class ScriptError extends Error {}

function exceptionText(details: Protocol.Runtime.ExceptionDetails): string {
  const description = details.exception?.description ?? details.text;
  return description.split('\n').slice(0, 8).join('\n');
}

/** JSON.stringify of what the function returns, computed in the page (undefined stays "undefined"). */
export async function evaluateFunction(
  state: PageState,
  source: string,
  elements: readonly ResolvedElement[],
): Promise<string> {
  const functionSource = source.trimEnd().replace(/;$/, '');
  const declaration = `async function (...args) { const fn = (\n${functionSource}\n); return JSON.stringify(await fn(...args)); }`;
  let response: Protocol.Runtime.CallFunctionOnResponse | Protocol.Runtime.EvaluateResponse;
  if (elements.length > 0) {
    const frames = new Set(elements.map(element => element.frameId));
    if (frames.size > 1) {
      throw new ScriptError("Elements from different frames can't be evaluated together.");
    }
    const first = elements[0];
    // Elements of a cross-site iframe live on that frame's own session.
    response = await (first?.session ?? state.session).send('Runtime.callFunctionOn', {
      functionDeclaration: declaration,
      objectId: first?.objectId,
      arguments: elements.map(element => ({objectId: element.objectId})),
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
    });
  } else {
    response = await state.session.send('Runtime.evaluate', {
      expression: `(${declaration})()`,
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
      replMode: false,
    });
  }
  if (response.exceptionDetails) {
    throw new ScriptError(exceptionText(response.exceptionDetails));
  }
  const value: unknown = response.result.value;
  return typeof value === 'string' ? value : 'undefined';
}

/** A classic script: its completion value, stringified. */
export async function evaluateScript(state: PageState, source: string): Promise<string> {
  const evaluated = await state.session.send('Runtime.evaluate', {
    expression: source,
    awaitPromise: true,
    userGesture: true,
  });
  if (evaluated.exceptionDetails) {
    throw new ScriptError(exceptionText(evaluated.exceptionDetails));
  }
  const objectId = evaluated.result.objectId;
  if (objectId === undefined) {
    const value: unknown = evaluated.result.value;
    return value === undefined ? 'undefined' : JSON.stringify(value);
  }
  try {
    const stringified = await state.session.send('Runtime.callFunctionOn', {
      functionDeclaration: 'function () { return JSON.stringify(this); }',
      objectId,
      returnByValue: true,
    });
    if (stringified.exceptionDetails) {
      throw new ScriptError(exceptionText(stringified.exceptionDetails));
    }
    const value: unknown = stringified.result.value;
    return typeof value === 'string' ? value : 'undefined';
  } finally {
    releaseObject({session: state.session, objectId});
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

async function readSource(path: string): Promise<string> {
  const file = path.startsWith('file:') ? fileURLToPath(path) : path;
  try {
    return await fs.readFile(file, 'utf8');
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
    const source = params.function ?? (await readSource(params.sourcePath ?? ''));
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
        // A page promise cannot be cancelled, but the call stops waiting for it (and frees the page).
        () =>
          abortable(
            format === 'script'
              ? evaluateScript(page, source)
              : evaluateFunction(page, source, elements),
            call.signal,
          ),
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
        releaseObject(element);
      }
    }
  },
});

export const scriptTools = [evaluateScriptTool];
