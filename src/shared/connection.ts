/**
 * The one interface the UI talks to. The web build implements it over the inspector WebSocket,
 * the desktop build over the preload bridge (IPC); panels never know which. Both carry the same
 * messages (wire.ts).
 */
import type {EventBatch, InspectorCommand, LiveFrame} from './protocol.js';
import type {CommandResult} from './replies.js';
import type {ClientMessage, ServerMessage, ShowMessage} from './wire.js';

export type ConnectionStatus =
  | {state: 'connecting'}
  | {state: 'open'}
  | {state: 'reconnecting'; attempt: number}
  /** The token was refused: the user needs the right URL (web) — retrying will not help. */
  | {state: 'unauthorized'; message: string}
  | {state: 'closed'};

export interface InspectorConnection {
  /**
   * Streams events from `fromSeq` on, in order, in batches. After a reconnect the connection
   * resubscribes from the last sequence id it delivered, so nothing is lost or repeated.
   */
  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void;
  /** Sends a command; the reply is checked against the command's reply schema (replies.ts). */
  command<C extends InspectorCommand>(command: C): Promise<CommandResult<C['type']>>;
  onFrame(listener: (frame: LiveFrame) => void): () => void;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /** The desktop shell asks to show a panel: the person clicked its notification of a held call. */
  onShow(listener: (panel: ShowMessage['panel']) => void): () => void;
  close(): void;
}

/**
 * What the desktop preload exposes on `window.inspectorBridge`: a port for the wire messages,
 * with named methods only and payloads only (never an IpcRendererEvent, never ipcRenderer itself).
 */
export interface InspectorBridge {
  /** Sends one message to main; a command's reply comes back through `onMessage`. */
  send(message: ClientMessage): void;
  /** Messages from main, unchecked: the receiver checks them like the WebSocket's. */
  onMessage(listener: (message: unknown) => void): () => void;
}

/**
 * IPC channels between the desktop preload and the main process, one per message kind: the payload
 * is the message itself. Requests go renderer → main and are validated there (sender frame + the
 * kind's zod schema); `batch`, `frame` and `show` go main → renderer. A command goes through invoke and
 * answers with its reply message.
 */
export const IPC_CHANNELS = {
  command: 'inspector:command',
  subscribe: 'inspector:subscribe',
  unsubscribe: 'inspector:unsubscribe',
  batchAck: 'inspector:batch-ack',
  frames: 'inspector:frames',
  frameAck: 'inspector:frame-ack',
  reset: 'inspector:reset',
  batch: 'inspector:batch',
  frame: 'inspector:frame',
  show: 'inspector:show',
} as const satisfies Record<
  ClientMessage['kind'] | Exclude<ServerMessage['kind'], 'reply'>,
  `inspector:${string}`
>;
