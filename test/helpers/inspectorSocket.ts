/**
 * An inspector UI's WebSocket to a server, as the UI opens it (token sub-protocol, same-origin
 * Origin): subscribes to the event stream (unless told not to), checks every message with the
 * wire schema, acknowledges every batch, and sends commands and waits for their replies.
 */
import {WebSocket} from 'ws';
import {WS_PROTOCOL, WS_TOKEN_PROTOCOL_PREFIX} from '../../src/shared/constants.js';
import type {EventEnvelope} from '../../src/shared/protocol.js';
import {serverMessageSchema, type ReplyMessage} from '../../src/shared/wire.js';
import {waitFor} from './engine.js';
import type {McpEndpoint} from './httpClient.js';

export interface InspectorSocket {
  events: EventEnvelope[];
  /** Characters of every message received. */
  receivedChars: number;
  readonly open: boolean;
  /**
   * Sends one command (as given: it may be one the engine refuses) with the next id and resolves
   * with its reply message.
   */
  command(command: Record<string, unknown>, timeoutMs?: number): Promise<ReplyMessage>;
  close(): void;
}

export async function openInspectorSocket(
  server: McpEndpoint,
  options: {subscribe?: boolean} = {},
): Promise<InspectorSocket> {
  const origin = new URL(server.mcpUrl).origin;
  const socket = new WebSocket(
    `${origin.replace(/^http/, 'ws')}/inspector`,
    [WS_PROTOCOL, `${WS_TOKEN_PROTOCOL_PREFIX}${server.token}`],
    {origin},
  );
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const replies = new Map<number, ReplyMessage>();
  let nextCommandId = 1;
  const state: InspectorSocket = {
    events: [],
    receivedChars: 0,
    get open() {
      return socket.readyState === WebSocket.OPEN;
    },
    async command(command, timeoutMs = 10_000) {
      const id = nextCommandId++;
      socket.send(JSON.stringify({kind: 'command', id, command}));
      return waitFor(() => replies.get(id), timeoutMs, `the reply to command ${id}`);
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
    } else if (message.kind === 'reply') {
      replies.set(message.id, message);
    }
  });
  if (options.subscribe !== false) {
    socket.send(JSON.stringify({kind: 'subscribe', id: 1, fromSeq: 0}));
  }
  return state;
}
