/**
 * InspectorConnection over the inspector WebSocket (web mode: `npm run serve`, any browser tab).
 * The token rides as a sub-protocol (browsers cannot set headers on a WebSocket). It reconnects by
 * itself with backoff and resubscribes from the last sequence id it delivered, so a restart of the
 * server or a network blip loses nothing still held and repeats nothing. A refused token stops
 * retrying and reports `unauthorized`, because retrying cannot help. The messages themselves are
 * the ProtocolClient's, as over IPC.
 */
import {
  INSPECTOR_WS_PATH,
  MCP_PATH,
  WS_PROTOCOL,
  WS_TOKEN_PROTOCOL_PREFIX,
} from '../../../shared/constants.js';
import type {ClientMessage} from '../../../shared/wire.js';
import type {ProtocolChecks} from './ProtocolClient.js';
import {ProtocolConnection} from './ProtocolConnection.js';
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
   * The checks of what the server sends. They may still be loading (they load alongside the first
   * paint): the socket connects at once and what arrives meanwhile waits, in order, to be checked.
   * No message is ever taken unchecked.
   */
  checks: ProtocolChecks | Promise<ProtocolChecks>;
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
const NOT_CONNECTED_MESSAGE =
  'The inspector is not connected to the server. Wait for it to reconnect, then try again.';
const CLOSED_BEFORE_ANSWER_MESSAGE =
  'The connection to the server closed before it answered. Try again once it reconnects.';

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

/** A server message as JSON, or undefined for anything else (the checks say what fits). */
function parseJson(data: unknown): unknown {
  if (typeof data !== 'string') {
    return undefined;
  }
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

export class WebSocketConnection extends ProtocolConnection {
  readonly #options: Required<Omit<WebSocketConnectionOptions, 'token' | 'checks'>> & {
    token: string | undefined;
  };
  #socket: SocketLike | undefined;
  #attempt = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: WebSocketConnectionOptions) {
    super(
      {state: 'connecting'},
      message => this.#send(message),
      options.checks,
      'The inspector could not load its message checks; reload the page once the server is running.',
    );
    this.#options = {
      createSocket: (url, protocols) => new WebSocket(url, protocols),
      probe: defaultProbe,
      initialBackoffMs: 250,
      maxBackoffMs: 5_000,
      ...options,
    };
    if (options.token === undefined) {
      this.setStatus({state: 'unauthorized', message: MISSING_TOKEN_MESSAGE});
      return;
    }
    if (!isWellFormedToken(options.token)) {
      this.setStatus({state: 'unauthorized', message: MALFORMED_TOKEN_MESSAGE});
      return;
    }
    this.#connect();
  }

  protected unavailable(): string | undefined {
    const status = this.status;
    if (status.state === 'unauthorized') {
      return status.message;
    }
    return this.#closed ? NOT_CONNECTED_MESSAGE : undefined;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#socket?.close(1000, 'closed by the inspector');
    this.#socket = undefined;
    this.client.close(this.unavailable() ?? NOT_CONNECTED_MESSAGE);
    this.setStatus({state: 'closed'});
  }

  #send(message: ClientMessage): boolean {
    const socket = this.#socket;
    if (socket?.readyState !== OPEN) {
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
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
      this.setStatus({state: 'unauthorized', message: MALFORMED_TOKEN_MESSAGE});
      return;
    }
    this.#socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.#attempt = 0;
      this.setStatus({state: 'open'});
      this.client.opened();
    };
    socket.onmessage = event => {
      if (!this.#closed) {
        this.client.receive(parseJson(event.data));
      }
    };
    socket.onerror = () => {
      // onclose follows and decides what to do.
    };
    socket.onclose = () => {
      if (this.#socket !== socket) {
        return;
      }
      this.#socket = undefined;
      this.client.dropped(CLOSED_BEFORE_ANSWER_MESSAGE);
      if (this.#closed) {
        return;
      }
      if (opened) {
        this.#scheduleReconnect();
      } else {
        this.#probeToken(token);
      }
    };
  }

  /** The upgrade failed before opening: a refused token stops here, anything else retries. */
  #probeToken(token: string): void {
    void this.#options.probe(`${this.#options.origin}${MCP_PATH}`, token).then(verdict => {
      if (this.#closed) {
        return;
      }
      if (verdict === 'unauthorized') {
        this.setStatus({state: 'unauthorized', message: WRONG_TOKEN_MESSAGE});
        this.client.close(WRONG_TOKEN_MESSAGE);
        return;
      }
      this.#scheduleReconnect();
    });
  }

  #scheduleReconnect(): void {
    this.#attempt++;
    this.setStatus({state: 'reconnecting', attempt: this.#attempt});
    const exponential = this.#options.initialBackoffMs * 2 ** Math.min(this.#attempt - 1, 10);
    const delay = Math.min(this.#options.maxBackoffMs, exponential) * (0.75 + Math.random() / 2);
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.#connect(), delay);
  }
}
