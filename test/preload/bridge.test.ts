/**
 * The preload bridge, alone (electron mocked) and end to end: renderer IpcConnection → preload
 * bridge → fake IPC → validated ingress → main bridge → a real engine, with a real MCP client
 * whose tool call shows up in the renderer's event stream.
 */
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {engineEndpoint} from '../../src/main/engineEndpoint.js';
import {registerInspectorBridge} from '../../src/main/inspectorBridge.js';
import {createIpcIngress} from '../../src/main/ipcIngress.js';
import {createInspectorBridge} from '../../src/preload/bridge.js';
import {IpcConnection} from '../../src/renderer/src/connection/IpcConnection.js';
import {IPC_CHANNELS, type ConnectionStatus} from '../../src/shared/connection.js';
import type {EventEnvelope, InspectorState, LiveFrame} from '../../src/shared/protocol.js';
import {call, startEngine, waitFor, type TestEngine} from '../helpers/engine.js';
import {FakeIpcMain, FakeSender, LEAKY_EVENT, connectRenderer, frame} from '../main/fakeIpc.js';

const electron = vi.hoisted(() => {
  const listeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  return {
    listeners,
    exposeInMainWorld: vi.fn(),
    ipcRenderer: {
      invoke: vi.fn((): Promise<unknown> => Promise.resolve(undefined)),
      send: vi.fn(),
      on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      }),
    },
  };
});

vi.mock('electron', () => ({
  contextBridge: {exposeInMainWorld: electron.exposeInMainWorld},
  ipcRenderer: electron.ipcRenderer,
}));

describe('preload (electron mocked)', () => {
  beforeAll(async () => {
    await import('../../src/preload/index.js');
  });

  const exposed = (): Record<string, unknown> => {
    expect(electron.exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, api] = electron.exposeInMainWorld.mock.calls[0] as [
      string,
      Record<string, unknown>,
    ];
    expect(name).toBe('inspectorBridge');
    return api;
  };

  it('exposes a frozen object of the contract’s named methods, and nothing else', () => {
    const api = exposed();
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.keys(api).sort()).toEqual(['onMessage', 'send']);
    for (const value of Object.values(api)) {
      expect(typeof value).toBe('function');
      expect(value).not.toBe(electron.ipcRenderer);
    }
    expect(JSON.stringify(Object.keys(api))).not.toContain('ipcRenderer');
  });

  it('tells main a new document loaded, so a reload drops the old streams', () => {
    expect(electron.ipcRenderer.send).toHaveBeenCalledWith(IPC_CHANNELS.reset, {kind: 'reset'});
  });

  const send = (message: unknown): void => (exposed().send as (m: unknown) => void)(message);
  const listen = (): unknown[] => {
    const received: unknown[] = [];
    (exposed().onMessage as (cb: (m: unknown) => void) => () => void)(message =>
      received.push(message),
    );
    return received;
  };

  it('invokes commands on the command channel and hands back the reply message', async () => {
    const received = listen();
    electron.ipcRenderer.invoke.mockImplementationOnce(() =>
      Promise.resolve({kind: 'reply', id: 3, reply: {ok: true, value: 'pong'}}),
    );
    const command = {kind: 'command', id: 3, command: {type: 'getState'}};
    send(command);
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith(IPC_CHANNELS.command, command);
    await vi.waitFor(() =>
      expect(received).toEqual([{kind: 'reply', id: 3, reply: {ok: true, value: 'pong'}}]),
    );
  });

  it('turns a rejected invoke (a refused sender) into an error reply', async () => {
    const received = listen();
    electron.ipcRenderer.invoke.mockImplementationOnce(() =>
      Promise.reject(new Error('Refused IPC')),
    );
    send({kind: 'command', id: 9, command: {type: 'getState'}});
    await vi.waitFor(() =>
      expect(received).toEqual([{kind: 'reply', id: 9, reply: {ok: false, error: 'Refused IPC'}}]),
    );
  });

  it('sends every other message on the channel of its kind, and nothing that is not one', () => {
    electron.ipcRenderer.send.mockClear();
    send({kind: 'subscribe', id: 5, fromSeq: 2});
    send({kind: 'batchAck', id: 5});
    send({kind: 'frames', enabled: true});
    send({kind: 'frameAck'});
    send({kind: 'unsubscribe', id: 5});
    send({kind: 'constructor'});
    send({kind: '__proto__'});
    send('subscribe');
    expect(electron.ipcRenderer.send.mock.calls).toEqual([
      [IPC_CHANNELS.subscribe, {kind: 'subscribe', id: 5, fromSeq: 2}],
      [IPC_CHANNELS.batchAck, {kind: 'batchAck', id: 5}],
      [IPC_CHANNELS.frames, {kind: 'frames', enabled: true}],
      [IPC_CHANNELS.frameAck, {kind: 'frameAck'}],
      [IPC_CHANNELS.unsubscribe, {kind: 'unsubscribe', id: 5}],
    ]);
  });

  it('hands listeners the payload only — never the IPC event — until they stop listening', () => {
    const received: unknown[] = [];
    const stop = (exposed().onMessage as (cb: (m: unknown) => void) => () => void)(message =>
      received.push(message),
    );
    const batch = {kind: 'batch', id: 1, batch: {events: [], dropped: 0, nextSeq: 1}};
    const liveFrame = {kind: 'frame', frame: {pageId: 1, mimeType: 'image/jpeg', data: 'abc'}};
    for (const listener of electron.listeners.get(IPC_CHANNELS.batch) ?? []) {
      listener(LEAKY_EVENT, batch);
    }
    for (const listener of electron.listeners.get(IPC_CHANNELS.frame) ?? []) {
      listener(LEAKY_EVENT, liveFrame);
    }
    const show = {kind: 'show', panel: 'hold'};
    for (const listener of electron.listeners.get(IPC_CHANNELS.show) ?? []) {
      listener(LEAKY_EVENT, show);
    }
    expect(received).toEqual([batch, liveFrame, show]);
    stop();
    for (const listener of electron.listeners.get(IPC_CHANNELS.batch) ?? []) {
      listener(LEAKY_EVENT, batch);
    }
    expect(received).toHaveLength(3);
  });
});

