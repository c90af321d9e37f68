/**
 * What a call changed in its page's document, for the person reading its log row: how many nodes
 * changed (added, removed, text or attributes changed) and the first few texts that appeared. A
 * MutationObserver in our isolated world of the top document (the page's scripts cannot see or
 * tamper with it) is armed under the page's lock just before the handler runs and taken (and
 * stopped) when it has finished, before the lock is released; each arm carries the call's token,
 * so a take never reads another call's changes. Everything in the page is bounded: the nodes
 * remembered, the texts kept and how much of each is read. The page side is
 * src/injected/domChanges.ts.
 */
import {z} from 'zod';
import {evaluateInDocument, type DocumentRef} from './documentWorld.js';
import {callExpression} from './injectedCall.js';
import {ARM_DOM_CHANGES, TAKE_DOM_CHANGES} from './injectedSources.generated.js';
import type {PageState} from './pages/PageState.js';

/** Arming waits at most this long (a busy page is left unwatched rather than delaying the call). */
const ARM_TIMEOUT_MS = 500;
const TAKE_TIMEOUT_MS = 1_000;
/** Nodes remembered by identity (more are counted, not told apart). */
const NODE_LIMIT = 5_000;
/** Added nodes looked at for their text. */
const ADDED_LIMIT = 200;
/** Texts kept, and characters of each. */
const TEXT_LIMIT = 3;
const TEXT_CHARS = 80;

const KEY = '__mbiCallChanges';

function armExpression(token: string): string {
  return callExpression(ARM_DOM_CHANGES, KEY, token, {nodes: NODE_LIMIT, added: ADDED_LIMIT});
}

function takeExpression(token: string): string {
  return callExpression(TAKE_DOM_CHANGES, KEY, token, {texts: TEXT_LIMIT, chars: TEXT_CHARS});
}

const changesSchema = z.object({nodes: z.number().int().nonnegative(), texts: z.array(z.string())});
export type DomChanges = z.infer<typeof changesSchema>;

/** The call's watch of its page's document: armed once, taken once. */
export class DomWatch {
  private constructor(
    private readonly state: PageState,
    private readonly doc: DocumentRef,
    private readonly token: string,
  ) {}

  /**
   * Starts watching the page's top document for the call `token`; undefined when that could not
   * be done at once (no document yet, a busy page, a dialog): the call runs unwatched.
   */
  static async arm(state: PageState, token: string): Promise<DomWatch | undefined> {
    const loaderId = state.loaderIds.get(state.mainFrameId);
    if (state.closed || loaderId === undefined) {
      return undefined;
    }
    const doc: DocumentRef = {cdp: state.cdp, frameId: state.mainFrameId, loaderId};
    try {
      await evaluateInDocument(state, doc, {
        expression: armExpression(token),
        returnByValue: true,
        timeoutMs: ARM_TIMEOUT_MS,
      });
      return new DomWatch(state, doc, token);
    } catch {
      return undefined;
    }
  }

  /**
   * What changed since the arm, or undefined when it cannot be told: the document was replaced
   * (a navigation, which is reported itself), or the page did not answer.
   */
  async take(): Promise<DomChanges | undefined> {
    if (this.state.closed || this.state.loaderIds.get(this.doc.frameId) !== this.doc.loaderId) {
      return undefined;
    }
    try {
      const {value} = await evaluateInDocument(this.state, this.doc, {
        expression: takeExpression(this.token),
        returnByValue: true,
        timeoutMs: TAKE_TIMEOUT_MS,
      });
      const parsed = changesSchema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
