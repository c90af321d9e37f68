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
      invoke: vi.fn(() => Promise.resolve({ok: true, value: 'pong'})),
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
    expect(Object.keys(api).sort()).toEqual(['command', 'onFrame', 'subscribe']);
    for (const value of Object.values(api)) {
      expect(typeof value).toBe('function');
      expect(value).not.toBe(electron.ipcRenderer);
    }
    expect(JSON.stringify(Object.keys(api))).not.toContain('ipcRenderer');
  });

  it('tells main a new document loaded, so a reload drops the old streams', () => {
    expect(electron.ipcRenderer.send).toHaveBeenCalledWith(IPC_CHANNELS.reset, {});
  });

  it('invokes commands on the command channel', async () => {
    const api = exposed();
    const command = api.command as (c: unknown) => Promise<unknown>;
    expect(await command({type: 'getState'})).toEqual({ok: true, value: 'pong'});
    expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith(IPC_CHANNELS.command, {
      type: 'getState',
    });
  });

  it('turns a rejected invoke (a refused sender) into an error reply', async () => {
    electron.ipcRenderer.invoke.mockImplementationOnce(() =>
      Promise.reject(new Error('Refused IPC')),
    );
    const command = exposed().command as (c: unknown) => Promise<unknown>;
    expect(await command({type: 'getState'})).toEqual({ok: false, error: 'Refused IPC'});
  });

  it('hands listeners the payload only — never the IPC event — and acknowledges', () => {
    const subscribe = exposed().subscribe as (
      from: number,
      cb: (...args: unknown[]) => void,
    ) => () => void;
    const onBatch = vi.fn();
    const stop = subscribe(5, onBatch);
    const subscribeCall = electron.ipcRenderer.send.mock.calls.find(
      ([channel]) => channel === IPC_CHANNELS.subscribe,
    );
    const {id, fromSeq} = subscribeCall?.[1] as {id: number; fromSeq: number};
    expect(typeof id).toBe('number');
    expect(fromSeq).toBe(5);
    const batch = {events: [], dropped: 0, nextSeq: 1};
    for (const listener of electron.listeners.get(IPC_CHANNELS.batch) ?? []) {
      listener(LEAKY_EVENT, {id, batch});
      listener(LEAKY_EVENT, {id: id + 100, batch});
      listener(LEAKY_EVENT, {id, batch: 'not a batch'});
    }
    expect(onBatch).toHaveBeenCalledTimes(1);
    expect(onBatch.mock.calls[0]).toEqual([batch]);
    expect(electron.ipcRenderer.send).toHaveBeenCalledWith(IPC_CHANNELS.batchAck, {id});
    stop();
    stop();
    const unsubscribes = electron.ipcRenderer.send.mock.calls.filter(
      ([channel]) => channel === IPC_CHANNELS.unsubscribe,
    );
    expect(unsubscribes).toEqual([[IPC_CHANNELS.unsubscribe, {id}]]);
  });

  it('asks for frames while someone listens, and passes frames as payloads', () => {
    const onFrame = exposed().onFrame as (cb: (...args: unknown[]) => void) => () => void;
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = onFrame(first);
    const stopSecond = onFrame(second);
    const framesCalls = () =>
      electron.ipcRenderer.send.mock.calls.filter(([channel]) => channel === IPC_CHANNELS.frames);
    expect(framesCalls()).toEqual([[IPC_CHANNELS.frames, {enabled: true}]]);
    const liveFrame = {pageId: 1, mimeType: 'image/jpeg', data: 'abc'};
    for (const listener of electron.listeners.get(IPC_CHANNELS.frame) ?? []) {
      listener(LEAKY_EVENT, liveFrame);
    }
    expect(first.mock.calls).toEqual([[liveFrame]]);
    expect(second.mock.calls).toEqual([[liveFrame]]);
    expect(electron.ipcRenderer.send).toHaveBeenCalledWith(IPC_CHANNELS.frameAck, {});
    stopFirst();
    expect(framesCalls()).toHaveLength(1);
    stopSecond();
    expect(framesCalls()).toEqual([
      [IPC_CHANNELS.frames, {enabled: true}],
      [IPC_CHANNELS.frames, {enabled: false}],
    ]);
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
