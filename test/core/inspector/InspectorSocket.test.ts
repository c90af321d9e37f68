import type {AddressInfo} from 'node:net';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {WebSocket, WebSocketServer} from 'ws';
import {InspectorHub} from '../../../src/core/inspector/InspectorHub.js';
import {attachInspectorSocket} from '../../../src/core/inspector/InspectorSocket.js';
import {
  type InspectorCommand,
  type LiveFrame,
  type ServerMessage,
  serverMessageSchema,
} from '../../../src/shared/protocol.js';
import {waitFor} from '../../helpers/engine.js';

let server: WebSocketServer;
let url: string;
const hub = new InspectorHub({batchIntervalMs: 5});
const commands: InspectorCommand[] = [];
const frameListeners = new Set<(frame: LiveFrame) => void>();

beforeAll(async () => {
  server = new WebSocketServer({port: 0, host: '127.0.0.1'});
  await new Promise(resolve => server.once('listening', resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('connection', socket =>
    attachInspectorSocket(socket, {
      hub,
      handleCommand: command => {
        commands.push(command);
        return Promise.resolve({ok: true, value: {echo: command.type}});
      },
      onFrame: listener => {
        frameListeners.add(listener);
        return () => frameListeners.delete(listener);
      },
    }),
  );
});

afterAll(async () => {
  await new Promise(resolve => server.close(resolve));
});

async function open(): Promise<{
  socket: WebSocket;
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
  return {socket, messages, closed};
}

describe('InspectorSocket', () => {
  it('streams batches from the requested sequence id, with the stream id', async () => {
    hub.publish({type: 'clientDisconnected', clientId: 'a'});
    hub.publish({type: 'clientDisconnected', clientId: 'b'});
    const {socket, messages} = await open();
    socket.send(JSON.stringify({kind: 'subscribe', fromSeq: 2}));
    const batch = await waitFor(() =>
      messages.find(message => message.kind === 'batch' && message.batch.events.length > 0),
    );
    expect(batch.kind === 'batch' && batch.batch.events.map(event => event.seq)).toEqual([2]);
    expect(batch.kind === 'batch' && batch.batch.streamId).toBe(hub.streamId);
    socket.close();
  });

  it('answers a valid command with its id', async () => {
    const {socket, messages} = await open();
    socket.send(JSON.stringify({kind: 'command', id: 7, command: {type: 'getState'}}));
    const reply = await waitFor(() => messages.find(message => message.kind === 'reply'));
    expect(reply).toEqual({kind: 'reply', id: 7, reply: {ok: true, value: {echo: 'getState'}}});
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

    const binary = await open();
    binary.socket.send(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(1003);
  });

  it('forwards live-view frames and stops listening when the socket closes', async () => {
    const {socket, messages, closed} = await open();
    await waitFor(() => frameListeners.size > 0);
    const count = frameListeners.size;
    for (const listener of frameListeners) {
      listener({pageId: 1, mimeType: 'image/jpeg', data: 'AAAA'});
    }
    const frame = await waitFor(() => messages.find(message => message.kind === 'frame'));
    expect(frame).toEqual({
      kind: 'frame',
      frame: {pageId: 1, mimeType: 'image/jpeg', data: 'AAAA'},
    });
    socket.close();
    await closed;
    await waitFor(() => frameListeners.size === count - 1);
  });
});
