/**
 * The live event store behind every inspector UI: a bounded ring buffer of events with increasing
 * sequence ids, bounded by count and by size. Subscribers start from any sequence id (resume after
 * a reconnect) and receive batches, never one message per event; a slow subscriber simply falls
 * behind and catches up from the store, and what the bounds evicted is counted, not hidden.
 *
 * Every event is copied in through one bounded walk: values from outside in it (arguments, results,
 * page schemas) are cut at the depth bound, every string passes the redaction (secrets), and the
 * copy is checked against the event schema, so what a UI, the recording and the WebSocket get is
 * always serializable and valid. A listener's failure is logged, never thrown at the publisher.
 */
import crypto from 'node:crypto';
import {boundValue, VALUE_DEPTH_LIMIT} from '../../shared/boundedValue.js';
import {
  inspectorEventSchema,
  type EventBatch,
  type EventEnvelope,
  type InspectorEvent,
} from '../../shared/protocol.js';
import {errorText} from '../../shared/values.js';

const DEFAULT_EVENT_CAPACITY = 100_000;
/** Characters of events held (images apart); above it, the oldest events are evicted. */
const DEFAULT_EVENT_BUDGET_CHARS = 64 * 1024 * 1024;
/** An event's own fields nest a few levels; values from outside inside it get the usual bound. */
const EVENT_DEPTH_LIMIT = VALUE_DEPTH_LIMIT + 16;
/**
 * Values one event keeps: a client's arguments or a page's value with more is cut with a marker,
 * so copying, checking and recording any event stays cheap (real ones hold a few thousand).
 */
const EVENT_NODE_LIMIT = 50_000;
/** Screenshots dominate memory; above this total, the oldest events lose their image data. */
const IMAGE_BUDGET_CHARS = 96 * 1024 * 1024;
const MAX_IMAGE_CHARS = 4 * 1024 * 1024;

export interface HubOptions {
  capacity?: number;
  /** Size bound of the store in characters of event text (image data is bounded apart). */
  budgetChars?: number;
  batchIntervalMs?: number;
  maxBatchSize?: number;
  /** Applied to every string of every event (image data excepted): keeps secrets out. */
  redact?: (text: string) => string;
  /** Told when a listener or a subscriber failed (the hub carries on). */
  log?: (line: string) => void;
}

export interface Subscription {
  /** Called by a transport when it can take more (after backpressure). */
  resume(): void;
  close(): void;
}

/** Returns false to pause delivery until `resume()` (e.g. a WebSocket with a full send buffer). */
export type BatchListener = (batch: EventBatch) => boolean;

class Subscriber implements Subscription {
  cursor: number;
  paused = false;
  closed = false;
  timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly hub: InspectorHub,
    fromSeq: number,
    readonly listener: BatchListener,
  ) {
    this.cursor = fromSeq;
  }

  resume(): void {
    if (this.paused) {
      this.paused = false;
      this.hub.scheduleFlush(this, 0);
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.hub.unsubscribe(this);
  }
}

export class InspectorHub {
  readonly capacity: number;
  /** Random per hub (per server run): tells a resuming UI whether its sequence ids still apply. */
  readonly streamId: string = crypto.randomUUID();
  readonly #batchIntervalMs: number;
  readonly #maxBatch: number;
  readonly #buffer: (EventEnvelope | undefined)[];
  /** Characters of each held event, images apart (by slot, like the buffer). */
  readonly #chars: number[];
  readonly #budgetChars: number;
  readonly #redact: ((text: string) => string) | undefined;
  readonly #log: (line: string) => void;
  /** Sequence id of the oldest event still held. */
  #firstSeq = 1;
  #nextSeq = 1;
  #dropped = 0;
  #heldChars = 0;
  #imageChars = 0;
  #imageCursor = 1;
  readonly #subscribers = new Set<Subscriber>();
  readonly #listeners = new Set<(envelope: EventEnvelope) => void>();

  constructor(options: HubOptions = {}) {
    this.capacity = options.capacity ?? DEFAULT_EVENT_CAPACITY;
    this.#batchIntervalMs = options.batchIntervalMs ?? 40;
    // Small enough that one batch is a short task for the UI (validating and applying it).
    this.#maxBatch = options.maxBatchSize ?? 500;
    this.#buffer = new Array<EventEnvelope | undefined>(this.capacity);
    this.#chars = new Array<number>(this.capacity).fill(0);
    this.#budgetChars = options.budgetChars ?? DEFAULT_EVENT_BUDGET_CHARS;
    this.#redact = options.redact;
    this.#log = options.log ?? (() => undefined);
  }

