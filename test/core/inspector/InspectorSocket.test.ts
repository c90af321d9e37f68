import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {WebSocket, WebSocketServer} from 'ws';
import {InspectorHub} from '../../../src/core/inspector/InspectorHub.js';
import {attachInspectorSocket} from '../../../src/core/inspector/InspectorSocket.js';
import type {InspectorCommand, LiveFrame} from '../../../src/shared/protocol.js';
import {
  type ClientMessage,
  type ServerMessage,
  serverMessageSchema,
  STREAM_LIMITS,
} from '../../../src/shared/wire.js';
import {waitFor} from '../../helpers/engine.js';
import {publishAndSettle} from '../../helpers/hubLatch.js';

let server: WebSocketServer;
let url: string;
const hub = new InspectorHub({batchIntervalMs: 5});
const commands: InspectorCommand[] = [];
const frameListeners = new Set<(frame: LiveFrame) => void>();
const logs: string[] = [];

beforeAll(async () => {
  server = new WebSocketServer({port: 0, host: '127.0.0.1'});
  await new Promise(resolve => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('connection', socket =>
    attachInspectorSocket(
      socket,
      {
        subscribe: (fromSeq, listener, streamId) => hub.subscribe(fromSeq, listener, streamId),
        handleCommand: command => {
          commands.push(command);
          return Promise.resolve({ok: true, value: {token: command.type}});
        },
        onFrame: listener => {
          frameListeners.add(listener);
          return () => frameListeners.delete(listener);
        },
      },
      line => logs.push(line),
    ),
  );
});

afterAll(async () => {
  await new Promise(resolve => server.close(resolve));
});

async function open(): Promise<{
  socket: WebSocket;
  send: (message: ClientMessage) => void;
  messages: ServerMessage[];
  closed: Promise<{code: number; reason: string}>;
}> {
  const socket = new WebSocket(url);
  const messages: ServerMessage[] = [];
  socket.on('message', data => {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : '';
    messages.push(serverMessageSchema.parse(JSON.parse(text)));
  });
  const closed = new Promise<{code: number; reason: string}>(resolve =>
    socket.on('close', (code, reason) => resolve({code, reason: String(reason)})),
  );
  await new Promise(resolve => socket.once('open', resolve));
  return {socket, send: message => socket.send(JSON.stringify(message)), messages, closed};
}

const batchesOf = (messages: ServerMessage[], id: number) =>
  messages.flatMap(message => (message.kind === 'batch' && message.id === id ? [message] : []));

describe('InspectorSocket', () => {
  it('streams batches from the requested sequence id, with the stream id', async () => {
    hub.publish({type: 'clientDisconnected', clientId: 'a'});
    hub.publish({type: 'clientDisconnected', clientId: 'b'});
    const {socket, send, messages} = await open();
    send({kind: 'subscribe', id: 1, fromSeq: 2});
    const batch = await waitFor(() =>
      batchesOf(messages, 1).find(message => message.batch.events.length > 0),
    );
    expect(batch.batch.events.map(event => event.seq)).toEqual([2]);
    expect(batch.batch.streamId).toBe(hub.streamId);
    socket.close();
  });

  it('keeps at most a few batches in flight until they are acknowledged, as over IPC', async () => {
    const {socket, send, messages} = await open();
    send({kind: 'subscribe', id: 3, fromSeq: hub.nextSeq});
    await waitFor(() => batchesOf(messages, 3).length === 1, 5_000, 'the first (empty) batch');
    for (let batch = 1; batch < STREAM_LIMITS.batchesInFlight; batch++) {
      hub.publish({type: 'clientDisconnected', clientId: `flow-${batch}`});
      // One batch per event: wait for it before publishing the next, until the stream pauses.
      await waitFor(() => batchesOf(messages, 3).length === batch + 1, 5_000, 'a batch');
    }
    await publishAndSettle(hub, 2);
    // Anything the server sent before this reply arrives before it (one ordered socket).
    send({kind: 'command', id: 30, command: {type: 'getToken'}});
    await waitFor(() => messages.some(message => message.kind === 'reply' && message.id === 30));
    expect(batchesOf(messages, 3)).toHaveLength(STREAM_LIMITS.batchesInFlight);
    send({kind: 'batchAck', id: 3});
    await waitFor(
      () => batchesOf(messages, 3).length === STREAM_LIMITS.batchesInFlight + 1,
      5_000,
      'the stream to resume',
    );
    const seqs = batchesOf(messages, 3).flatMap(message => message.batch.events.map(e => e.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    socket.close();
  });

  it(`caps a connection at ${STREAM_LIMITS.subscriptions} streams, closing the oldest`, async () => {
    const {socket, send, messages} = await open();
    for (let id = 1; id <= STREAM_LIMITS.subscriptions + 1; id++) {
      send({kind: 'subscribe', id, fromSeq: hub.nextSeq});
    }
    await waitFor(() => batchesOf(messages, STREAM_LIMITS.subscriptions + 1).length > 0);
    expect(logs.some(line => line.includes('closing the oldest'))).toBe(true);
    socket.close();
  });

  it('answers a valid command with its id', async () => {
    const {socket, send, messages} = await open();
    send({kind: 'command', id: 7, command: {type: 'getState'}});
    const reply = await waitFor(() => messages.find(message => message.kind === 'reply'));
    expect(reply).toEqual({kind: 'reply', id: 7, reply: {ok: true, value: {token: 'getState'}}});
    expect(commands.at(-1)).toEqual({type: 'getState'});
    socket.close();
  });

  it('rejects a command that does not match the protocol, without running it', async () => {
    const before = commands.length;
    const {socket, messages} = await open();
    socket.send(
      JSON.stringify({
        kind: 'command',
        id: 8,
        command: {type: 'setCategoryEnabled', category: 'noSuchCategory', enabled: true},
      }),
    );
    socket.send(JSON.stringify({kind: 'command', id: 9, command: {type: 'formatDisk'}}));
    await waitFor(() => messages.filter(message => message.kind === 'reply').length === 2);
    const errors = messages.flatMap(message =>
      message.kind === 'reply' && !message.reply.ok ? [message.reply.error] : [],
    );
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error).toMatch(/^Invalid command/);
    }
    expect(commands.length).toBe(before);
    socket.close();
  });

  it('closes on a message that is not JSON (1007), not a protocol message (1008), or binary (1003)', async () => {
    const notJson = await open();
    notJson.socket.send('{not json');
    expect((await notJson.closed).code).toBe(1007);

    const unknown = await open();
    unknown.socket.send(JSON.stringify({kind: 'hello'}));
    expect((await unknown.closed).code).toBe(1008);

    // The shape before the shared envelope (no stream id) is not a protocol message either.
    const old = await open();
    old.socket.send(JSON.stringify({kind: 'subscribe', fromSeq: 0}));
    expect((await old.closed).code).toBe(1008);

    const binary = await open();
    binary.socket.send(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(1003);
  });

  it('forwards live-view frames once asked, one in flight, and stops when the socket closes', async () => {
    const count = frameListeners.size;
    const {socket, send, messages, closed} = await open();
    send({kind: 'frames', enabled: true});
    await waitFor(() => frameListeners.size === count + 1);
    const liveFrame = (data: string): LiveFrame => ({pageId: 1, mimeType: 'image/jpeg', data});
    for (const listener of frameListeners) {
      listener(liveFrame('A'));
      listener(liveFrame('B'));
      listener(liveFrame('C'));
    }
    const frames = () => messages.flatMap(message => (message.kind === 'frame' ? [message] : []));
    await waitFor(() => frames().length === 1);
    expect(frames()[0]).toEqual({kind: 'frame', frame: liveFrame('A')});
    send({kind: 'frameAck'});
    await waitFor(() => frames().length === 2);
    // The newest waiting frame, not the one it replaced.
    expect(frames()[1]?.frame.data).toBe('C');
    socket.close();
    await closed;
    await waitFor(() => frameListeners.size === count);
  });
});
