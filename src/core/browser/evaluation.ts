/**
 * The one way the engine runs code in a page. Every evaluation is bounded, raced against
 * JavaScript dialogs (an open alert blocks the page's main thread, so an unraced evaluation would
 * wait out the 60 s protocol timeout while its caller holds a lock), and stops when the call is
 * cancelled. Code the agent supplied is also stopped in the page (Runtime.terminateExecution) on
 * timeout or cancel, so a runaway loop does not leave the page frozen for the next call.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import type {OpenDialog, PageState} from './pages/PageState.js';

/** The engine's own short reads (mutation counters, sizes, titles). */
export const PROBE_TIMEOUT_MS = 2_000;
/** Default bound for in-page helpers of actions and readers (checks, descriptions). */
export const IN_PAGE_TIMEOUT_MS = 10_000;
/** Default bound for code the agent supplied (evaluate_script, WebMCP tools). */
export const SCRIPT_TIMEOUT_MS = 30_000;
/**
 * Longest bound a caller may ask for: shorter than the 45 s lock wait (LOCK_WAIT_MS) that a call
 * holding a page makes the next call on it do, so no call can make another fail.
 */
export const MAX_EVALUATION_TIMEOUT_MS = 40_000;

/** The page showed a JavaScript dialog, which blocks it until the dialog is handled. */
export class DialogOpenedError extends Error {
  constructor(readonly dialog: OpenDialog) {
    super(
      `The page opened a dialog (${dialog.type}: ${dialog.message}). Call handle_dialog to handle it before continuing.`,
    );
  }
}

export class EvaluationTimeoutError extends Error {
  constructor(
    message: string,
    readonly terminated: boolean,
  ) {
    super(message);
  }
}

export interface InPageOptions {
  /** Bound in ms (clamped to MAX_EVALUATION_TIMEOUT_MS). Default IN_PAGE_TIMEOUT_MS. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** `reject` (default): a dialog ends the wait. `continue`: the caller answers dialogs itself. */
  dialogs?: 'reject' | 'continue';
  /** Stop the script in the page on timeout or cancel (for code the agent supplied). */
  terminate?: boolean;
  /** The cdp the work runs on (for terminating it); default the page's own. */
  cdp?: CDPSession | undefined;
  /** What is being waited for, for the timeout message ("the script", "the page"). */
  what?: string;
}

export function clampTimeout(requested: number | undefined, fallback: number): number {
  if (requested === undefined || !Number.isFinite(requested) || requested <= 0) {
    return fallback;
  }
  return Math.min(requested, MAX_EVALUATION_TIMEOUT_MS);
}

/** Stops whatever JavaScript runs in the page now; the page stays usable afterwards. */
async function terminateExecution(cdp: CDPSession): Promise<void> {
  await cdp.send('Runtime.terminateExecution').catch(() => undefined);
}

/**
 * Runs `work` (one or more CDP commands that execute page code) under the rules above. The work
 * itself may go on in the browser after a dialog or a timeout; its late result is ignored.
 */
export function inPage<T>(
  state: PageState,
  work: () => Promise<T>,
  options: InPageOptions = {},
): Promise<T> {
  return bounded(state, state.cdp, work, options);
}

/**
 * The same rules for code that runs outside a page (an extension service worker has no dialogs to
 * race): bounded, cancellable, and stopped on timeout when asked.
 */
export function inWorker<T>(
  cdp: CDPSession,
  work: () => Promise<T>,
  options: InPageOptions = {},
): Promise<T> {
  return bounded(undefined, cdp, work, {...options, dialogs: 'continue'});
}

function bounded<T>(
  state: PageState | undefined,
  defaultCdp: CDPSession,
  work: () => Promise<T>,
  options: InPageOptions,
): Promise<T> {
  const dialogs = options.dialogs ?? 'reject';
  if (dialogs === 'reject' && state?.dialog) {
    return Promise.reject(new DialogOpenedError(state.dialog));
  }
  const signal = options.signal;
  if (signal?.aborted) {
    return Promise.reject(abortError(signal));
  }
  const timeoutMs = clampTimeout(options.timeoutMs, IN_PAGE_TIMEOUT_MS);
  const cdp = options.cdp ?? defaultCdp;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      stopDialogWatch();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const timer = setTimeout(() => {
      if (options.terminate) {
        void terminateExecution(cdp);
      }
      finish(() =>
        reject(
          new EvaluationTimeoutError(
            `${options.what ?? 'The page'} did not finish within ${timeoutMs} ms${options.terminate ? ', so it was stopped' : ''}.`,
            options.terminate === true,
          ),
        ),
      );
    }, timeoutMs);
    timer.unref();
    const stopDialogWatch =
      dialogs === 'reject' && state
        ? state.onDialog(dialog => finish(() => reject(new DialogOpenedError(dialog))))
        : () => undefined;
    const onAbort = (): void => {
      if (options.terminate) {
        void terminateExecution(cdp);
      }
      finish(() => reject(signal ? abortError(signal) : new Error('Cancelled')));
    };
    signal?.addEventListener('abort', onAbort, {once: true});
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      finish(() => reject(error instanceof Error ? error : new Error(String(error))));
      return;
    }
    running.then(
      value => finish(() => resolve(value)),
      (error: unknown) =>
        finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('Cancelled');
}

/** Runtime.evaluate on the page's own cdp (or `options.cdp`), bounded and raced. */
export function evaluateInPage(
  state: PageState,
  params: Protocol.Runtime.EvaluateRequest,
  options: InPageOptions = {},
): Promise<Protocol.Runtime.EvaluateResponse> {
  const cdp = options.cdp ?? state.cdp;
  return inPage(state, () => cdp.send('Runtime.evaluate', params), options);
}

/** Runtime.callFunctionOn on the page's own cdp (or `options.cdp`), bounded and raced. */
export function callFunctionInPage(
  state: PageState,
  params: Protocol.Runtime.CallFunctionOnRequest,
  options: InPageOptions = {},
): Promise<Protocol.Runtime.CallFunctionOnResponse> {
  const cdp = options.cdp ?? state.cdp;
  return inPage(state, () => cdp.send('Runtime.callFunctionOn', params), options);
}
