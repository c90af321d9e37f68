/**
 * The inspector bridge the preload exposes: named methods built from the shared contract
 * (InspectorBridge), each mapped to one IPC channel. ipcRenderer itself never leaves this module,
 * and listeners get payloads only — never the IpcRendererEvent, whose `sender` is ipcRenderer.
 * Main is the trusted side, so its payloads are only shape-checked here (main validates the
 * renderer's, with zod).
 */
import {IPC_CHANNELS, type InspectorBridge} from '../shared/connection.js';
import type {CommandReply, EventBatch, InspectorCommand, LiveFrame} from '../shared/protocol.js';

/** The parts of Electron's ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isEventBatch(value: unknown): value is EventBatch {
  return (
    isRecord(value) &&
    Array.isArray(value.events) &&
    typeof value.dropped === 'number' &&
    typeof value.nextSeq === 'number'
  );
}

function isLiveFrame(value: unknown): value is LiveFrame {
  return (
    isRecord(value) &&
    typeof value.pageId === 'number' &&
    typeof value.mimeType === 'string' &&
    typeof value.data === 'string'
  );
}

function isCommandReply(value: unknown): value is CommandReply {
  return (
    isRecord(value) &&
    ((value.ok === true && 'value' in value) ||
      (value.ok === false && typeof value.error === 'string'))
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createInspectorBridge(ipc: IpcRendererLike): InspectorBridge {
  const batchListeners = new Map<number, (batch: EventBatch) => void>();
  const frameListeners = new Set<(frame: LiveFrame) => void>();
  let nextSubscriptionId = 1;

  ipc.on(IPC_CHANNELS.batch, (_event, payload) => {
    if (!isRecord(payload) || typeof payload.id !== 'number' || !isEventBatch(payload.batch)) {
      return;
    }
    const listener = batchListeners.get(payload.id);
    if (!listener) {
      return;
    }
    try {
      listener(payload.batch);
    } finally {
      // Acknowledged even if the UI's listener threw: otherwise the stream would stall for good.
      ipc.send(IPC_CHANNELS.batchAck, {id: payload.id});
    }
  });

  ipc.on(IPC_CHANNELS.frame, (_event, payload) => {
    if (!isLiveFrame(payload)) {
      return;
    }
    try {
      for (const listener of frameListeners) {
        listener(payload);
      }
    } finally {
      ipc.send(IPC_CHANNELS.frameAck, {});
    }
  });

  // A reload runs this preload again: main drops whatever the previous document subscribed to.
  ipc.send(IPC_CHANNELS.reset, {});

  const bridge: InspectorBridge = {
    async command(command: InspectorCommand): Promise<CommandReply> {
      try {
        const reply = await ipc.invoke(IPC_CHANNELS.command, command);
        return isCommandReply(reply)
          ? reply
          : {ok: false, error: 'The app returned a malformed reply.'};
      } catch (error) {
        return {ok: false, error: errorText(error)};
      }
    },
    subscribe(fromSeq: number, onBatch: (batch: EventBatch) => void): () => void {
      const id = nextSubscriptionId++;
      batchListeners.set(id, onBatch);
      ipc.send(IPC_CHANNELS.subscribe, {id, fromSeq});
      return () => {
        if (batchListeners.delete(id)) {
          ipc.send(IPC_CHANNELS.unsubscribe, {id});
        }
      };
    },
    onFrame(listener: (frame: LiveFrame) => void): () => void {
      // Wrapped so that registering the same function twice still needs two removals.
      const wrapped = (frame: LiveFrame): void => listener(frame);
      frameListeners.add(wrapped);
      if (frameListeners.size === 1) {
        ipc.send(IPC_CHANNELS.frames, {enabled: true});
      }
      return () => {
        if (frameListeners.delete(wrapped) && frameListeners.size === 0) {
          ipc.send(IPC_CHANNELS.frames, {enabled: false});
        }
      };
    },
  };
  return Object.freeze(bridge);
}
