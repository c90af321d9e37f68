/**
 * InspectorConnection over the inspector WebSocket (web mode: `npm run serve`, any browser tab).
 * The token rides as a sub-protocol (browsers cannot set headers on a WebSocket). It reconnects by
 * itself with backoff and resubscribes from the last sequence id it delivered, so a restart of the
 * server or a network blip loses nothing still held and repeats nothing. A refused token stops
 * retrying and reports `unauthorized`, because retrying cannot help.
 */
import {
  INSPECTOR_WS_PATH,
  MCP_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
} from '../../../shared/constants.js';
import type {ConnectionStatus, InspectorConnection} from '../../../shared/connection.js';
import type {
  ClientMessage,
  CommandReply,
  EventBatch,
  InspectorCommand,
  LiveFrame,
  ServerMessage,
} from '../../../shared/protocol.js';
import type {Decoder} from './decode.js';
import {isWellFormedToken} from './token.js';

export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface WebSocketConnectionOptions {
  /** http(s) origin of the inspector server, e.g. `http://127.0.0.1:7624`. */
  origin: string;
  token: string | undefined;
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  /** Checks the token over HTTP after a failed upgrade: browsers hide the 401 from a WebSocket. */
  probe?: (url: string, token: string) => Promise<'ok' | 'unauthorized' | 'unreachable'>;
  /**
   * Parses and validates a server message. It may still be loading (the zod checks load alongside
   * the first paint): the socket connects at once and what arrives meanwhile waits, in order, to
   * be checked. No message is ever taken unchecked.
   */
  decode: Decoder | Promise<Decoder>;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

const OPEN = 1;

export const MISSING_TOKEN_MESSAGE =
  'This page needs the inspector token. Open the exact inspector URL the server printed at startup (it ends in #token=…), or use the token from the file named in that line.';
export const MALFORMED_TOKEN_MESSAGE =
  'The token in this address is not a valid inspector token (it must be 16 or more characters from A-Z a-z 0-9 . _ ~ -; "<token>" is only a placeholder). Open the inspector URL with the real token from the file named in the startup line, or the full URL the server printed to its terminal.';
export const WRONG_TOKEN_MESSAGE =
  'The server refused this token (it may have restarted with a new one). Open the inspector URL the server printed at startup (it ends in #token=…), or take the token from the file named in that line.';

async function defaultProbe(
  url: string,
  token: string,
): Promise<'ok' | 'unauthorized' | 'unreachable'> {
  try {
    const response = await fetch(url, {
      headers: {Authorization: `Bearer ${token}`},
      cache: 'no-store',
    });
    return response.status === 401 ? 'unauthorized' : 'ok';
  } catch {
    return 'unreachable';
  }
}

interface PendingCommand {
  resolve: (reply: CommandReply) => void;
  message: string | undefined;
}

export class WebSocketConnection implements InspectorConnection {
  readonly #options: Required<Omit<WebSocketConnectionOptions, 'token' | 'decode'>> & {
    token: string | undefined;
  };
  #decode: Decoder | undefined;
  /** Messages received before the decoder loaded, oldest first. */
  #undecoded: string[] = [];
  #socket: SocketLike | undefined;
  #status: ConnectionStatus = {state: 'connecting'};
  readonly #statusListeners = new Set<(status: ConnectionStatus) => void>();
  readonly #frameListeners = new Set<(frame: LiveFrame) => void>();
  #onBatch: ((batch: EventBatch) => void) | undefined;
  #fromSeq = 0;
  /** Last sequence id delivered to the subscriber, and the stream it belongs to. */
  #lastSeq = 0;
  #streamId: string | undefined;
  #nextCommandId = 1;
  readonly #pending = new Map<number, PendingCommand>();
  #attempt = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: WebSocketConnectionOptions) {
    this.#options = {
      createSocket: (url, protocols) => new WebSocket(url, protocols),
      probe: defaultProbe,
      initialBackoffMs: 250,
      maxBackoffMs: 5_000,
      ...options,
    };
    if (options.token === undefined) {
      this.#setStatus({state: 'unauthorized', message: MISSING_TOKEN_MESSAGE});
      return;
    }
    if (!isWellFormedToken(options.token)) {
      this.#setStatus({state: 'unauthorized', message: MALFORMED_TOKEN_MESSAGE});
      return;
    }
    const decode = options.decode;
    if (typeof decode === 'function') {
      this.#decode = decode;
    } else {
      decode.then(
        loaded => {
          this.#decode = loaded;
          for (const data of this.#undecoded.splice(0)) {
            this.#receive(data);
          }
        },
        (error: unknown) => {
          console.error(
            'The inspector could not load its message checks; reload the page once the server is running.',
            error,
          );
          this.close();
        },
      );
    }
    this.#connect();
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void {
    // One stream per connection: a new subscription replaces the previous one.
    this.#onBatch = onBatch;
    this.#fromSeq = fromSeq;
    this.#lastSeq = Math.max(0, fromSeq - 1);
    this.#sendSubscribe();
    return () => {
      if (this.#onBatch === onBatch) {
        this.#onBatch = undefined;
      }
    };
  }

  command(command: InspectorCommand): Promise<CommandReply> {
    if (this.#closed || this.#status.state === 'unauthorized') {
      return Promise.resolve({ok: false, error: this.#unavailableText()});
    }
    const id = this.#nextCommandId++;
    const message: ClientMessage = {kind: 'command', id, command};
    const text = JSON.stringify(message);
    return new Promise(resolve => {
      const socket = this.#socket;
      if (socket?.readyState === OPEN) {
        this.#pending.set(id, {resolve, message: undefined});
        socket.send(text);
      } else {
        // Sent as soon as the socket opens.
        this.#pending.set(id, {resolve, message: text});
      }
    });
  }

  onFrame(listener: (frame: LiveFrame) => void): () => void {
    this.#frameListeners.add(listener);
    return () => this.#frameListeners.delete(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.#statusListeners.add(listener);
    listener(this.#status);
    return () => this.#statusListeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#socket?.close(1000, 'closed by the inspector');
    this.#socket = undefined;
    this.#undecoded = [];
    this.#failPending(this.#unavailableText());
    this.#setStatus({state: 'closed'});
  }

  #unavailableText(): string {
    return this.#status.state === 'unauthorized'
      ? this.#status.message
      : 'The inspector is not connected to the server. Wait for it to reconnect, then try again.';
  }

  #setStatus(status: ConnectionStatus): void {
    this.#status = status;
    for (const listener of this.#statusListeners) {
      listener(status);
    }
  }

  #connect(): void {
    const token = this.#options.token;
    if (this.#closed || token === undefined) {
      return;
    }
    const wsOrigin = this.#options.origin.replace(/^http/, 'ws');
    let socket: SocketLike;
    try {
      socket = this.#options.createSocket(`${wsOrigin}${INSPECTOR_WS_PATH}`, [
        WS_PROTOCOL,
        `${WS_TOKEN_PROTOCOL_PREFIX}${token}`,
      ]);
    } catch {
      // The browser refuses the sub-protocol (a token it cannot carry): retrying cannot help.
      this.#setStatus({state: 'unauthorized', message: MALFORMED_TOKEN_MESSAGE});
      return;
    }
    this.#socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.#attempt = 0;
      this.#setStatus({state: 'open'});
      this.#sendSubscribe();
      for (const [id, pending] of this.#pending) {
        if (pending.message !== undefined) {
          socket.send(pending.message);
          this.#pending.set(id, {resolve: pending.resolve, message: undefined});
        }
      }
    };
    socket.onmessage = event => {
      this.#receive(event.data);
    };
    socket.onerror = () => {
      // onclose follows and decides what to do.
    };
    socket.onclose = () => {
      if (this.#socket !== socket) {
        return;
      }
      this.#socket = undefined;
      // Commands already sent will not be answered; those still queued wait for the next socket.
      for (const [id, pending] of this.#pending) {
        if (pending.message === undefined) {
          this.#pending.delete(id);
          pending.resolve({
            ok: false,
            error:
              'The connection to the server closed before it answered. Try again once it reconnects.',
          });
        }
      }
      if (this.#closed) {
        return;
      }
      if (opened) {
        this.#scheduleReconnect();
        return;
      }
      void this.#options.probe(`${this.#options.origin}${MCP_PATH}`, token).then(verdict => {
        if (this.#closed) {
          return;
        }
        if (verdict === 'unauthorized') {
          this.#failPending(WRONG_TOKEN_MESSAGE);
          this.#setStatus({state: 'unauthorized', message: WRONG_TOKEN_MESSAGE});
          return;
        }
        this.#scheduleReconnect();
      });
    };
  }

  #scheduleReconnect(): void {
    this.#attempt++;
    this.#setStatus({state: 'reconnecting', attempt: this.#attempt});
    const exponential = this.#options.initialBackoffMs * 2 ** Math.min(this.#attempt - 1, 10);
    const delay = Math.min(this.#options.maxBackoffMs, exponential) * (0.75 + Math.random() / 2);
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.#connect(), delay);
  }

  #failPending(error: string): void {
    for (const pending of this.#pending.values()) {
      pending.resolve({ok: false, error});
    }
    this.#pending.clear();
  }

  #sendSubscribe(): void {
    const socket = this.#socket;
    if (!this.#onBatch || socket?.readyState !== OPEN) {
      return;
    }
    const message: ClientMessage = {
      kind: 'subscribe',
      fromSeq: this.#lastSeq > 0 ? this.#lastSeq + 1 : this.#fromSeq,
      ...(this.#streamId === undefined ? {} : {streamId: this.#streamId}),
    };
    socket.send(JSON.stringify(message));
  }

  #receive(data: unknown): void {
    if (typeof data !== 'string') {
      return;
    }
    if (this.#decode === undefined) {
      this.#undecoded.push(data);
      return;
    }
    const message = this.#decode(data);
    if (message && !this.#closed) {
      this.#handle(message);
    }
  }

  #handle(message: ServerMessage): void {
    switch (message.kind) {
      case 'reply': {
        const pending = this.#pending.get(message.id);
        if (pending) {
          this.#pending.delete(message.id);
          pending.resolve(message.reply);
        }
        return;
      }
      case 'frame':
        for (const listener of this.#frameListeners) {
          listener(message.frame);
        }
        return;
      case 'batch':
        this.#deliver(message.batch);
    }
  }

  #deliver(batch: EventBatch): void {
    if (batch.streamId !== undefined && batch.streamId !== this.#streamId) {
      // First batch, or the server restarted: its sequence ids start over.
      if (this.#streamId !== undefined) {
        this.#lastSeq = 0;
      }
      this.#streamId = batch.streamId;
    }
    const fresh = batch.events.filter(envelope => envelope.seq > this.#lastSeq);
    const last = fresh.at(-1);
    if (last) {
      this.#lastSeq = last.seq;
    }
    this.#onBatch?.({...batch, events: fresh});
  }
}
