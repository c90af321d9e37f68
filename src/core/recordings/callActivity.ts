/**
 * Links each call to what it did: when a call on a page ends, the page's activity inside the call's
 * time window (the WebMCP invocations it or its page started meanwhile, and the changes it made to
 * the page's document: browser/domChanges.ts) goes out as one
 * `callActivity` event, then the before and after screenshots as `callScreenshots` once the after
 * image is there. Both are ordinary inspector events, so the live UI and the recording get the same.
 */
import type {CallActivityItem} from '../../shared/protocol.js';
import type {DomChanges} from '../browser/domChanges.js';
import type {PageState} from '../browser/pages/PageState.js';
import type {InspectorHub} from '../inspector/InspectorHub.js';
import type {LiveFrame} from '../../shared/protocol.js';
import type {PageRegistry} from '../browser/pages/PageRegistry.js';
import {CallScreens} from './callScreens.js';
import {pageActivityFeature} from './pageActivity.js';

/** Most items one call's activity lists (the rest are counted). */
export const MAX_ITEMS_PER_CALL = 200;
/** Most hub events searched for a call's WebMCP invocations. */
const MAX_EVENTS_SCANNED = 20_000;

export interface CallSpan {
  callId: string;
  /** Epoch ms. */
  startedAt: number;
  /** Sequence id of the call's toolCallStarted. */
  startSeq: number;
  clientId: string;
}

export class CallActivityTracker {
  constructor(
    private readonly hub: InspectorHub,
    readonly screens: CallScreens,
  ) {}

  ended(span: CallSpan, page: PageState | undefined, dom?: DomChanges): void {
    if (page === undefined) {
      return;
    }
    const endedAt = Date.now();
    const activity = pageActivityFeature
      .peek(page)
      ?.between(span.startedAt, endedAt, MAX_ITEMS_PER_CALL) ?? {items: [], dropped: 0};
    const domItems: CallActivityItem[] =
      dom && dom.nodes > 0
        ? [{kind: 'dom', time: endedAt, nodes: dom.nodes, texts: dom.texts}]
        : [];
    const items = [
      ...activity.items,
      ...this.#webmcpItems(span, page.id, endedAt),
      ...domItems,
    ].sort((a, b) => a.time - b.time);
    const kept = items.slice(0, MAX_ITEMS_PER_CALL);
    this.hub.publish({
      type: 'callActivity',
      callId: span.callId,
      pageId: page.id,
      items: kept,
      dropped: activity.dropped + items.length - kept.length,
    });
    const before = this.screens.before(page.id, span.startedAt);
    void this.screens
      .after(page, endedAt)
      .then(after => {
        if (before || after) {
          this.hub.publish({
            type: 'callScreenshots',
            callId: span.callId,
            pageId: page.id,
            ...(before ? {before} : {}),
            ...(after ? {after} : {}),
          });
        }
      })
      .catch(() => undefined);
  }

  /** Invocations on the page started in the call's window by its client or by the page itself. */
  #webmcpItems(span: CallSpan, pageId: number, endedAt: number): CallActivityItem[] {
    const found = new Map<string, CallActivityItem>();
    for (const {event} of this.hub.range(span.startSeq, MAX_EVENTS_SCANNED)) {
      if (event.type !== 'webmcpInvocation') {
        continue;
      }
      const {invocation} = event;
      const {invoker} = invocation;
      const caused =
        invoker.kind === 'page' || (invoker.kind === 'mcp' && invoker.client.id === span.clientId);
      if (
        invocation.pageId === pageId &&
        caused &&
        invocation.startedAt >= span.startedAt &&
        invocation.startedAt <= endedAt
      ) {
        found.set(invocation.invocationId, {
          kind: 'webmcp',
          time: invocation.startedAt,
          invocationId: invocation.invocationId,
          toolName: invocation.toolName,
          status: invocation.status,
        });
      }
    }
    return [...found.values()];
  }
}

/**
 * A call record whose before/after screenshots come from the live view's frames, or from one
 * small capture of its own when recording (`capture`).
 */
export function createCallActivityTracker(deps: {
  hub: InspectorHub;
  capture: boolean;
  streamingPageId: () => number | undefined;
  onFrame: (listener: (frame: LiveFrame) => void) => void;
  pages: PageRegistry;
}): CallActivityTracker {
  const screens = new CallScreens({capture: deps.capture, streamingPageId: deps.streamingPageId});
  deps.onFrame(frame => screens.onFrame(frame));
  deps.pages.on('changed', () => {
    screens.keepOnly(deps.pages.list().map(page => page.id));
  });
  return new CallActivityTracker(deps.hub, screens);
}
