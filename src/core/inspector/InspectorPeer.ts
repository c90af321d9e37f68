/**
 * The engine's end of one UI connection (src/shared/wire.ts), whatever carries it: the event
 * streams the UI subscribed to, each with at most STREAM_LIMITS.batchesInFlight unacknowledged
 * batches; live frames, one in flight and the newest waiting; and its commands. The WebSocket
 * (InspectorSocket.ts) and the desktop IPC bridge (src/main/inspectorBridge.ts) only check and
 * carry messages, so both transports share one envelope, one flow control and the same limits.
 */
import type {InspectorCommand, LiveFrame} from '../../shared/protocol.js';
import type {CommandResult} from '../../shared/replies.js';
import {
  STREAM_LIMITS,
  type BatchMessage,
  type CommandMessage,
  type FrameMessage,
  type ReplyMessage,
  type StreamMessage,
} from '../../shared/wire.js';
import type {BatchListener, Subscription} from './InspectorHub.js';

/** What a UI connection needs from the engine. */
export interface InspectorEndpoint {
  subscribe(fromSeq: number, listener: BatchListener, streamId?: string): Subscription;
  handleCommand(command: InspectorCommand): Promise<CommandResult>;
  /** Registers a live-frame listener; returns the unsubscribe function. */
  onFrame(listener: (frame: LiveFrame) => void): () => void;
}

export interface PeerOptions {
  endpoint: InspectorEndpoint;
  /** Carries a batch or frame to the UI; false when the UI is gone (the peer then lets go). */
  send: (message: BatchMessage | FrameMessage) => boolean;
  log: (line: string) => void;
}

interface Stream {
  subscription: Subscription | undefined;
  inFlight: number;
  paused: boolean;
}

export class InspectorPeer {
  readonly #streams = new Map<number, Stream>();
  #stopFrames: (() => void) | undefined;
  #frameInFlight = false;
  #pendingFrame: LiveFrame | undefined;

  constructor(private readonly options: PeerOptions) {}

  /** Open event streams (for tests and diagnostics). */
  get subscriptionCount(): number {
    return this.#streams.size;
  }

  receive(message: StreamMessage): void {
    switch (message.kind) {
      case 'subscribe':
        this.#subscribe(message.id, message.fromSeq, message.streamId);
        return;
      case 'unsubscribe':
        this.#closeStream(message.id);
        return;
      case 'batchAck':
        this.#batchHandled(message.id);
        return;
      case 'frames':
        if (message.enabled) {
          this.#startFrames();
        } else {
          this.#stopFrameStream();
        }
        return;
      case 'frameAck':
        this.#frameHandled();
        return;
      case 'reset':
        this.release();
    }
  }

  async command(message: CommandMessage): Promise<ReplyMessage> {
    const reply = await this.options.endpoint.handleCommand(message.command);
    return {kind: 'reply', id: message.id, reply};
  }

  /** Closes every stream and stops the frames: the UI went away or started over. */
  release(): void {
    for (const id of [...this.#streams.keys()]) {
      this.#closeStream(id);
    }
    this.#stopFrameStream();
  }

  #subscribe(id: number, fromSeq: number, streamId: string | undefined): void {
    this.#closeStream(id);
    if (this.#streams.size >= STREAM_LIMITS.subscriptions) {
      const oldest = this.#streams.keys().next();
      if (!oldest.done) {
        this.options.log(
          `The inspector opened more than ${STREAM_LIMITS.subscriptions} event streams on one connection; closing the oldest.`,
        );
        this.#closeStream(oldest.value);
      }
    }
    const stream: Stream = {subscription: undefined, inFlight: 0, paused: false};
    this.#streams.set(id, stream);
    stream.subscription = this.options.endpoint.subscribe(
      fromSeq,
      batch => {
        if (this.#streams.get(id) !== stream || !this.#send({kind: 'batch', id, batch})) {
          return false;
        }
        stream.inFlight++;
        if (stream.inFlight >= STREAM_LIMITS.batchesInFlight) {
          stream.paused = true;
          return false;
        }
        return true;
      },
      streamId,
    );
  }

  #batchHandled(id: number): void {
    const stream = this.#streams.get(id);
    if (!stream) {
      return;
    }
    stream.inFlight = Math.max(0, stream.inFlight - 1);
    if (stream.paused && stream.inFlight < STREAM_LIMITS.batchesInFlight) {
      stream.paused = false;
      stream.subscription?.resume();
    }
  }

  #closeStream(id: number): void {
    this.#streams.get(id)?.subscription?.close();
    this.#streams.delete(id);
  }

  #startFrames(): void {
    this.#stopFrames ??= this.options.endpoint.onFrame(frame => {
      if (this.#frameInFlight) {
        this.#pendingFrame = frame;
        return;
      }
      this.#frameInFlight = this.#send({kind: 'frame', frame});
    });
  }

  #frameHandled(): void {
    const next = this.#pendingFrame;
    this.#pendingFrame = undefined;
    this.#frameInFlight = next !== undefined && this.#send({kind: 'frame', frame: next});
  }

  #stopFrameStream(): void {
    this.#stopFrames?.();
    this.#stopFrames = undefined;
    this.#frameInFlight = false;
    this.#pendingFrame = undefined;
  }

  /** Sends unless the UI is gone; a gone UI releases everything it held. */
  #send(message: BatchMessage | FrameMessage): boolean {
    if (this.options.send(message)) {
      return true;
    }
    this.release();
    return false;
  }
}
