/**
 * The live call log, outside React: an append-only list of calls with a version counter. Rows are
 * read by index; one object per call is replaced (never mutated) when the call ends, so memoized
 * rows re-render only when their own call changes. Nothing here copies the whole list per event.
 */
import type {
  CallActivityItem,
  CallImage,
  CallStatus,
  ClientRef,
  InspectorEvent,
  RecordedElement,
  ToolResult,
} from '../../../shared/protocol.js';
import type {TelemetryRecord} from '../../../shared/telemetry.js';

export interface CallRecord {
  /** Position in this log since it was created (stable across trimming). */
  ordinal: number;
  callId: string;
  /** Sequence id of the started event (of the ended one if the start was never seen). */
  seq: number;
  tool: string;
  client: ClientRef;
  args: Record<string, unknown>;
  pageId?: number;
  startedAt: number;
  status: CallStatus;
  endedAt?: number;
  durationMs?: number;
  result?: ToolResult;
  errorText?: string;
  actedOn?: ActedOn;
  telemetry?: TelemetryRecord;
  /** Sequence id of the ended event. */
  endSeq?: number;
  /** What happened on its page while it ran (callActivity). */
  activity?: {items: readonly CallActivityItem[]; dropped: number};
  /** The page before and after it (callScreenshots). */
  screenshots?: {before?: CallImage; after?: CallImage};
  /** Who its element arguments were when it ran: role, name, uid (callElements). */
  elements?: readonly RecordedElement[];
}

type StartedEvent = Extract<InspectorEvent, {type: 'toolCallStarted'}>;
type EndedEvent = Extract<InspectorEvent, {type: 'toolCallEnded'}>;
export type ActedOn = NonNullable<EndedEvent['actedOn']>;
type ActivityEvent = Extract<InspectorEvent, {type: 'callActivity'}>;
type ScreenshotsEvent = Extract<InspectorEvent, {type: 'callScreenshots'}>;
type ElementsEvent = Extract<InspectorEvent, {type: 'callElements'}>;
/** What is learnt about a call after it started: its elements, activity, screenshots. */
export type CallDetailEvent = ActivityEvent | ScreenshotsEvent | ElementsEvent;

function patchOf(event: CallDetailEvent): Partial<CallRecord> {
  switch (event.type) {
    case 'callActivity':
      return {activity: {items: event.items, dropped: event.dropped}};
    case 'callScreenshots':
      return {
        screenshots: {
          ...(event.before ? {before: event.before} : {}),
          ...(event.after ? {after: event.after} : {}),
        },
      };
    case 'callElements':
      return {elements: event.elements};
  }
}

/** Unknown client for calls whose start event was evicted before the UI saw it. */
const UNKNOWN_CLIENT: ClientRef = {id: '?', name: 'unknown', version: '', transport: 'http'};

const DEFAULT_UI_CALL_CAPACITY = 100_000;

export class CallLog {
  readonly #records: CallRecord[] = [];
  /** Ordinal of #records[0]. */
  #base = 0;
  #nextOrdinal = 0;
  readonly #byCallId = new Map<string, number>();
  /** Ordinals of calls that changed after they were appended (append-only; read with a cursor). */
  readonly #updates: number[] = [];
  #updatesBase = 0;
  #version = 0;
  #dropped = 0;
  /** Every tool and client seen, for the filter menus (small: tools and clients are few). */
  readonly #toolNames = new Set<string>();
  readonly #clients = new Map<string, ClientRef>();

  constructor(readonly capacity: number = DEFAULT_UI_CALL_CAPACITY) {}

  get version(): number {
    return this.#version;
  }

  /** Calls trimmed from this log to stay within its capacity. */
  get dropped(): number {
    return this.#dropped;
  }

  get size(): number {
    return this.#records.length;
  }

  get firstOrdinal(): number {
    return this.#base;
  }

  get nextOrdinal(): number {
    return this.#nextOrdinal;
  }

  at(ordinal: number): CallRecord | undefined {
    return this.#records[ordinal - this.#base];
  }

  byCallId(callId: string): CallRecord | undefined {
    const ordinal = this.#byCallId.get(callId);
    return ordinal === undefined ? undefined : this.at(ordinal);
  }

  /** Absolute position of the updates log, for incremental readers. */
  get updatesEnd(): number {
    return this.#updatesBase + this.#updates.length;
  }

  /** Ordinals updated from `from` (an earlier `updatesEnd`) on; undefined when that history is gone. */
  updatesSince(from: number): readonly number[] | undefined {
    if (from < this.#updatesBase) {
      return undefined;
    }
    return this.#updates.slice(from - this.#updatesBase);
  }

  records(): readonly CallRecord[] {
    return this.#records;
  }

