/**
 * Our isolated world in one document of the page (main frame, same-process iframe or OOPIF): the
 * page's own scripts cannot see or tamper with what runs there, and it reaches a frame's DOM
 * without a handle from the page. One world per document, made on first use and remembered by
 * the document's loader id; every evaluation in it follows the evaluation.ts rules (bounded,
 * raced against dialogs).
 */
import type {CDPSession} from 'puppeteer-core';
import {inPage, PROBE_TIMEOUT_MS} from './evaluation.js';
import type {PageState} from './pages/PageState.js';

const WORLD_NAME = 'mcp-browser-inspector-snapshot';

/** One document: the cdp that holds it, its frame and the loader of its current document. */
export interface DocumentRef {
  cdp: CDPSession;
  frameId: string;
  loaderId: string;
}

export interface WorldEvaluation {
  expression: string;
  returnByValue: boolean;
  awaitPromise?: boolean;
  /** Remote objects the caller releases itself (only without returnByValue). */
  objectGroup?: string;
  /** Bound on each attempt, making the world included. Default PROBE_TIMEOUT_MS. */
  timeoutMs?: number;
}

interface World {
  loaderId: string;
  contextId: number;
}

const worlds = new WeakMap<CDPSession, Map<string, World>>();

/** The isolated world already made for the document, if any. */
function knownWorld(doc: DocumentRef): number | undefined {
  const known = worlds.get(doc.cdp)?.get(doc.frameId);
  return known?.loaderId === doc.loaderId ? known.contextId : undefined;
}

/**
 * Whether an evaluation in the document is sent at once, in the same turn, so that a command sent
 * right after it on the same cdp is answered after it.
 */
export function sendsAtOnce(doc: DocumentRef): boolean {
  return knownWorld(doc) !== undefined;
}

async function makeWorld(doc: DocumentRef): Promise<number> {
  let byFrame = worlds.get(doc.cdp);
  if (!byFrame) {
    byFrame = new Map();
    worlds.set(doc.cdp, byFrame);
  }
  const {executionContextId} = await doc.cdp.send('Page.createIsolatedWorld', {
    frameId: doc.frameId,
    worldName: WORLD_NAME,
    grantUniveralAccess: false,
  });
  byFrame.set(doc.frameId, {loaderId: doc.loaderId, contextId: executionContextId});
  return executionContextId;
}

/**
 * Runs an expression in the document's world (made again once if it went away). Each attempt is
 * bounded as a whole: a frame that is not running yet (held at its start by a debugger) does not
 * answer Page.createIsolatedWorld either.
 */
export async function evaluateInDocument(
  state: PageState,
  doc: DocumentRef,
  evaluation: WorldEvaluation,
): Promise<{value: unknown; objectId: string | undefined}> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await inPage(state, () => evaluateOnce(doc, evaluation, attempt > 0), {
        timeoutMs: evaluation.timeoutMs ?? PROBE_TIMEOUT_MS,
        what: 'The page',
      });
    } catch (error) {
      const gone = error instanceof Error && /context|Cannot find/i.test(error.message);
      if (!gone || attempt > 0) {
        throw error;
      }
    }
  }
}

async function evaluateOnce(
  doc: DocumentRef,
  evaluation: WorldEvaluation,
  freshWorld: boolean,
): Promise<{value: unknown; objectId: string | undefined}> {
  // A known world is used without awaiting, so the evaluation is sent in this very turn.
  const contextId = (freshWorld ? undefined : knownWorld(doc)) ?? (await makeWorld(doc));
  const reply = await doc.cdp.send('Runtime.evaluate', {
    expression: evaluation.expression,
    contextId,
    returnByValue: evaluation.returnByValue,
    ...(evaluation.awaitPromise === true ? {awaitPromise: true} : {}),
    ...(evaluation.objectGroup === undefined ? {} : {objectGroup: evaluation.objectGroup}),
  });
  if (reply.exceptionDetails) {
    throw new Error(reply.exceptionDetails.text);
  }
  return {value: reply.result.value, objectId: reply.result.objectId};
}
