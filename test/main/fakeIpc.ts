/**
 * An in-memory stand-in for Electron IPC: a fake ipcMain (what the ingress registers on) and fake
 * renderers wired to it (what the preload bridge talks to). Messages are delivered asynchronously,
 * like real IPC, and main → renderer messages carry an event object that a preload must not leak.
 */
import type {IpcEvent, IpcMainLike, IpcSender, SenderFrame} from '../../src/main/ipcIngress.js';
import type {IpcRendererLike} from '../../src/preload/bridge.js';

type MainListener = (event: IpcEvent, ...args: unknown[]) => unknown;

/** What a renderer's listeners receive as first argument; a leak would hand this to the page. */
export const LEAKY_EVENT = Object.freeze({sender: 'the ipcRenderer object itself'});

const tick = (): Promise<void> => new Promise(resolve => setImmediate(resolve));

export function frame(url: string, parent: SenderFrame | null = null): SenderFrame {
  return {url, parent};
}

export class FakeSender implements IpcSender {
  static #nextId = 1;
  readonly id = FakeSender.#nextId++;
  readonly sent: {channel: string; payload: unknown}[] = [];
  readonly rendererListeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  #destroyed = false;
  readonly #destroyedListeners: (() => void)[] = [];

  send(channel: string, ...args: unknown[]): void {
    if (this.#destroyed) {
      throw new Error('Object has been destroyed');
    }
    this.sent.push({channel, payload: args[0]});
    void tick().then(() => {
      for (const listener of this.rendererListeners.get(channel) ?? []) {
        listener(LEAKY_EVENT, ...args);
      }
    });
  }

  isDestroyed(): boolean {
    return this.#destroyed;
  }

  once(_event: 'destroyed', listener: () => void): this {
    this.#destroyedListeners.push(listener);
    return this;
  }

  destroyedListenerCount(): number {
    return this.#destroyedListeners.length;
  }

  destroy(): void {
    this.#destroyed = true;
    for (const listener of this.#destroyedListeners.splice(0)) {
      listener();
    }
  }

  sentOn(channel: string): unknown[] {
    return this.sent.filter(message => message.channel === channel).map(message => message.payload);
  }
}

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, MainListener>();
  readonly listeners = new Map<string, MainListener[]>();

  handle(channel: string, listener: MainListener): void {
    if (this.handlers.has(channel)) {
      // Electron throws too: "Attempted to register a second handler".
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    this.handlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }

  on(channel: string, listener: MainListener): this {
    this.listeners.set(channel, [...(this.listeners.get(channel) ?? []), listener]);
    return this;
  }

  removeListener(channel: string, listener: MainListener): this {
    this.listeners.set(
      channel,
      (this.listeners.get(channel) ?? []).filter(existing => existing !== listener),
    );
    return this;
  }

  /** ipcRenderer.invoke from `event`'s frame: rejects like Electron when no handler exists. */
  async invoke(channel: string, event: IpcEvent, ...args: unknown[]): Promise<unknown> {
    await tick();
    const handler = this.handlers.get(channel);
    if (!handler) {
      throw new Error(`No handler registered for '${channel}'`);
    }
    return handler(event, ...args);
  }

  /** ipcRenderer.send from `event`'s frame. */
  async emit(channel: string, event: IpcEvent, ...args: unknown[]): Promise<void> {
    await tick();
    for (const listener of this.listeners.get(channel) ?? []) {
      listener(event, ...args);
    }
  }

  channelCount(): number {
    return this.handlers.size + [...this.listeners.values()].filter(list => list.length > 0).length;
  }
}

/** A renderer document in `senderFrame`, talking over `ipcMain` as `sender`. */
export function connectRenderer(
  ipcMain: FakeIpcMain,
  sender: FakeSender,
  senderFrame: SenderFrame | null,
): IpcRendererLike {
  const event = (): IpcEvent => ({senderFrame, sender});
  return {
    invoke: (channel, ...args) => ipcMain.invoke(channel, event(), ...args),
    send: (channel, ...args) => void ipcMain.emit(channel, event(), ...args),
    on(channel, listener) {
      sender.rendererListeners.set(channel, [
        ...(sender.rendererListeners.get(channel) ?? []),
        listener,
      ]);
      return this;
    },
  };
}
