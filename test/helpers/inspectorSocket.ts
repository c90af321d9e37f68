/**
 * An inspector UI's WebSocket to a test engine, as the UI opens it (token sub-protocol,
 * same-origin Origin): subscribes to the event stream, checks every message with the wire schema
 * and acknowledges every batch.
 */
import {WebSocket} from 'ws';
import {WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX} from '../../src/shared/constants.js';
import type {EventEnvelope} from '../../src/shared/protocol.js';
import {serverMessageSchema} from '../../src/shared/wire.js';
import type {TestEngine} from './engine.js';

export interface InspectorSocket {
  events: EventEnvelope[];
  /** Characters of every message received. */
  receivedChars: number;
  readonly open: boolean;
  close(): void;
}

export async function openInspectorSocket(engine: TestEngine): Promise<InspectorSocket> {
  const origin = new URL(engine.mcpUrl).origin;
  const socket = new WebSocket(
    `${origin.replace(/^http/, 'ws')}/inspector`,
    [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${engine.token}`],
    {origin},
  );
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const state: InspectorSocket = {
    events: [],
    receivedChars: 0,
    get open() {
      return socket.readyState === WebSocket.OPEN;
    },
    close: () => socket.close(),
  };
  socket.on('message', data => {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : '';
    state.receivedChars += text.length;
    const message = serverMessageSchema.parse(JSON.parse(text));
    if (message.kind === 'batch') {
      state.events.push(...message.batch.events);
      socket.send(JSON.stringify({kind: 'batchAck', id: message.id}));
    }
  });
  socket.send(JSON.stringify({kind: 'subscribe', id: 1, fromSeq: 0}));
  return state;
}
