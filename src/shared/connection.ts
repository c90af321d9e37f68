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
