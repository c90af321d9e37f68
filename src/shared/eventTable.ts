/**
 * One row per inspector event type: how recordings read it. Every event is recorded (the
 * recorder writes the hub's stream whole); a row says whether a recording's read-only log shows
 * it and which pages it shows a replay. The live store applies each type through its own handler
 * map (renderer/src/store/storeEvents.ts), which, like this table, must name every type: a new
 * event type without its row or its handler fails to compile.
 */
import type {InspectorEvent} from './protocol.js';

export type InspectorEventType = InspectorEvent['type'];
/** Each event's shape by its type. */
export type InspectorEventMap = {[E in InspectorEvent as E['type']]: E};
export type EventOf<T extends InspectorEventType> = InspectorEventMap[T];

/** One function per event type in `T`, each given its own event. */
export type EventHandlers<T extends InspectorEventType, A extends unknown[]> = {
  [K in T]: (event: InspectorEventMap[K], ...args: A) => void;
};

/** Calls the handler of the event's type. */
export function handleEvent<T extends InspectorEventType, A extends unknown[]>(
  handlers: EventHandlers<T, A>,
  type: T,
  event: InspectorEventMap[T],
  ...args: A
): void {
  const handler: (event: InspectorEventMap[T], ...args: A) => void = handlers[type];
  handler(event, ...args);
}

/** A page an event shows, with the page that opened it (when one did). */
export interface ShownPage {
  id: number;
  openedBy?: number;
}

interface EventRow<E extends InspectorEvent> {
  /** A recording's read-only log shows it (a call's start, end or part, a telemetry record). */
  inRecordedLog: boolean;
  /**
   * The pages it shows: a replay pairs a recorded page with the call during which it first
   * appeared. Absent: it names no page, or only pages listed first by pagesChanged or its call.
   */
  pages?: (event: E) => ShownPage[];
}

function ownPage(event: {pageId?: number | undefined}): ShownPage[] {
  return event.pageId === undefined ? [] : [{id: event.pageId}];
}

const LIVE_STATE = {inRecordedLog: false} as const;

/** Every inspector event type and how recordings read it. */
export const EVENT_TABLE = {
  toolCallStarted: {inRecordedLog: true, pages: ownPage},
  toolCallEnded: {inRecordedLog: true, pages: ownPage},
  callActivity: {inRecordedLog: true},
  callScreenshots: {inRecordedLog: true},
  callElements: {inRecordedLog: true},
  telemetry: {inRecordedLog: true},
  pagesChanged: {
    inRecordedLog: false,
    pages: event =>
      event.pages.map(page => ({
        id: page.id,
        ...(page.openedBy === undefined ? {} : {openedBy: page.openedBy}),
      })),
  },
  // The live state of the run: a read-only log shows its calls only.
  toolsChanged: LIVE_STATE,
  browserStatus: LIVE_STATE,
  clientConnected: LIVE_STATE,
  clientDisconnected: LIVE_STATE,
  clientSessionExpired: LIVE_STATE,
  clientActivity: LIVE_STATE,
  isolateClientsChanged: LIVE_STATE,
  webmcpToolsChanged: LIVE_STATE,
  webmcpInvocation: LIVE_STATE,
  holdRulesChanged: LIVE_STATE,
  holdOpenOnHeldChanged: LIVE_STATE,
  callHeld: LIVE_STATE,
  callHoldTarget: LIVE_STATE,
  callHoldEnded: LIVE_STATE,
  /** Whole hold states, in recordings of earlier versions only. */
  holdChanged: LIVE_STATE,
  replayProgress: LIVE_STATE,
  replayFinished: LIVE_STATE,
  /** A note where the server could not keep an event: nothing of a call to show. */
  eventOmitted: LIVE_STATE,
} as const satisfies {[T in InspectorEventType]: EventRow<EventOf<T>>};

type EventTable = typeof EVENT_TABLE;
/** The table read generically: each row for its own event type. */
const ROWS: {[T in InspectorEventType]: EventRow<InspectorEventMap[T]>} = EVENT_TABLE;

/** The event types a recording's read-only log shows. */
export type RecordedLogEventType = {
  [T in InspectorEventType]: EventTable[T]['inRecordedLog'] extends true ? T : never;
}[InspectorEventType];

export function inRecordedLog(event: InspectorEvent): event is EventOf<RecordedLogEventType> {
  return ROWS[event.type].inRecordedLog;
}

/** The pages an event shows a replay (EventRow.pages). */
export function pagesShown<T extends InspectorEventType>(
  type: T,
  event: InspectorEventMap[T],
): ShownPage[] {
  const row: EventRow<InspectorEventMap[T]> = ROWS[type];
  return row.pages?.(event) ?? [];
}
