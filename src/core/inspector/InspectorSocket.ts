/**
 * Bridges one inspector WebSocket to the engine: validates every message against the shared
 * protocol, streams event batches (pausing while the socket's send buffer is full), answers
 * commands, and forwards live-view frames.
 */
import type {WebSocket} from 'ws';
import {
  clientMessageSchema,
  type CommandReply,
  type InspectorCommand,
  type LiveFrame,
  type ServerMessage,
} from '../../shared/protocol.js';
import type {InspectorHub, Subscription} from './InspectorHub.js';

/** Above this many buffered bytes the socket stops receiving batches until it drains. */
const HIGH_WATER_BYTES = 8 * 1024 * 1024;

export interface InspectorEndpoint {
  hub: InspectorHub;
  handleCommand: (command: InspectorCommand) => Promise<CommandReply>;
  /** Registers a live-frame listener for this connection; returns the unsubscribe function. */
  onFrame: (listener: (frame: LiveFrame) => void) => () => void;
}

export function attachInspectorSocket(socket: WebSocket, endpoint: InspectorEndpoint): void {
  let subscription: Subscription | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  const send = (message: ServerMessage): void => {
    if (socket.readyState === socket.OPEN) {
      socket.send(JSON.stringify(message));
    }
  };
  const waitForDrain = (): void => {
    if (drainTimer) {
      return;
    }
    drainTimer = setInterval(() => {
      if (socket.bufferedAmount < HIGH_WATER_BYTES / 2) {
        clearInterval(drainTimer);
        drainTimer = undefined;
        subscription?.resume();
      }
    }, 20);
  };
  const stopFrames = endpoint.onFrame(frame => {
    // Frames are disposable: skip them rather than queue when the socket is busy.
    if (socket.bufferedAmount < HIGH_WATER_BYTES / 4) {
      send({kind: 'frame', frame});
    }
  });

  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      socket.close(1003, 'Binary messages are not supported');
      return;
    }
    let json: unknown;
    try {
      const buffer = Buffer.isBuffer(data)
        ? data
        : Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data);
      json = JSON.parse(buffer.toString('utf8'));
    } catch {
      socket.close(1007, 'Invalid JSON');
      return;
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id =
        typeof json === 'object' && json !== null && 'id' in json && typeof json.id === 'number'
          ? json.id
          : undefined;
      if (id !== undefined) {
        send({
          kind: 'reply',
          id,
          reply: {
            ok: false,
            error: `Invalid command: ${parsed.error.issues.map(issue => issue.message).join('; ')}`,
          },
        });
      } else {
        socket.close(1008, 'Invalid message');
      }
      return;
    }
    const message = parsed.data;
    if (message.kind === 'subscribe') {
      subscription?.close();
      subscription = endpoint.hub.subscribe(
        message.fromSeq,
        batch => {
          send({kind: 'batch', batch});
          if (socket.bufferedAmount > HIGH_WATER_BYTES) {
            waitForDrain();
            return false;
          }
          return true;
        },
        message.streamId,
      );
      return;
    }
    void endpoint
      .handleCommand(message.command)
      .then(reply => send({kind: 'reply', id: message.id, reply}));
  });

  socket.on('close', () => {
    subscription?.close();
    clearInterval(drainTimer);
    stopFrames();
  });
  socket.on('error', () => socket.terminate());
}
