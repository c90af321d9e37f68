/**
 * The UI's end of the wire (src/shared/wire.ts), shared by the WebSocket and the IPC connection:
 * commands, with each reply checked against its command's reply schema; event streams that resume
 * after the last delivered sequence id; live frames; the desktop shell's requests to show a panel;
 * and the acknowledgements the engine's flow
 * control waits for. Every message is checked before use (protocolChecks.ts, fetched alongside the
 * first paint); what arrives before the checks have loaded waits for them, in order — the engine's
 * flow control keeps that bounded (a few batches, one frame, the replies of sent commands).
 */
import type {
  EventBatch,
  InspectorCommand,
  InspectorCommandType,
  LiveFrame,
} from '../../../shared/protocol.js';
import type {CommandResult} from '../../../shared/replies.js';
import type {
  ClientMessage,
  CommandMessage,
  CommandReply,
  ServerMessage,
  ShowMessage,
} from '../../../shared/wire.js';

/** The checks of what the engine sends (protocolChecks.ts). */
export interface ProtocolChecks {
  /** A server message (parsed JSON, or an IPC payload), or undefined if it does not fit. */
  message(value: unknown): ServerMessage | undefined;
  /** A command's reply, its value checked against the command's reply schema. */
  reply<K extends InspectorCommandType>(type: K, reply: CommandReply): CommandResult<K>;
}

/** Carries messages to the engine; false while the transport is not open (sent again on open). */
export type SendMessage = (message: ClientMessage) => boolean;

interface PendingCommand {
  message: CommandMessage;
  sent: boolean;
  settle: (reply: CommandReply) => void;
}

interface Stream {
  fromSeq: number;
  /** Last sequence id delivered, and the event stream (server run) it belongs to. */
  lastSeq: number;
  streamId: string | undefined;
  onBatch: (batch: EventBatch) => void;
}

export class ProtocolClient {
  #checks: ProtocolChecks | undefined;
  /** Messages received before the checks loaded, oldest first. */
  #unchecked: unknown[] = [];
  readonly #pending = new Map<number, PendingCommand>();
  readonly #streams = new Map<number, Stream>();
  readonly #frameListeners = new Set<(frame: LiveFrame) => void>();
  readonly #showListeners = new Set<(panel: ShowMessage['panel']) => void>();
  #nextId = 1;

  constructor(
    private readonly send: SendMessage,
    checks: ProtocolChecks | Promise<ProtocolChecks>,
    onChecksFailed: (error: unknown) => void,
  ) {
    if (checks instanceof Promise) {
      checks.then(loaded => {
        this.#checks = loaded;
        for (const value of this.#unchecked.splice(0)) {
          this.receive(value);
        }
      }, onChecksFailed);
    } else {
      this.#checks = checks;
    }
  }

  command<C extends InspectorCommand>(command: C): Promise<CommandResult<C['type']>> {
    const id = this.#nextId++;
    const message: CommandMessage = {kind: 'command', id, command};
    return new Promise(resolve => {
      const pending: PendingCommand = {
        message,
        sent: false,
        settle: reply => {
          const checks = this.#checks;
          resolve(
            checks === undefined || !reply.ok
              ? errorOnly<C['type']>(reply)
              : checks.reply<C['type']>(command.type, reply),
          );
        },
      };
      this.#pending.set(id, pending);
      pending.sent = this.send(message);
    });
  }

  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void {
    const id = this.#nextId++;
    const stream: Stream = {
      fromSeq,
      lastSeq: Math.max(0, fromSeq - 1),
      streamId: undefined,
      onBatch,
    };
    this.#streams.set(id, stream);
    this.#sendSubscribe(id, stream);
    return () => {
      if (this.#streams.delete(id)) {
        this.send({kind: 'unsubscribe', id});
      }
    };
  }

  onFrame(listener: (frame: LiveFrame) => void): () => void {
    // Wrapped so that registering the same function twice still needs two removals.
    const wrapped = (frame: LiveFrame): void => listener(frame);
    this.#frameListeners.add(wrapped);
    if (this.#frameListeners.size === 1) {
      this.send({kind: 'frames', enabled: true});
    }
    return () => {
      if (this.#frameListeners.delete(wrapped) && this.#frameListeners.size === 0) {
        this.send({kind: 'frames', enabled: false});
      }
    };
  }

