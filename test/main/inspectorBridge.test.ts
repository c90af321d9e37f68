import {describe, expect, it, vi} from 'vitest';
import {InspectorHub} from '../../src/core/inspector/InspectorHub.js';
import {registerInspectorBridge, type InspectorEndpoint} from '../../src/main/inspectorBridge.js';
import {createIpcIngress} from '../../src/main/ipcIngress.js';
import {IPC_CHANNELS} from '../../src/shared/connection.js';
import type {EventBatch, InspectorCommand, LiveFrame} from '../../src/shared/protocol.js';
import {STREAM_LIMITS, type StreamMessage} from '../../src/shared/wire.js';
import {waitFor} from '../helpers/engine.js';
import {publishAndSettle as settle} from '../helpers/hubLatch.js';
import {FakeIpcMain, FakeSender, frame} from './fakeIpc.js';

const appFrame = frame('app://inspector/index.html');

function setup(hubOptions: ConstructorParameters<typeof InspectorHub>[0] = {batchIntervalMs: 5}) {
  const hub = new InspectorHub(hubOptions);
  const frameListeners = new Set<(frame: LiveFrame) => void>();
  const rendererGone = vi.fn();
  const handleCommand = vi.fn((command: InspectorCommand) =>
    Promise.resolve({ok: true as const, value: {token: command.type}}),
  );
  const endpoint: InspectorEndpoint = {
    subscribe: (fromSeq, listener, streamId) => hub.subscribe(fromSeq, listener, streamId),
    handleCommand,
    onFrame: listener => {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    rendererGone,
  };
  const ipcMain = new FakeIpcMain();
  const log = vi.fn();
  const bridge = registerInspectorBridge(
    createIpcIngress(ipcMain, {allowedOrigins: ['app://inspector'], log}),
    endpoint,
    log,
  );
  const sender = new FakeSender();
  const event = {senderFrame: appFrame, sender};
  /** Sends a message as the preload would: on the channel named after its kind. */
  const send = (message: StreamMessage) => ipcMain.emit(IPC_CHANNELS[message.kind], event, message);
  const batches = (id?: number): EventBatch[] =>
    sender
      .sentOn(IPC_CHANNELS.batch)
      .flatMap(payload =>
        typeof payload === 'object' &&
        payload !== null &&
        'kind' in payload &&
        payload.kind === 'batch' &&
        'id' in payload &&
        'batch' in payload &&
        (id === undefined || payload.id === id)
          ? [payload.batch as EventBatch]
          : [],
      );
  const publish = (count: number) => {
    for (let index = 0; index < count; index++) {
      hub.publish({type: 'clientDisconnected', clientId: `client-${index}`});
    }
  };
  const publishAndSettle = (count: number) => settle(hub, count);
  return {
    hub,
    handleCommand,
    ipcMain,
    bridge,
    sender,
    event,
    send,
    batches,
    publish,
    publishAndSettle,
    frameListeners,
    rendererGone,
    log,
  };
}

const eventsIn = (batches: EventBatch[]) =>
  batches.reduce((sum, batch) => sum + batch.events.length, 0);

describe('inspector bridge: event batches', () => {
  it('streams the hub in batches, never one message per event', async () => {
    const {send, publish, batches} = setup();
    publish(3);
    await send({kind: 'subscribe', id: 1, fromSeq: 0});
    await waitFor(() => eventsIn(batches(1)) === 3, 5_000, 'the backlog');
    publish(500);
    // Acknowledge as the renderer would, so the stream keeps flowing.
    await waitFor(
      async () => {
        await send({kind: 'batchAck', id: 1});
        return eventsIn(batches(1)) === 503;
      },
      5_000,
      'all events',
    );
    expect(batches(1).length).toBeLessThan(20);
    const seqs = batches(1).flatMap(batch => batch.events.map(envelope => envelope.seq));
    expect(seqs).toEqual(Array.from({length: 503}, (_, index) => index + 1));
  });

  it('keeps at most a few batches in flight until the renderer acknowledges them', async () => {
    const {send, publish, publishAndSettle, batches} = setup({
      batchIntervalMs: 1,
      maxBatchSize: 10,
    });
    publish(200);
    await send({kind: 'subscribe', id: 7, fromSeq: 1});
    await waitFor(
      () => batches(7).length === STREAM_LIMITS.batchesInFlight,
      5_000,
      'the first batches',
    );
    await publishAndSettle(50);
    expect(batches(7)).toHaveLength(STREAM_LIMITS.batchesInFlight);
    await send({kind: 'batchAck', id: 7});
    await waitFor(
      () => batches(7).length === STREAM_LIMITS.batchesInFlight + 1,
      5_000,
      'one more batch',
    );
    await publishAndSettle(5);
    expect(batches(7)).toHaveLength(STREAM_LIMITS.batchesInFlight + 1);
  });

  it('stops a stream on unsubscribe', async () => {
    const {send, publishAndSettle, batches, bridge, sender} = setup();
    await send({kind: 'subscribe', id: 2, fromSeq: 0});
    await waitFor(() => batches(2).length === 1, 5_000, 'the first (empty) batch');
    expect(bridge.subscriptionCount(sender.id)).toBe(1);
    await send({kind: 'unsubscribe', id: 2});
    expect(bridge.subscriptionCount(sender.id)).toBe(0);
    await publishAndSettle(5);
    expect(eventsIn(batches(2))).toBe(0);
  });

  it('releases everything when the renderer is destroyed, and sends nothing after', async () => {
    const {send, publishAndSettle, batches, bridge, sender, rendererGone, frameListeners} = setup();
    await send({kind: 'subscribe', id: 3, fromSeq: 0});
    await send({kind: 'frames', enabled: true});
    await waitFor(() => batches(3).length === 1, 5_000, 'the first batch');
    sender.destroy();
    expect(bridge.subscriptionCount(sender.id)).toBe(0);
    expect(frameListeners.size).toBe(0);
    expect(rendererGone).toHaveBeenCalled();
    await publishAndSettle(5);
    expect(batches(3)).toHaveLength(1);
  });

  it('drops the previous document’s streams on reset (a reload) without stacking listeners', async () => {
    const {send, bridge, sender} = setup();
    for (let reload = 0; reload < 5; reload++) {
      await send({kind: 'reset'});
      await send({kind: 'subscribe', id: 1, fromSeq: 0});
      await send({kind: 'subscribe', id: 2, fromSeq: 0});
      expect(bridge.subscriptionCount(sender.id)).toBe(2);
    }
    expect(sender.destroyedListenerCount()).toBe(1);
  });

  it(`caps a renderer at ${STREAM_LIMITS.subscriptions} streams`, async () => {
    const {send, bridge, sender, log} = setup();
    for (let id = 1; id <= STREAM_LIMITS.subscriptions + 3; id++) {
      await send({kind: 'subscribe', id, fromSeq: 0});
    }
    expect(bridge.subscriptionCount(sender.id)).toBe(STREAM_LIMITS.subscriptions);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('closing the oldest'));
  });

  it('ignores a subscription from a foreign frame, and one that does not fit the wire', async () => {
    const {ipcMain, bridge, publishAndSettle, log, event, sender} = setup();
    const stranger = new FakeSender();
    await ipcMain.emit(
      IPC_CHANNELS.subscribe,
      {senderFrame: frame('https://evil.example/'), sender: stranger},
      {kind: 'subscribe', id: 1, fromSeq: 0},
    );
    expect(log).toHaveBeenCalledWith(
      expect.stringContaining('https://evil.example is not the app'),
    );
    // The old shape (no kind), and a kind on the wrong channel.
    await ipcMain.emit(IPC_CHANNELS.subscribe, event, {id: 1, fromSeq: 0});
    await ipcMain.emit(IPC_CHANNELS.subscribe, event, {kind: 'unsubscribe', id: 1});
    expect(log).toHaveBeenCalledWith(expect.stringContaining('invalid arguments'));
    await publishAndSettle(1);
    expect(bridge.subscriptionCount(stranger.id)).toBe(0);
    expect(bridge.subscriptionCount(sender.id)).toBe(0);
    expect(stranger.sent).toHaveLength(0);
    expect(sender.sent).toHaveLength(0);
  });
});

