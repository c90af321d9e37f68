import {describe, expect, it, vi} from 'vitest';
import {z} from 'zod';
import {checkSenderFrame, createIpcIngress} from '../../src/main/ipcIngress.js';
import {IPC_CHANNELS} from '../../src/shared/connection.js';
import {inspectorCommandSchema} from '../../src/shared/protocol.js';
import {FakeIpcMain, FakeSender, frame} from './fakeIpc.js';

const APP = 'app://inspector';
const appFrame = frame('app://inspector/index.html');

function setup() {
  const ipcMain = new FakeIpcMain();
  const log = vi.fn();
  const ingress = createIpcIngress(ipcMain, {allowedOrigins: [APP], log});
  type Reply = {ok: true; value: string} | {ok: false; error: string};
  const handler = vi.fn((command: z.infer<typeof inspectorCommandSchema>): Reply => ({
    ok: true,
    value: command.type,
  }));
  ingress.handle(IPC_CHANNELS.command, inspectorCommandSchema, handler, (message): Reply => ({
    ok: false,
    error: message,
  }));
  const oneWay = vi.fn();
  ingress.on('test:one-way', z.strictObject({n: z.number().int()}), oneWay);
  return {ipcMain, ingress, handler, oneWay, log};
}

describe('IPC ingress: sender frame', () => {
  it('accepts the main frame of the app origin', async () => {
    const {ipcMain, handler} = setup();
    const sender = new FakeSender();
    const reply = await ipcMain.invoke(
      IPC_CHANNELS.command,
      {senderFrame: appFrame, sender},
      {type: 'getState'},
    );
    expect(reply).toEqual({ok: true, value: 'getState'});
    expect(handler).toHaveBeenCalledWith({type: 'getState'}, sender);
  });

  it.each([
    ['another origin', frame('https://evil.example/')],
    ['another app host', frame('app://evil/index.html')],
    ['a file: page', frame('file:///tmp/index.html')],
    ['a dev-server lookalike', frame('http://localhost:5173/')],
    ['about:blank', frame('about:blank')],
    ['a subframe of the app', frame('app://inspector/frame.html', appFrame)],
    ['a foreign subframe of the app', frame('https://evil.example/', appFrame)],
    ['a destroyed frame', null],
  ])('refuses %s before the handler runs', async (_name, senderFrame) => {
    const {ipcMain, handler, oneWay, log} = setup();
    const sender = new FakeSender();
    await expect(
      ipcMain.invoke(IPC_CHANNELS.command, {senderFrame, sender}, {type: 'getToken'}),
    ).rejects.toThrow(/Refused IPC on inspector:command/);
    await ipcMain.emit('test:one-way', {senderFrame, sender}, {n: 1});
    expect(handler).not.toHaveBeenCalled();
    expect(oneWay).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('checks origins by parsing, not by prefix', () => {
    expect(checkSenderFrame(frame('app://inspector.evil.example/'), [APP]).ok).toBe(false);
    expect(checkSenderFrame(frame('app://inspector@evil/'), [APP]).ok).toBe(false);
    expect(checkSenderFrame(frame('APP://INSPECTOR/index.html'), [APP]).ok).toBe(true);
    expect(
      checkSenderFrame(frame('http://localhost:5173/'), [APP, 'http://localhost:5173']).ok,
    ).toBe(true);
  });
});

describe('IPC ingress: arguments', () => {
  it.each([
    ['an unknown command', [{type: 'runShell', command: 'rm -rf /'}]],
    ['a wrong field type', [{type: 'setCategoryEnabled', category: 'network', enabled: 'yes'}]],
    ['an unknown category', [{type: 'setCategoryEnabled', category: 'root', enabled: true}]],
    ['no argument', []],
    ['two arguments', [{type: 'getState'}, {type: 'getState'}]],
    ['a string', ['getState']],
  ])('answers %s with an error reply and never calls the handler', async (_name, args) => {
    const {ipcMain, handler, log} = setup();
    const reply = await ipcMain.invoke(
      IPC_CHANNELS.command,
      {senderFrame: appFrame, sender: new FakeSender()},
      ...args,
    );
    expect(reply).toMatchObject({ok: false});
    expect((reply as {error: string}).error).toMatch(/^Invalid arguments for inspector:command/);
    expect(handler).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(expect.stringContaining('invalid arguments'));
  });

  it('drops a one-way message whose payload fails its schema', async () => {
    const {ipcMain, oneWay} = setup();
    const event = {senderFrame: appFrame, sender: new FakeSender()};
    await ipcMain.emit('test:one-way', event, {n: 1.5});
    await ipcMain.emit('test:one-way', event, {n: 1, extra: true});
    await ipcMain.emit('test:one-way', event, {n: 2});
    expect(oneWay).toHaveBeenCalledTimes(1);
    expect(oneWay).toHaveBeenCalledWith({n: 2}, event.sender);
  });
});

describe('IPC ingress: registration', () => {
  it('refuses a second registration and removes everything on dispose', () => {
    const {ipcMain, ingress} = setup();
    expect(() => ingress.on('test:one-way', z.object({}), () => undefined)).toThrow(/already/);
    expect(ipcMain.channelCount()).toBe(2);
    ingress.dispose();
    expect(ipcMain.channelCount()).toBe(0);
  });
});
