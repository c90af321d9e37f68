/**
 * The steps every input tool shares: resolve a uid to a live element (released after), run the
 * action, word its failure like chrome-devtools-mcp, and settle — in the top document and in the
 * iframe documents of the elements acted on.
 */
import {ActionError, interactionFailure} from '../../browser/input/actions.js';
import {
  frameDocumentsOf,
  releaseObject,
  resolveUid,
  type ResolvedElement,
} from '../../browser/input/elements.js';
import type {PageState} from '../../browser/pages/PageState.js';
import {actAndSettle, type SettleOutcome} from '../../browser/settle/settle.js';
import {followUpTimeout, settleNavigationTimeout, slowdownFeature} from '../../browser/timeouts.js';
import type {PageToolCall} from './definition.js';

/**
 * Runs an action and waits for the navigation or DOM updates it started, in the top document and
 * in the iframe documents of the elements (`uids`) it acts on.
 */
export function settle<T>(
  call: PageToolCall<unknown>,
  action: () => Promise<T>,
  uids: readonly string[] = [],
): Promise<SettleOutcome<T>> {
  const slowdown = slowdownFeature.get(call.page);
  return actAndSettle(call.page, action, {
    signal: call.signal,
    navigationTimeoutMs: settleNavigationTimeout(slowdown),
    followUpTimeoutMs: followUpTimeout(slowdown),
    frames: frameDocumentsOf(call.page, uids),
  });
}

/** chrome-devtools-mcp's wording for an element action that failed for another reason. */
export async function explained<T>(uid: string, action: Promise<T>): Promise<T> {
  try {
    return await action;
  } catch (error) {
    if (error instanceof ActionError || (error instanceof Error && error.name === 'AbortError')) {
      throw error;
    }
    throw interactionFailure(uid, error instanceof Error ? error.message : String(error));
  }
}

export async function withElement<T>(
  page: PageState,
  uid: string,
  work: (element: ResolvedElement) => Promise<T>,
): Promise<T> {
  const element = await resolveUid(page, uid);
  try {
    return await work(element);
  } finally {
    releaseObject(element);
  }
}

/**
 * Resolves the element, acts on it and settles; failures worded like chrome-devtools-mcp. The uid
 * is resolved while settling takes its first reading, not before it: one round trip less.
 */
export async function actOnElement<T>(
  call: PageToolCall<unknown>,
  uid: string,
  action: (element: ResolvedElement) => Promise<T>,
): Promise<SettleOutcome<T>> {
  const resolving = resolveUid(call.page, uid);
  // Awaited inside the action; a failure before then must not go unhandled.
  resolving.catch(() => undefined);
  try {
    return await settle(call, async () => explained(uid, action(await resolving)), [uid]);
  } finally {
    void resolving.then(releaseObject, () => undefined);
  }
}