describe('inspector bridge: commands', () => {
  it('passes valid commands to the engine and answers invalid ones with an error reply', async () => {
    const {ipcMain, event, handleCommand} = setup();
    expect(
      await ipcMain.invoke(IPC_CHANNELS.command, event, {
        kind: 'command',
        id: 4,
        command: {type: 'getToolsList'},
      }),
    ).toEqual({kind: 'reply', id: 4, reply: {ok: true, value: {token: 'getToolsList'}}});
    expect(handleCommand).toHaveBeenCalledWith({type: 'getToolsList'});
    const bad = await ipcMain.invoke(IPC_CHANNELS.command, event, {
      kind: 'command',
      id: 5,
      command: {type: 'runTool', tool: ''},
    });
    expect(bad).toMatchObject({kind: 'reply', id: 5, reply: {ok: false}});
    expect(handleCommand).toHaveBeenCalledTimes(1);
  });
});

describe('inspector bridge: live frames', () => {
  const liveFrame = (n: number): LiveFrame => ({
    pageId: 1,
    mimeType: 'image/jpeg',
    data: `frame-${n}`,
  });

  it('sends frames only while enabled, one in flight, latest wins', async () => {
    const {send, sender, frameListeners} = setup();
    const frames = () =>
      sender.sentOn(IPC_CHANNELS.frame).map(payload => (payload as {frame: LiveFrame}).frame);
    await send({kind: 'frames', enabled: true});
    await send({kind: 'frames', enabled: true});
    expect(frameListeners.size).toBe(1);
    for (const listener of frameListeners) {
      listener(liveFrame(1));
      listener(liveFrame(2));
      listener(liveFrame(3));
    }
    expect(frames()).toEqual([liveFrame(1)]);
    expect(sender.sentOn(IPC_CHANNELS.frame)[0]).toEqual({kind: 'frame', frame: liveFrame(1)});
    await send({kind: 'frameAck'});
    expect(frames()).toEqual([liveFrame(1), liveFrame(3)]);
    await send({kind: 'frameAck'});
    expect(frames()).toHaveLength(2);
    await send({kind: 'frames', enabled: false});
    expect(frameListeners.size).toBe(0);
  });
});