describe('IpcConnection over the preload bridge and the main bridge, with a real engine', () => {
  let engine: TestEngine;
  let connection: IpcConnection;
  const ipcMain = new FakeIpcMain();
  const sender = new FakeSender();
  const log = vi.fn();

  beforeAll(async () => {
    engine = await startEngine();
    registerInspectorBridge(
      createIpcIngress(ipcMain, {allowedOrigins: ['app://inspector'], log}),
      engineEndpoint(engine.engine),
      log,
    );
    connection = new IpcConnection(
      createInspectorBridge(connectRenderer(ipcMain, sender, frame('app://inspector/index.html'))),
    );
  });

  afterAll(async () => {
    connection.close();
    await engine.stop();
  });

  it('is open at once, and closed after close()', () => {
    const statuses: ConnectionStatus[] = [];
    const local = new IpcConnection(
      createInspectorBridge(connectRenderer(ipcMain, new FakeSender(), frame('app://inspector/'))),
    );
    local.onStatus(status => statuses.push(status));
    local.close();
    expect(statuses).toEqual([{state: 'open'}, {state: 'closed'}]);
  });

  it('answers commands from the engine', async () => {
    const reply = await connection.command({type: 'getState'});
    expect(reply.ok).toBe(true);
    const state = (reply as {ok: true; value: InspectorState}).value;
    expect(state.mcpUrl).toBe(engine.mcpUrl);
    expect(state.categories.map(category => category.id)).toContain('network');
  });

  it('streams an MCP client’s tool call into the renderer’s event log', async () => {
    const events: EventEnvelope[] = [];
    const stop = connection.subscribe(0, batch => events.push(...batch.events));
    const client = await engine.connect('ipc-test-agent');
    const result = await call(client, 'list_pages');
    expect(result.isError).toBe(false);
    const ended = await waitFor(
      () =>
        events.find(
          envelope =>
            envelope.event.type === 'toolCallEnded' && envelope.event.tool === 'list_pages',
        ),
      20_000,
      'toolCallEnded for list_pages',
    );
    const started = events.find(
      envelope => envelope.event.type === 'toolCallStarted' && envelope.event.tool === 'list_pages',
    );
    expect(started?.event).toMatchObject({client: {name: 'ipc-test-agent'}});
    expect(ended.event).toMatchObject({status: 'ok'});
    const seqs = events.map(envelope => envelope.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    stop();
  });

  it('switches a category for connected agents', async () => {
    const client = await engine.connect('ipc-category-agent');
    const before = await client.listTools();
    expect(before.tools.map(tool => tool.name)).toContain('list_network_requests');
    const reply = await connection.command({
      type: 'setCategoryEnabled',
      category: 'network',
      enabled: false,
    });
    expect(reply.ok).toBe(true);
    const after = await client.listTools();
    expect(after.tools.map(tool => tool.name)).not.toContain('list_network_requests');
    await connection.command({type: 'setCategoryEnabled', category: 'network', enabled: true});
  });

  it('answers an invalid command with an error reply', async () => {
    const reply = await connection.command({
      type: 'setCategoryEnabled',
      category: 'network',
    } as never);
    expect(reply.ok).toBe(false);
    expect((reply as {error: string}).error).toContain('Invalid arguments');
  });

  it('delivers live frames from the engine to frame listeners', async () => {
    const frames: LiveFrame[] = [];
    const stop = connection.onFrame(liveFrame => frames.push(liveFrame));
    // The frames-enabled message travels asynchronously; publish until the tap has a listener.
    await waitFor(
      () => {
        engine.engine.publishFrame({pageId: 1, mimeType: 'image/jpeg', data: 'frame-data'});
        return frames.length > 0;
      },
      5_000,
      'a live frame',
    );
    expect(frames[0]).toEqual({pageId: 1, mimeType: 'image/jpeg', data: 'frame-data'});
    stop();
  });

  it("hands main's request to show the Hold tab to show listeners, checked like every message", async () => {
    const shown: string[] = [];
    const stop = connection.onShow(panel => shown.push(panel));
    sender.send(IPC_CHANNELS.show, {kind: 'show', panel: 'settings'});
    sender.send(IPC_CHANNELS.show, {kind: 'show', panel: 'hold'});
    await waitFor(() => shown.length > 0, 5_000, 'the show request');
    expect(shown).toEqual(['hold']);
    stop();
  });

  it('refuses a renderer from another origin', async () => {
    const stranger = new IpcConnection(
      createInspectorBridge(
        connectRenderer(ipcMain, new FakeSender(), frame('https://evil.example/')),
      ),
    );
    const reply = await stranger.command({type: 'getToken'});
    expect(reply.ok).toBe(false);
    expect((reply as {error: string}).error).toContain('Refused IPC');
    expect(log).toHaveBeenCalledWith(
      expect.stringContaining('https://evil.example is not the app'),
    );
  });
});
