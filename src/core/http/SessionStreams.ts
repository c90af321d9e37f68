/**
 * The SSE streams of one client session, for resumability: the event store the transport writes
 * every message to, which request carried which stream, and what happens to the tool calls of a
 * stream that closed before their answer.
 *
 * A closed stream whose client holds an event id (it got at least one event of it: the SDK's
 * priming event on protocol 2025-11-25, or any message) can be resumed with `Last-Event-ID`, so its
 * calls keep running for the resume window; a stream that is not resumed by then, or that the
 * client cannot resume (no event id reached it), cancels its calls as notifications/cancelled
 * would (WebMCP tools get WebMCP.cancelInvocation, locks are freed). A stream whose answer was
 * delivered whole is forgotten at once.
 */
import {AsyncLocalStorage} from 'node:async_hooks';
import type {ServerResponse} from 'node:http';
import type {StreamId} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {toolCallIds} from './closedStream.js';
import {SessionEventStore, type EventStoreLimits} from './SessionEventStore.js';

/**
 * The SDK's id of a session's standalone GET stream (server notifications not tied to a request),
 * which no POST owns.
 */
const STANDALONE_STREAM_ID = '_GET_stream';

/** One HTTP request of a session: the stream it carries, once the store has seen it. */
interface Exchange {
  readonly owner: SessionStreams;
  streamId: StreamId | undefined;
}

/**
 * The request being handled, across the awaits of the SDK's transport and the handlers it starts:
 * the event store learns from it which POST a stream id belongs to.
 */
const exchanges = new AsyncLocalStorage<Exchange>();

export interface SessionStreamsOptions {
  /** 0: a dropped stream cancels its calls at once. */
  resumeWindowMs: number;
  limits?: EventStoreLimits;
  /** Cancels running tool calls of this session by JSON-RPC id. */
  cancel: (ids: readonly (string | number)[], reason: string) => void;
}

interface Waiting {
  ids: readonly (string | number)[];
  timer: NodeJS.Timeout | undefined;
}

export class SessionStreams {
  readonly eventStore: SessionEventStore;
  /** The calls of streams that closed before their answer, waiting for the client to resume. */
  readonly #waiting = new Map<StreamId, Waiting>();
  #disposed = false;

  constructor(private readonly options: SessionStreamsOptions) {
    this.eventStore = new SessionEventStore(options.limits, streamId => this.#stored(streamId));
  }

  /** Calls whose stream dropped and that still wait for their client to resume it. */
  get waitingStreams(): number {
    return this.#waiting.size;
  }

  /**
   * Handles one request of the session (`run` passes it to the transport); `lastEventId` is the
   * header of a GET that resumes a stream.
   */
  async handle(
    response: ServerResponse,
    body: unknown,
    lastEventId: string | undefined,
    run: () => Promise<void>,
  ): Promise<void> {
    const exchange: Exchange = {owner: this, streamId: undefined};
    if (lastEventId !== undefined) {
      exchange.streamId = this.eventStore.knownStream(lastEventId);
      if (exchange.streamId !== undefined) {
        this.#resumed(exchange.streamId);
      }
    }
    const ids = toolCallIds(body);
    response.once('close', () => this.#closed(exchange, ids, response));
    await exchanges.run(exchange, run);
  }

  /** The transport stored a message: a POST's first one names the stream it carries. */
  #stored(streamId: StreamId): void {
    const exchange = exchanges.getStore();
    if (
      exchange?.owner === this &&
      exchange.streamId === undefined &&
      streamId !== STANDALONE_STREAM_ID
    ) {
      exchange.streamId = streamId;
    }
  }

  #resumed(streamId: StreamId): void {
    const waiting = this.#waiting.get(streamId);
    if (waiting) {
      clearTimeout(waiting.timer);
      waiting.timer = undefined;
    }
  }

  #closed(
    exchange: Exchange,
    postIds: readonly (string | number)[],
    response: ServerResponse,
  ): void {
    const {streamId} = exchange;
    // A 200 of a request that carries a stream is its SSE stream, ended by the server after the
    // last answer on it (an error status never opened one).
    const delivered = response.writableFinished && response.statusCode === 200;
    if (delivered) {
      if (streamId !== undefined) {
        this.#waiting.delete(streamId);
        this.eventStore.forgetStream(streamId);
      }
      return;
    }
    const ids =
      postIds.length > 0
        ? postIds
        : streamId === undefined
          ? []
          : (this.#waiting.get(streamId)?.ids ?? []);
    if (ids.length === 0 || this.#disposed) {
      return;
    }
    // Without headers sent, no event id can have reached the client: it cannot resume.
    if (streamId === undefined || !response.headersSent || this.options.resumeWindowMs === 0) {
      this.options.cancel(ids, 'The client closed the HTTP stream before the answer came.');
      return;
    }
    const seconds = this.options.resumeWindowMs / 1000;
    const timer = setTimeout(() => {
      this.#waiting.delete(streamId);
      this.options.cancel(
        ids,
        `The client's HTTP stream closed before the answer came, and the client did not resume it (Last-Event-ID) within ${seconds} s.`,
      );
    }, this.options.resumeWindowMs);
    timer.unref();
    this.#waiting.get(streamId)?.timer?.close();
    this.#waiting.set(streamId, {ids, timer});
  }

  /** The session ended: nothing waits any more, and the stored events go. */
  dispose(): void {
    this.#disposed = true;
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
    }
    this.#waiting.clear();
    this.eventStore.clear();
  }
}
