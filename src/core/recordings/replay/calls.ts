/**
 * The tool calls of a recording, in the order they started, each with its recorded outcome
 * and the identity of its element arguments; and which recorded pages appeared at which call, so a
 * replay can pair them with the pages it creates. Shared by replay and export.
 */
import type {
  CallActivityItem,
  ClientRef,
  EventEnvelope,
  PageInfo,
  RecordedElement,
} from '../../../shared/protocol.js';
import {pagesShown} from '../../../shared/eventTable.js';

export interface RecordedCall {
  /** 1-based position among the recording's calls (what `--until` and the report count). */
  index: number;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  client: ClientRef;
  pageId?: number;
  /** Undefined when the recording ended (crash) before the call did. */
  ended?: {
    status: string;
    text: string;
    /** The text is the recording's preview of a longer one. */
    textCut: boolean;
    durationMs: number;
    pageId?: number;
  };
  elements: RecordedElement[];
  /** What happened on the call's page while it ran (navigations, dialogs…), as recorded. */
  activity: CallActivityItem[];
  /**
   * Recorded page ids this call opened, ascending: pages first seen while it ran (up to the next
   * call's start), and popups its page opened that showed up later (while the agent listed pages).
   */
  newPageIds: number[];
  /** The open pages as last reported before the next call started. */
  pagesAfter: PageInfo[];
}

export interface RecordedCalls {
  calls: RecordedCall[];
  /** Page ids seen before the first call (the browser's own first tab), ascending. */
  initialPageIds: number[];
}

/** The page a call acted on: the one it named, else the one the pipeline gave it. */
function pageOfCall(call: RecordedCall): number | undefined {
  return typeof call.args.pageId === 'number'
    ? call.args.pageId
    : (call.ended?.pageId ?? call.pageId);
}

/** The call that opened a page: the latest one (so far) on the page that opened it. */
function openerCall(
  calls: readonly RecordedCall[],
  openedBy: number | undefined,
): RecordedCall | undefined {
  return openedBy === undefined ? undefined : calls.findLast(call => pageOfCall(call) === openedBy);
}

/** The calls of a recording's events, in start order. */
export function recordedCalls(events: readonly EventEnvelope[]): RecordedCalls {
  const calls: RecordedCall[] = [];
  const byId = new Map<string, RecordedCall>();
  const seenPages = new Set<number>();
  const initialPageIds: number[] = [];
  let pages: PageInfo[] = [];
  for (const envelope of events) {
    const {event} = envelope;
    if (event.type === 'toolCallStarted') {
      const call: RecordedCall = {
        index: calls.length + 1,
        callId: event.callId,
        tool: event.tool,
        args: event.args,
        client: event.client,
        ...(event.pageId === undefined ? {} : {pageId: event.pageId}),
        elements: [],
        activity: [],
        newPageIds: [],
        pagesAfter: pages,
      };
      calls.push(call);
      byId.set(event.callId, call);
    } else if (event.type === 'toolCallEnded') {
      const call = byId.get(event.callId);
      if (call) {
        call.ended = {
          status: event.status,
          text: event.result.text,
          textCut: event.result.textChars !== undefined,
          durationMs: event.durationMs,
          ...(event.pageId === undefined ? {} : {pageId: event.pageId}),
        };
      }
    } else if (event.type === 'pagesChanged') {
      pages = event.pages;
      const current = calls.at(-1);
      if (current) {
        current.pagesAfter = pages;
      }
    } else if (event.type === 'callElements') {
      const call = byId.get(event.callId);
      if (call) {
        call.elements = event.elements;
      }
    } else if (event.type === 'callActivity') {
      const call = byId.get(event.callId);
      if (call) {
        call.activity = event.items;
      }
    }
    for (const {id, openedBy} of pagesShown(event.type, event)) {
      if (!seenPages.has(id)) {
        seenPages.add(id);
        const current = openerCall(calls, openedBy) ?? calls.at(-1);
        (current ? current.newPageIds : initialPageIds).push(id);
      }
    }
  }
  for (const call of calls) {
    call.newPageIds.sort((a, b) => a - b);
  }
  initialPageIds.sort((a, b) => a - b);
  return {calls, initialPageIds};
}
