/**
 * The IPC side of the inspector: the same service the WebSocket gives a browser tab (commands,
 * event batches from the hub, live frames), over the validated ingress. Batches come from the
 * hub's own batching (never one message per event); the renderer acknowledges each one and main
 * keeps at most a few in flight per subscription, so a busy renderer slows the stream instead of
 * growing a queue. Live frames are latest-wins: one in flight, newer ones replace the pending one.
 */
import {IPC_CHANNELS} from '../shared/connection.js';
import {
  inspectorCommandSchema,
  ipcEmptySchema,
  ipcFramesSchema,
  ipcSubscribeSchema,
  ipcSubscriptionRefSchema,
  type CommandReply,
  type EventBatch,
  type InspectorCommand,
  type LiveFrame,
} from '../shared/protocol.js';
import type {IpcIngress, IpcSender} from './ipcIngress.js';

export const MAX_BATCHES_IN_FLIGHT = 4;
export const MAX_SUBSCRIPTIONS_PER_RENDERER = 8;

/** What the bridge needs from the engine (Engine satisfies it through a small adapter). */
export interface InspectorEndpoint {
  subscribe(
    fromSeq: number,
    listener: (batch: EventBatch) => boolean,
  ): {resume(): void; close(): void};
  handleCommand(command: InspectorCommand): Promise<CommandReply>;
  onFrame(listener: (frame: LiveFrame) => void): () => void;
  /** A renderer went away or reloaded: stop what only it was watching (the live view). */
  rendererGone?(): void;
}

interface StreamState {
  subscription: {resume(): void; close(): void} | undefined;
  inFlight: number;
  paused: boolean;
}

interface RendererState {
  sender: IpcSender;
  streams: Map<number, StreamState>;
  stopFrames: (() => void) | undefined;
  frameInFlight: boolean;
  pendingFrame: LiveFrame | undefined;
}

export interface InspectorBridgeHandle {
  /** Open subscriptions, per renderer id (for tests and diagnostics). */
  subscriptionCount(senderId: number): number;
  dispose(): void;
}

export function registerInspectorBridge(
  ingress: IpcIngress,
  endpoint: InspectorEndpoint,
  log: (line: string) => void,
): InspectorBridgeHandle {
  const renderers = new Map<number, RendererState>();
  /** Renderers with a 'destroyed' listener already: a reload must not add another one. */
  const watched = new Set<number>();

  const rendererFor = (sender: IpcSender): RendererState => {
    let state = renderers.get(sender.id);
    if (!state) {
      state = {
        sender,
        streams: new Map(),
        stopFrames: undefined,
        frameInFlight: false,
        pendingFrame: undefined,
      };
      renderers.set(sender.id, state);
      if (!watched.has(sender.id)) {
        watched.add(sender.id);
        sender.once('destroyed', () => {
          watched.delete(sender.id);
          release(sender.id);
        });
      }
    }
    return state;
  };

  const closeStream = (state: RendererState, id: number): void => {
    const stream = state.streams.get(id);
    stream?.subscription?.close();
    state.streams.delete(id);
  };

  const stopFrames = (state: RendererState): void => {
    state.stopFrames?.();
    state.stopFrames = undefined;
    state.frameInFlight = false;
    state.pendingFrame = undefined;
  };

  const release = (senderId: number): void => {
    const state = renderers.get(senderId);
    if (!state) {
      return;
    }
    for (const id of [...state.streams.keys()]) {
      closeStream(state, id);
    }
    stopFrames(state);
    renderers.delete(senderId);
    endpoint.rendererGone?.();
  };

  /** Sends unless the renderer is gone; a gone renderer releases everything it held. */
  const deliver = (state: RendererState, channel: string, payload: unknown): boolean => {
    if (state.sender.isDestroyed()) {
      release(state.sender.id);
      return false;
    }
    state.sender.send(channel, payload);
    return true;
  };

  ingress.handle(
    IPC_CHANNELS.command,
    inspectorCommandSchema,
    command => endpoint.handleCommand(command),
    (message): CommandReply => ({ok: false, error: message}),
  );

  ingress.on(IPC_CHANNELS.subscribe, ipcSubscribeSchema, ({id, fromSeq}, sender) => {
    const state = rendererFor(sender);
    closeStream(state, id);
    if (state.streams.size >= MAX_SUBSCRIPTIONS_PER_RENDERER) {
      const oldest = state.streams.keys().next();
      if (!oldest.done) {
        log(
          `The inspector window opened more than ${MAX_SUBSCRIPTIONS_PER_RENDERER} event streams; closing the oldest.`,
        );
        closeStream(state, oldest.value);
      }
    }
    const stream: StreamState = {subscription: undefined, inFlight: 0, paused: false};
    state.streams.set(id, stream);
    stream.subscription = endpoint.subscribe(fromSeq, batch => {
      if (state.streams.get(id) !== stream || !deliver(state, IPC_CHANNELS.batch, {id, batch})) {
        return false;
      }
      stream.inFlight++;
      if (stream.inFlight >= MAX_BATCHES_IN_FLIGHT) {
        stream.paused = true;
        return false;
      }
      return true;
    });
  });

  ingress.on(IPC_CHANNELS.batchAck, ipcSubscriptionRefSchema, ({id}, sender) => {
    const stream = renderers.get(sender.id)?.streams.get(id);
    if (!stream) {
      return;
    }
    stream.inFlight = Math.max(0, stream.inFlight - 1);
    if (stream.paused && stream.inFlight < MAX_BATCHES_IN_FLIGHT) {
      stream.paused = false;
      stream.subscription?.resume();
    }
  });

  ingress.on(IPC_CHANNELS.unsubscribe, ipcSubscriptionRefSchema, ({id}, sender) => {
    const state = renderers.get(sender.id);
    if (state) {
      closeStream(state, id);
    }
  });

  ingress.on(IPC_CHANNELS.frames, ipcFramesSchema, ({enabled}, sender) => {
    const state = rendererFor(sender);
    if (!enabled) {
      stopFrames(state);
      return;
    }
    if (state.stopFrames) {
      return;
    }
    state.stopFrames = endpoint.onFrame(frame => {
      if (state.frameInFlight) {
        state.pendingFrame = frame;
        return;
      }
      state.frameInFlight = deliver(state, IPC_CHANNELS.frame, frame);
    });
  });

  ingress.on(IPC_CHANNELS.frameAck, ipcEmptySchema, (_payload, sender) => {
    const state = renderers.get(sender.id);
    if (!state) {
      return;
    }
    const next = state.pendingFrame;
    state.pendingFrame = undefined;
    state.frameInFlight = next === undefined ? false : deliver(state, IPC_CHANNELS.frame, next);
  });

  ingress.on(IPC_CHANNELS.reset, ipcEmptySchema, (_payload, sender) => release(sender.id));

  return {
    subscriptionCount(senderId) {
      return renderers.get(senderId)?.streams.size ?? 0;
    },
    dispose() {
      for (const senderId of [...renderers.keys()]) {
        release(senderId);
      }
      ingress.dispose();
    },
  };
}