  toolNames(): string[] {
    return [...this.#toolNames].sort();
  }

  clients(): ClientRef[] {
    return [...this.#clients.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  started(event: StartedEvent, seq: number, time: number): void {
    if (this.#byCallId.has(event.callId)) {
      return;
    }
    this.#append({
      ordinal: this.#nextOrdinal,
      callId: event.callId,
      seq,
      tool: event.tool,
      client: event.client,
      args: event.args,
      ...(event.pageId === undefined ? {} : {pageId: event.pageId}),
      startedAt: time,
      status: 'running',
    });
  }

  ended(event: EndedEvent, seq: number, time: number): CallRecord {
    const ordinal = this.#byCallId.get(event.callId);
    const existing = ordinal === undefined ? undefined : this.at(ordinal);
    const ending = {
      status: event.status,
      endedAt: time,
      durationMs: event.durationMs,
      result: event.result,
      endSeq: seq,
      ...(event.errorText === undefined ? {} : {errorText: event.errorText}),
      ...(event.actedOn ? {actedOn: event.actedOn} : {}),
      ...(event.telemetry ? {telemetry: event.telemetry} : {}),
      ...(event.pageId === undefined ? {} : {pageId: event.pageId}),
    };
    if (existing && ordinal !== undefined) {
      const updated: CallRecord = {...existing, ...ending};
      this.#records[ordinal - this.#base] = updated;
      this.#updates.push(ordinal);
      this.#version++;
      return updated;
    }
    const record: CallRecord = {
      ordinal: this.#nextOrdinal,
      callId: event.callId,
      seq,
      tool: event.tool,
      client: UNKNOWN_CLIENT,
      args: {},
      startedAt: time - event.durationMs,
      ...ending,
    };
    this.#append(record);
    return record;
  }

  /** Shows a call as held for approval, or back to running once released (hold rules). */
  setHeld(callId: string, held: boolean): void {
    const ordinal = this.#byCallId.get(callId);
    const record = ordinal === undefined ? undefined : this.at(ordinal);
    if (!record || ordinal === undefined || record.status !== (held ? 'running' : 'held')) {
      return;
    }
    this.#records[ordinal - this.#base] = {...record, status: held ? 'held' : 'running'};
    this.#updates.push(ordinal);
    this.#version++;
  }

  /** Adds what is learnt of a call (elements, activity, screenshots) to its record, if kept. */
  attach(event: CallDetailEvent): void {
    const ordinal = this.#byCallId.get(event.callId);
    const existing = ordinal === undefined ? undefined : this.at(ordinal);
    if (!existing || ordinal === undefined) {
      return;
    }
    this.#records[ordinal - this.#base] = {...existing, ...patchOf(event)};
    this.#updates.push(ordinal);
    this.#version++;
  }

  /** Marks calls still running as cancelled (e.g. the server they ran on restarted). */
  abandonRunning(note: string): void {
    for (let index = 0; index < this.#records.length; index++) {
      const record = this.#records[index];
      if (record?.status === 'running' || record?.status === 'held') {
        this.#records[index] = {...record, status: 'cancelled', errorText: note};
        this.#updates.push(record.ordinal);
        this.#version++;
      }
    }
  }

  /** Adds a finished record as is (a recording opened in the UI). */
  add(record: Omit<CallRecord, 'ordinal'>): void {
    const existing = this.#byCallId.get(record.callId);
    if (existing !== undefined) {
      const current = this.at(existing);
      if (current) {
        this.#records[existing - this.#base] = {...current, ...record, ordinal: existing};
        this.#updates.push(existing);
        this.#version++;
      }
      return;
    }
    this.#append({...record, ordinal: this.#nextOrdinal});
  }

  clear(): void {
    this.#base = this.#nextOrdinal;
    this.#records.length = 0;
    this.#byCallId.clear();
    this.#updatesBase += this.#updates.length;
    this.#updates.length = 0;
    this.#dropped = 0;
    this.#toolNames.clear();
    this.#clients.clear();
    this.#version++;
  }

  #append(record: CallRecord): void {
    this.#records.push(record);
    this.#toolNames.add(record.tool);
    if (record.client !== UNKNOWN_CLIENT) {
      this.#clients.set(record.client.id, record.client);
    }
    this.#byCallId.set(record.callId, record.ordinal);
    this.#nextOrdinal++;
    this.#version++;
    // Trim in chunks of a tenth so trimming stays amortized O(1) per call.
    if (this.#records.length > this.capacity + Math.ceil(this.capacity / 10)) {
      const removed = this.#records.splice(0, this.#records.length - this.capacity);
      for (const old of removed) {
        this.#byCallId.delete(old.callId);
      }
      this.#base += removed.length;
      this.#dropped += removed.length;
      const firstKept = this.#updates.findIndex(ordinal => ordinal >= this.#base);
      const cut = firstKept === -1 ? this.#updates.length : firstKept;
      this.#updates.splice(0, cut);
      this.#updatesBase += cut;
    }
  }
}
