/**
 * The one interface the UI talks to. The web build implements it over the inspector WebSocket,
 * the desktop build over the preload bridge (IPC); panels never know which.
 */
import type {CommandReply, EventBatch, InspectorCommand, LiveFrame} from './protocol.js';

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
  command(command: InspectorCommand): Promise<CommandReply>;
  onFrame(listener: (frame: LiveFrame) => void): () => void;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  close(): void;
}

/**
 * What the desktop preload exposes on `window.inspectorBridge`: named methods only, payloads only
 * (never an IpcRendererEvent, never ipcRenderer itself).
 */
export interface InspectorBridge {
  command(command: InspectorCommand): Promise<CommandReply>;
  subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void;
  onFrame(listener: (frame: LiveFrame) => void): () => void;
}

/**
 * IPC channels between the desktop preload and the main process. Requests go renderer → main and
 * are validated there (sender frame + zod, see the `ipc…Schema`s in protocol.ts); `batch` and
 * `frame` go main → renderer. The renderer acknowledges each batch and frame so main never queues
 * more than a few of either.
 */
export const IPC_CHANNELS = {
  /** invoke(InspectorCommand) → CommandReply */
  command: 'inspector:command',
  /** send({id, fromSeq}): start streaming event batches for subscription `id`. */
  subscribe: 'inspector:subscribe',
  /** send({id}) */
  unsubscribe: 'inspector:unsubscribe',
  /** send({id}): the renderer has handled one batch of subscription `id`. */
  batchAck: 'inspector:batch-ack',
  /** send({enabled}): whether this renderer wants live-view frames. */
  frames: 'inspector:frames',
  /** send({}): the renderer has drawn the last frame; main may send the next one. */
  frameAck: 'inspector:frame-ack',
  /** send({}): a new document loaded the preload; drop whatever the previous one subscribed to. */
  reset: 'inspector:reset',
  /** main → renderer: {id, batch: EventBatch} */
  batch: 'inspector:batch',
  /** main → renderer: LiveFrame */
  frame: 'inspector:frame',
} as const;