  /** The desktop shell asks to show a panel (only IPC carries it). */
  onShow(listener: (panel: ShowMessage['panel']) => void): () => void {
    const wrapped = (panel: ShowMessage['panel']): void => listener(panel);
    this.#showListeners.add(wrapped);
    return () => this.#showListeners.delete(wrapped);
  }

  /** The transport (re)opened on a fresh engine connection: ask for everything again. */
  opened(): void {
    for (const [id, stream] of this.#streams) {
      this.#sendSubscribe(id, stream);
    }
    if (this.#frameListeners.size > 0) {
      this.send({kind: 'frames', enabled: true});
    }
    for (const pending of this.#pending.values()) {
      if (!pending.sent) {
        pending.sent = this.send(pending.message);
      }
    }
  }

  /** The transport closed: commands already sent will not be answered; queued ones wait. */
  dropped(error: string): void {
    for (const [id, pending] of this.#pending) {
      if (pending.sent) {
        this.#pending.delete(id);
        pending.settle({ok: false, error});
      }
    }
  }

  /** Answers every pending command with `error` and forgets what was asked for. */
  close(error: string): void {
    for (const id of [...this.#streams.keys()]) {
      this.#streams.delete(id);
      this.send({kind: 'unsubscribe', id});
    }
    if (this.#frameListeners.size > 0) {
      this.#frameListeners.clear();
      this.send({kind: 'frames', enabled: false});
    }
    for (const pending of this.#pending.values()) {
      pending.settle({ok: false, error});
    }
    this.#pending.clear();
    this.#unchecked = [];
  }

  /** One message from the engine, unchecked. */
  receive(value: unknown): void {
    const checks = this.#checks;
    if (checks === undefined) {
      this.#unchecked.push(value);
      return;
    }
    const message = checks.message(value);
    if (message) {
      this.#handle(message);
    }
  }

  #handle(message: ServerMessage): void {
    switch (message.kind) {
      case 'reply': {
        const pending = this.#pending.get(message.id);
        if (pending) {
          this.#pending.delete(message.id);
          pending.settle(message.reply);
        }
        return;
      }
      case 'frame':
        try {
          for (const listener of [...this.#frameListeners]) {
            listener(message.frame);
          }
        } finally {
          this.send({kind: 'frameAck'});
        }
        return;
      case 'batch':
        try {
          this.#deliver(message.id, message.batch);
        } finally {
          // Acknowledged even if a listener threw: otherwise the stream would stall for good.
          this.send({kind: 'batchAck', id: message.id});
        }
        return;
      case 'show':
        for (const listener of [...this.#showListeners]) {
          listener(message.panel);
        }
    }
  }

  #deliver(id: number, batch: EventBatch): void {
    const stream = this.#streams.get(id);
    if (!stream) {
      return;
    }
    if (batch.streamId !== undefined && batch.streamId !== stream.streamId) {
      // First batch, or the server restarted: its sequence ids start over.
      if (stream.streamId !== undefined) {
        stream.lastSeq = 0;
      }
      stream.streamId = batch.streamId;
    }
    const fresh = batch.events.filter(envelope => envelope.seq > stream.lastSeq);
    const last = fresh.at(-1);
    if (last) {
      stream.lastSeq = last.seq;
    }
    stream.onBatch({...batch, events: fresh});
  }

  #sendSubscribe(id: number, stream: Stream): void {
    this.send({
      kind: 'subscribe',
      id,
      fromSeq: stream.lastSeq > 0 ? stream.lastSeq + 1 : stream.fromSeq,
      ...(stream.streamId === undefined ? {} : {streamId: stream.streamId}),
    });
  }
}

/** A reply that cannot be checked (an error, or no checks at all): only its error passes. */
function errorOnly<K extends InspectorCommandType>(reply: CommandReply): CommandResult<K> {
  return reply.ok
    ? {ok: false, error: 'The inspector could not check the server’s answer. Reload the inspector.'}
    : reply;
}
