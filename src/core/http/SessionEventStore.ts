/**
 * The SDK's EventStore for one client session: every message sent on its SSE streams is kept with
 * an event id, so a client whose connection dropped can send `Last-Event-ID` and get what it
 * missed (above all the answer of a long call). Bounded by count and by bytes, oldest first, with a
 * count of what was dropped; a stream's events go as soon as its answer was delivered whole.
 */
import type {
  EventId,
  EventStore,
  StreamId,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';
import {z} from 'zod';

export interface EventStoreLimits {
  maxEvents: number;
  maxBytes: number;
}

/** Per client session: enough for the largest inline answer (a 2 MB screenshot, base64) and more. */
export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = {
  maxEvents: 1_000,
  maxBytes: 4 * 1024 * 1024,
};

/** An event id is `<stream id>_<sequence>`; stream ids are the SDK's (UUIDs, `_GET_stream`). */
const EVENT_ID = /^([A-Za-z0-9_-]{1,64})_(\d{1,15})$/;
/** Longest Last-Event-ID looked at. */
export const MAX_EVENT_ID_CHARS = 96;

const jsonRpcMessageSchema = z.custom<JSONRPCMessage>(
  value => typeof value === 'object' && value !== null && 'jsonrpc' in value,
);

interface StoredEvent {
  streamId: StreamId;
  seq: number;
  /** The message as sent (its JSON), parsed again only for a replay. */
  json: string;
  bytes: number;
}

export function parseEventId(eventId: string): {streamId: StreamId; seq: number} | undefined {
  if (eventId.length > MAX_EVENT_ID_CHARS) {
    return undefined;
  }
  const match = EVENT_ID.exec(eventId);
  return match ? {streamId: match[1] ?? '', seq: Number(match[2])} : undefined;
}

export class SessionEventStore implements EventStore {
  /** In sequence order (a Map keeps insertion order), by sequence number. */
  readonly #events = new Map<number, StoredEvent>();
  /** The last sequence number given out on each stream, for telling a known stream from a guess. */
  readonly #streams = new Map<StreamId, number>();
  #seq = 0;
  #bytes = 0;
  #dropped = 0;

  constructor(
    private readonly limits: EventStoreLimits = DEFAULT_EVENT_STORE_LIMITS,
    /** Called with each storing of a message: which stream it went to. */
    private readonly onStored?: (streamId: StreamId) => void,
  ) {}

  /** Events dropped to stay within the limits (or too large to keep at all). */
  get dropped(): number {
    return this.#dropped;
  }

  get size(): number {
    return this.#events.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.#seq;
    this.#streams.delete(streamId);
    this.#streams.set(streamId, seq);
    this.#forgetOldStreams();
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.limits.maxBytes) {
      // Kept, it would push every other event out and still break the bound.
      this.#dropped++;
    } else {
      this.#events.set(seq, {streamId, seq, json, bytes});
      this.#bytes += bytes;
      this.#evict();
    }
    this.onStored?.(streamId);
    return Promise.resolve(`${streamId}_${seq}`);
  }

  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return Promise.resolve(this.knownStream(eventId));
  }

  /** The stream of an event id this store gave out, or undefined (malformed, guessed, forgotten). */
  knownStream(eventId: EventId): StreamId | undefined {
    const parsed = parseEventId(eventId);
    if (!parsed) {
      return undefined;
    }
    const last = this.#streams.get(parsed.streamId);
    return last !== undefined && parsed.seq <= last ? parsed.streamId : undefined;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    {send}: {send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>},
  ): Promise<StreamId> {
    const parsed = parseEventId(lastEventId);
    const streamId = this.knownStream(lastEventId);
    if (!parsed || streamId === undefined) {
      throw new Error(`Unknown event id ${lastEventId.slice(0, MAX_EVENT_ID_CHARS)}`);
    }
    const after = [...this.#events.values()].filter(
      event => event.streamId === streamId && event.seq > parsed.seq,
    );
    for (const event of after) {
      const message = jsonRpcMessageSchema.safeParse(JSON.parse(event.json));
      // The priming event (an empty message) only carried its id.
      if (message.success) {
        await send(`${streamId}_${event.seq}`, message.data);
      }
    }
    return streamId;
  }

  /** The stream's answer was delivered whole: its events are not needed any more. */
  forgetStream(streamId: StreamId): void {
    this.#streams.delete(streamId);
    for (const [seq, event] of this.#events) {
      if (event.streamId === streamId) {
        this.#events.delete(seq);
        this.#bytes -= event.bytes;
      }
    }
  }

  clear(): void {
    this.#events.clear();
    this.#streams.clear();
    this.#bytes = 0;
  }

  #evict(): void {
    for (const [seq, event] of this.#events) {
      if (this.#events.size <= this.limits.maxEvents && this.#bytes <= this.limits.maxBytes) {
        return;
      }
      this.#events.delete(seq);
      this.#bytes -= event.bytes;
      this.#dropped++;
    }
  }

  /** The streams remembered stay as many as events may be kept. */
  #forgetOldStreams(): void {
    for (const streamId of this.#streams.keys()) {
      if (this.#streams.size <= this.limits.maxEvents) {
        return;
      }
      this.#streams.delete(streamId);
    }
  }
}
