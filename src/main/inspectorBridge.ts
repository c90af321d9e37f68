/**
 * The IPC side of the inspector: the same service the WebSocket gives a browser tab, over the
 * validated ingress. Every IPC payload is one message of the shared wire (src/shared/wire.ts) on
 * the channel named after its kind; each renderer gets one InspectorPeer, so streams, flow
 * control (acknowledged batches, latest-wins frames) and limits are exactly the WebSocket's.
 */
import {IPC_CHANNELS} from '../shared/connection.js';
import {isRecord} from '../shared/values.js';
import {
  batchAckMessageSchema,
  commandMessageSchema,
  frameAckMessageSchema,
  framesMessageSchema,
  resetMessageSchema,
  subscribeMessageSchema,
  unsubscribeMessageSchema,
  type BatchMessage,
  type FrameMessage,
  type ReplyMessage,
  type StreamMessage,
} from '../shared/wire.js';
import {
  InspectorPeer,
  type InspectorEndpoint as PeerEndpoint,
} from '../core/inspector/InspectorPeer.js';
import type {IpcIngress, IpcSender} from './ipcIngress.js';

/** What the bridge needs from the engine (Engine satisfies it through engineEndpoint.ts). */
export interface InspectorEndpoint extends PeerEndpoint {
  /** A renderer went away or reloaded: stop what only it was watching (the live view). */
  rendererGone?(): void;
}

export interface InspectorBridgeHandle {
  /** Open subscriptions, per renderer id (for tests and diagnostics). */
  subscriptionCount(senderId: number): number;
  dispose(): void;
}

const STREAM_CHANNELS = [
  [IPC_CHANNELS.subscribe, subscribeMessageSchema],
  [IPC_CHANNELS.unsubscribe, unsubscribeMessageSchema],
  [IPC_CHANNELS.batchAck, batchAckMessageSchema],
  [IPC_CHANNELS.frames, framesMessageSchema],
  [IPC_CHANNELS.frameAck, frameAckMessageSchema],
  [IPC_CHANNELS.reset, resetMessageSchema],
] as const;

/** Carries a peer's messages to its renderer; a destroyed renderer releases what it held. */
function sendTo(
  sender: IpcSender,
  release: (senderId: number) => void,
): (message: BatchMessage | FrameMessage) => boolean {
  return message => {
    if (sender.isDestroyed()) {
      release(sender.id);
      return false;
    }
    sender.send(IPC_CHANNELS[message.kind], message);
    return true;
  };
}

export function registerInspectorBridge(
  ingress: IpcIngress,
  endpoint: InspectorEndpoint,
  log: (line: string) => void,
): InspectorBridgeHandle {
  const peers = new Map<number, InspectorPeer>();
  /** Renderers with a 'destroyed' listener already: a reload must not add another one. */
  const watched = new Set<number>();

  const release = (senderId: number): void => {
    const peer = peers.get(senderId);
    if (!peer) {
      return;
    }
    peers.delete(senderId);
    peer.release();
    endpoint.rendererGone?.();
  };

  const peerFor = (sender: IpcSender): InspectorPeer => {
    let peer = peers.get(sender.id);
    if (!peer) {
      peer = new InspectorPeer({endpoint, log, send: sendTo(sender, release)});
      peers.set(sender.id, peer);
      if (!watched.has(sender.id)) {
        watched.add(sender.id);
        sender.once('destroyed', () => {
          watched.delete(sender.id);
          release(sender.id);
        });
      }
    }
    return peer;
  };

  ingress.handle(
    IPC_CHANNELS.command,
    commandMessageSchema,
    (message, sender) => peerFor(sender).command(message),
    (error, payload): ReplyMessage => ({
      kind: 'reply',
      id: isRecord(payload) && typeof payload.id === 'number' ? payload.id : -1,
      reply: {ok: false, error},
    }),
  );
  for (const [channel, schema] of STREAM_CHANNELS) {
    ingress.on(channel, schema, (message: StreamMessage, sender) => {
      if (message.kind === 'reset') {
        // A new document: whatever the previous one asked for goes, and it starts afresh.
        release(sender.id);
        return;
      }
      // Only a subscription or asking for frames starts something; the rest acts on what exists.
      const starts = message.kind === 'subscribe' || (message.kind === 'frames' && message.enabled);
      (starts ? peerFor(sender) : peers.get(sender.id))?.receive(message);
    });
  }

  return {
    subscriptionCount(senderId) {
      return peers.get(senderId)?.subscriptionCount ?? 0;
    },
    dispose() {
      for (const senderId of [...peers.keys()]) {
        release(senderId);
      }
      ingress.dispose();
    },
  };
}
