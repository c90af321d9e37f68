/**
 * The inspector bridge the preload exposes: a port for the shared wire messages (wire.ts), each
 * sent on the IPC channel named after its kind. ipcRenderer itself never leaves this module, and
 * listeners get payloads only — never the IpcRendererEvent, whose `sender` is ipcRenderer. Main
 * checks what the renderer sends (sender frame + zod); the renderer checks what main sends, with
 * the same checks as the WebSocket's.
 */
import {IPC_CHANNELS, type InspectorBridge} from '../shared/connection.js';
import {errorText, isRecord} from '../shared/values.js';
import type {ReplyMessage} from '../shared/wire.js';

/** The parts of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

/** The channel of a message kind; undefined for anything that is not one (the page may send it). */
function channelOf(kind: unknown): string | undefined {
  for (const [name, channel] of Object.entries(IPC_CHANNELS)) {
    if (name === kind) {
      return channel;
    }
  }
  return undefined;
}

export function createInspectorBridge(ipc: IpcRendererLike): InspectorBridge {
  const listeners = new Set<(message: unknown) => void>();
  const deliver = (message: unknown): void => {
    for (const listener of [...listeners]) {
      listener(message);
    }
  };
  ipc.on(IPC_CHANNELS.batch, (_event, payload) => deliver(payload));
  ipc.on(IPC_CHANNELS.frame, (_event, payload) => deliver(payload));
  ipc.on(IPC_CHANNELS.show, (_event, payload) => deliver(payload));

  // A reload runs this preload again: main drops whatever the previous document asked for.
  ipc.send(IPC_CHANNELS.reset, {kind: 'reset'});

  const bridge: InspectorBridge = {
    send(message: unknown): void {
      const kind: unknown = isRecord(message) ? message.kind : undefined;
      const channel = channelOf(kind);
      if (channel === undefined) {
        return;
      }
      if (kind !== 'command') {
        ipc.send(channel, message);
        return;
      }
      ipc.invoke(channel, message).then(deliver, (error: unknown) => {
        // A refused sender: answer the command anyway, so the UI shows why.
        const id = isRecord(message) && typeof message.id === 'number' ? message.id : -1;
        const reply: ReplyMessage = {
          kind: 'reply',
          id,
          reply: {ok: false, error: errorText(error)},
        };
        deliver(reply);
      });
    },
    onMessage(listener: (message: unknown) => void): () => void {
      // Wrapped so that registering the same function twice still needs two removals.
      const wrapped = (message: unknown): void => listener(message);
      listeners.add(wrapped);
      return () => listeners.delete(wrapped);
    },
  };
  return Object.freeze(bridge);
}