  get nextSeq(): number {
    return this.#nextSeq;
  }

  get firstSeq(): number {
    return this.#firstSeq;
  }

  get dropped(): number {
    return this.#dropped;
  }

  get size(): number {
    return this.#nextSeq - this.#firstSeq;
  }

  publish(event: InspectorEvent): EventEnvelope {
    const {event: bounded, chars} = this.#boundEvent(event);
    const envelope: EventEnvelope = {seq: this.#nextSeq, time: Date.now(), event: bounded};
    const images = imageChars(envelope.event);
    const slot = (envelope.seq - 1) % this.capacity;
    if (this.size === this.capacity) {
      this.#evictOldest();
    }
    this.#buffer[slot] = envelope;
    this.#chars[slot] = Math.max(0, chars - images);
    this.#heldChars += this.#chars[slot];
    this.#nextSeq++;
    this.#imageChars += images;
    // The newest event always stays, however big: bounded values keep it far below the budget.
    while (this.#heldChars > this.#budgetChars && this.size > 1) {
      this.#evictOldest();
    }
    if (this.#imageChars > IMAGE_BUDGET_CHARS) {
      this.#trimImages();
    }
    for (const listener of this.#listeners) {
      try {
        listener(envelope);
      } catch (error) {
        this.#log(`An inspector event listener failed on ${event.type}: ${errorText(error)}`);
      }
    }
    for (const subscriber of this.#subscribers) {
      this.scheduleFlush(subscriber, this.#batchIntervalMs);
    }
    return envelope;
  }

  /** The event as the store keeps it: bounded, redacted, images bounded, checked. */
  #boundEvent(event: InspectorEvent): {event: InspectorEvent; chars: number} {
    const redact = this.#redact;
    const walked = boundValue(boundImages(event), {
      maxDepth: EVENT_DEPTH_LIMIT,
      maxNodes: EVENT_NODE_LIMIT,
      ...(redact === undefined
        ? {}
        : {mapString: (text, key, parent) => (isImageData(key, parent) ? text : redact(text))}),
    });
    const checked = inspectorEventSchema.safeParse(walked.value);
    if (checked.success) {
      return {event: checked.data, chars: walked.chars};
    }
    // Only a malformed event (a NaN where a number goes) or one past every bound gets here.
    const reason = checked.error.issues[0]?.message ?? 'it does not fit the event schema';
    this.#log(`An inspector event (${event.type}) was left out: ${reason}`);
    return {event: {type: 'eventOmitted', omittedType: event.type, reason}, chars: 200};
  }

  #evictOldest(): void {
    const slot = (this.#firstSeq - 1) % this.capacity;
    const evicted = this.#buffer[slot];
    if (evicted) {
      this.#imageChars -= imageChars(evicted.event);
    }
    this.#heldChars -= this.#chars[slot] ?? 0;
    this.#chars[slot] = 0;
    this.#buffer[slot] = undefined;
    this.#firstSeq++;
    this.#dropped++;
  }

  /** In-process observers (telemetry log, tests) that want each event as it happens. */
  onEvent(listener: (envelope: EventEnvelope) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get(seq: number): EventEnvelope | undefined {
    if (seq < this.#firstSeq || seq >= this.#nextSeq) {
      return undefined;
    }
    return this.#buffer[(seq - 1) % this.capacity];
  }

  /** Events from `fromSeq` on (clamped to what is still held), at most `limit`. */
  range(fromSeq: number, limit: number): EventEnvelope[] {
    const start = Math.max(fromSeq, this.#firstSeq);
    const end = Math.min(this.#nextSeq, start + limit);
    const out: EventEnvelope[] = [];
    for (let seq = start; seq < end; seq++) {
      const envelope = this.#buffer[(seq - 1) % this.capacity];
      if (envelope) {
        out.push(envelope);
      }
    }
    return out;
  }

  /**
   * Streams events from `fromSeq` on. A `fromSeq` from another stream (the UI last saw a previous
   * server run) or beyond this stream's end starts from the oldest event held instead.
   */
  subscribe(fromSeq: number, listener: BatchListener, streamId?: string): Subscription {
    const foreign =
      (streamId !== undefined && streamId !== this.streamId) || fromSeq > this.#nextSeq;
    const subscriber = new Subscriber(this, foreign ? 1 : Math.max(1, fromSeq), listener);
    this.#subscribers.add(subscriber);
    // The backlog (or an empty batch that tells the UI where the stream stands) goes out at once.
    this.scheduleFlush(subscriber, 0);
    return subscriber;
  }

  unsubscribe(subscriber: Subscriber): void {
    this.#subscribers.delete(subscriber);
  }

  /** @internal */
  scheduleFlush(subscriber: Subscriber, delayMs: number): void {
    if (subscriber.timer || subscriber.paused || subscriber.closed) {
      return;
    }
    subscriber.timer = setTimeout(() => {
      subscriber.timer = undefined;
      try {
        this.#flush(subscriber);
      } catch (error) {
        // A transport that cannot send loses this subscription, never the process.
        this.#log(`An inspector event stream failed and was closed: ${errorText(error)}`);
        subscriber.close();
      }
    }, delayMs);
  }

  #flush(subscriber: Subscriber): void {
    let first = true;
    while (!subscriber.closed && !subscriber.paused) {
      if (subscriber.cursor < this.#firstSeq) {
        subscriber.cursor = this.#firstSeq;
      }
      if (subscriber.cursor >= this.#nextSeq && !first) {
        return;
      }
      const events = this.range(subscriber.cursor, this.#maxBatch);
      const last = events.at(-1);
      subscriber.cursor = last ? last.seq + 1 : subscriber.cursor;
      first = false;
      const more = subscriber.listener({
        events,
        dropped: this.#dropped,
        nextSeq: this.#nextSeq,
        streamId: this.streamId,
      });
      if (!more) {
        subscriber.paused = true;
        return;
      }
      if (events.length === 0) {
        return;
      }
    }
  }

  #trimImages(): void {
    for (
      let seq = Math.max(this.#imageCursor, this.#firstSeq);
      seq < this.#nextSeq && this.#imageChars > IMAGE_BUDGET_CHARS / 2;
      seq++
    ) {
      const envelope = this.get(seq);
      this.#imageCursor = seq + 1;
      if (envelope?.event.type === 'toolCallEnded' && envelope.event.result.images.length > 0) {
        this.#imageChars -= imageChars(envelope.event);
        envelope.event.result.images = envelope.event.result.images.map(image => ({
          mimeType: image.mimeType,
          data: '',
        }));
      } else if (envelope?.event.type === 'callScreenshots') {
        // The recording keeps its own copy; the live store only needs the recent ones.
        this.#imageChars -= imageChars(envelope.event);
        const {before, after} = envelope.event;
        envelope.event.before = before ? {...before, data: ''} : undefined;
        envelope.event.after = after ? {...after, data: ''} : undefined;
      }
    }
  }

  clear(): void {
    // Keeps sequence ids increasing so resuming clients are not confused.
    this.#dropped += this.size;
    this.#firstSeq = this.#nextSeq;
    this.#buffer.fill(undefined);
    this.#chars.fill(0);
    this.#heldChars = 0;
    this.#imageChars = 0;
  }
}

function imageChars(event: InspectorEvent): number {
  if (event.type === 'callScreenshots') {
    return (event.before?.data.length ?? 0) + (event.after?.data.length ?? 0);
  }
  if (event.type !== 'toolCallEnded') {
    return 0;
  }
  let total = 0;
  for (const image of event.result.images) {
    total += image.data.length;
  }
  return total;
}

function boundImages(event: InspectorEvent): InspectorEvent {
  if (
    event.type !== 'toolCallEnded' ||
    !event.result.images.some(image => image.data.length > MAX_IMAGE_CHARS)
  ) {
    return event;
  }
  return {
    ...event,
    result: {
      ...event.result,
      images: event.result.images.map(image =>
        image.data.length > MAX_IMAGE_CHARS ? {mimeType: image.mimeType, data: ''} : image,
      ),
    },
  };
}

/** The base64 data of an image (never text to redact). */
function isImageData(key: string | undefined, parent: object | undefined): boolean {
  return key === 'data' && parent !== undefined && 'mimeType' in parent;
}
