/**
 * The whole main process with 'electron' mocked: what it registers before ready, the window it
 * opens, the app protocol, the policy, the IPC bridge to a real engine (an MCP call over HTTP shows
 * up in the window's event stream), the single-instance hand-over, remembered settings, a held
 * call's flash and notification, and a clean quit that stops the engine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest';
import {loadSettings} from '../../src/main/settings.js';
import {createInspectorBridge} from '../../src/preload/bridge.js';
import {IpcConnection} from '../../src/renderer/src/connection/IpcConnection.js';
import {IPC_CHANNELS} from '../../src/shared/connection.js';
import type {EventEnvelope, InspectorState} from '../../src/shared/protocol.js';
import {call, waitFor} from '../helpers/engine.js';
import {connectRenderer, frame, type FakeIpcMain, type FakeSender} from './fakeIpc.js';

type Listener = (...args: unknown[]) => unknown;

interface FakeWindow {
  options: Record<string, unknown>;
  loadedUrl: string | undefined;
  listeners: Map<string, Listener[]>;
  webContents: FakeSender;
  focus: ReturnType<typeof vi.fn>;
  flashFrame: ReturnType<typeof vi.fn>;
  emit(event: string): void;
}

interface FakeNotification {
  options: {title: string; body: string};
  shown: boolean;
  closed: boolean;
  click(): void;
}

const fake = vi.hoisted(() => {
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>(resolve => (markReady = resolve));
  return {
    markReady,
    ready,
    appListeners: new Map<string, ((...args: unknown[]) => unknown)[]>(),
    windows: [] as FakeWindow[],
    notifications: [] as FakeNotification[],
    ipcMain: undefined as FakeIpcMain | undefined,
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    app: {
      isPackaged: false,
      setPath: vi.fn(),
      enableSandbox: vi.fn(),
      requestSingleInstanceLock: vi.fn(() => true),
      quit: vi.fn(),
      exit: vi.fn(),
    },
    protocol: {registerSchemesAsPrivileged: vi.fn()},
    permissions: {
      request: undefined as
        ((wc: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined,
      check: undefined as ((wc: unknown, p: string) => boolean) | undefined,
    },
    dialog: {
      showMessageBox: vi.fn((..._args: unknown[]) =>
        Promise.resolve({response: 1, checkboxChecked: false}),
      ),
      showErrorBox: vi.fn(),
    },
    shell: {openExternal: vi.fn(() => Promise.resolve())},
  };
});

vi.mock('electron', async () => {
  const {FakeIpcMain, FakeSender} = await import('./fakeIpc.js');
  fake.ipcMain = new FakeIpcMain();
  class BrowserWindow implements FakeWindow {
    loadedUrl: string | undefined;
    listeners = new Map<string, Listener[]>();
    webContents = new FakeSender();
    focus = vi.fn();
    flashFrame = vi.fn();
    // In the background: a held call asks for attention.
    isFocused() {
      return false;
    }
    constructor(public options: Record<string, unknown>) {
      fake.windows.push(this);
    }
    loadURL(url: string) {
      this.loadedUrl = url;
      return Promise.resolve();
    }
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
    once(event: string, listener: Listener) {
      return this.on(event, listener);
    }
    emit(event: string) {
      for (const listener of this.listeners.get(event) ?? []) {
        listener({preventDefault: () => undefined});
      }
    }
    maximize = vi.fn();
    show = vi.fn();
    isMinimized() {
      return false;
    }
    restore = vi.fn();
    isMaximized() {
      return false;
    }
    getNormalBounds() {
      return {x: 40, y: 50, width: 1111, height: 777};
    }
  }
  class Notification implements FakeNotification {
    static isSupported() {
      return true;
    }
    shown = false;
    closed = false;
    #onClick: (() => void) | undefined;
    constructor(public options: {title: string; body: string}) {
      fake.notifications.push(this);
    }
    on(event: string, listener: () => void) {
      if (event === 'click') {
        this.#onClick = listener;
      }
      return this;
    }
    show() {
      this.shown = true;
    }
    close() {
      this.closed = true;
    }
    click() {
      this.#onClick?.();
    }
  }
  return {
    Notification,
    app: {
      ...fake.app,
      whenReady: () => fake.ready,
      on: (event: string, listener: (...args: unknown[]) => unknown) => {
        fake.appListeners.set(event, [...(fake.appListeners.get(event) ?? []), listener]);
      },
    },
    BrowserWindow,
    dialog: fake.dialog,
    ipcMain: fake.ipcMain,
    protocol: {
      ...fake.protocol,
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
        fake.protocolHandlers.set(scheme, handler),
    },
    screen: {getAllDisplays: () => [{workArea: {x: 0, y: 0, width: 1920, height: 1080}}]},
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof fake.permissions.request) =>
          (fake.permissions.request = handler),
        setPermissionCheckHandler: (handler: typeof fake.permissions.check) =>
          (fake.permissions.check = handler),
        setDevicePermissionHandler: () => undefined,
      },
    },
    shell: fake.shell,
  };
});

const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-main-'));
const readyFile = path.join(configDir, 'ready.json');
const handedOverReadyFile = path.join(configDir, 'second-ready.json');
const userArgs = ['--port', '0', '--headless', '--isolated', '--readyFile', readyFile];
const signalListenersBefore = new Map(
  (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map(signal => [signal, process.listeners(signal)]),
);
const logs: string[] = [];

function appListener(event: string): (...args: unknown[]) => unknown {
  const listener = fake.appListeners.get(event)?.[0];
  if (!listener) {
    throw new Error(`main did not register app.on('${event}')`);
  }
  return listener;
}

function readyInfo(file = readyFile): {mcpUrl: string; token: string} {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as {mcpUrl: string; token: string};
}

let window: FakeWindow;
let connection: IpcConnection;

beforeAll(async () => {
  vi.stubEnv('MCP_BROWSER_INSPECTOR_CONFIG_DIR', configDir);
  vi.stubEnv('CHROME_PATH', process.env.CHROME_PATH ?? '/usr/bin/chromium');
  vi.spyOn(process, 'argv', 'get').mockReturnValue([
    '/usr/bin/electron',
    'out/main/index.js',
    ...userArgs,
  ]);
  vi.spyOn(process.stderr, 'write').mockImplementation(chunk => {
    logs.push(String(chunk));
    return true;
  });
  await import('../../src/main/index.js');
});

afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  for (const [signal, before] of signalListenersBefore) {
    for (const listener of process.listeners(signal)) {
      if (!before.includes(listener)) {
        process.removeListener(signal, listener);
      }
    }
  }
  fs.rmSync(configDir, {recursive: true, force: true});
});

describe('before ready', () => {
  it('registers the app scheme as privileged, enables the sandbox, takes the instance lock', () => {
    expect(fake.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      {
        scheme: 'app',
        privileges: {
          standard: true,
          secure: true,
          supportFetchAPI: true,
          corsEnabled: true,
          codeCache: true,
        },
      },
    ]);
    expect(fake.app.enableSandbox).toHaveBeenCalled();
    expect(fake.app.setPath).toHaveBeenCalledWith('userData', path.join(configDir, 'desktop'));
    expect(fake.app.requestSingleInstanceLock).toHaveBeenCalledWith({
      argv: userArgs,
      cwd: process.cwd(),
    });
    expect(fake.windows).toHaveLength(0);
  });

  it('installs one web-contents-created policy', () => {
    expect(fake.appListeners.get('web-contents-created')).toHaveLength(1);
  });
});

describe('after ready', () => {
  beforeAll(async () => {
    fake.markReady();
    await waitFor(() => fs.existsSync(readyFile), 20_000, 'the ready file');
    window = await waitFor(() => fake.windows[0], 5_000, 'the window');
    connection = new IpcConnection(
      createInspectorBridge(
        connectRenderer(fake.ipcMain!, window.webContents, frame('app://inspector/index.html')),
      ),
    );
  });

  it('opens one sandboxed window on the app protocol', () => {
    expect(fake.windows).toHaveLength(1);
    expect(window.loadedUrl).toBe('app://inspector/index.html');
    expect(window.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
    const preload = (window.options.webPreferences as {preload: string}).preload;
    expect(preload).toMatch(/preload[/\\]index\.cjs$/);
  });

  it('serves the built renderer with the CSP header, and refuses traversal', async () => {
    const handler = fake.protocolHandlers.get('app');
    expect(handler).toBeDefined();
    const index = await handler?.(new Request('app://inspector/index.html'));
    expect(index?.status).toBe(200);
    expect(index?.headers.get('content-security-policy')).toContain("script-src 'self'");
    const traversal = await handler?.({
      url: 'app://inspector/%2e%2e/%2e%2e/package.json',
      method: 'GET',
    } as Request);
    expect(traversal?.status).toBe(403);
  });

  it('denies permissions on the app session', () => {
    const callback = vi.fn();
    fake.permissions.request?.({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(fake.permissions.check?.({}, 'notifications')).toBe(false);
  });

  /** The policy main installs on new web contents: its will-navigate listener and open handler. */
  function policyOfNewContents(): {
    willNavigate: (event: unknown) => void;
    openHandler: (details: {url: string}) => unknown;
  } {
    const on = vi.fn<(event: string, listener: (event: unknown) => void) => void>();
    let openHandler: ((details: {url: string}) => unknown) | undefined;
    appListener('web-contents-created')(
      {},
      {on, setWindowOpenHandler: (handler: typeof openHandler) => (openHandler = handler)},
    );
    const willNavigate = on.mock.calls.find(([event]) => event === 'will-navigate')?.[1];
    if (!willNavigate || !openHandler) {
      throw new Error('main did not install its navigation policy on the new web contents');
    }
    return {willNavigate, openHandler};
  }

  it('applies the navigation policy to new web contents', () => {
    const {willNavigate, openHandler} = policyOfNewContents();
    const preventDefault = vi.fn();
    willNavigate({url: 'file:///etc/passwd', isMainFrame: true, preventDefault});
    expect(preventDefault).toHaveBeenCalled();
    expect(openHandler({url: 'https://example.com/'})).toEqual({action: 'deny'});
  });

  it('asks before opening an external link, and opens nothing when the user cancels', async () => {
    const link = 'https://example.com/asked';
    // The fake dialog answers "Cancel".
    expect(policyOfNewContents().openHandler({url: link})).toEqual({action: 'deny'});
    const asked = await waitFor(
      () =>
        fake.dialog.showMessageBox.mock.calls
          .map(args => args.at(-1))
          .find(
            (options): options is {message: string; detail: string} =>
              typeof options === 'object' &&
              options !== null &&
              'detail' in options &&
              options.detail === link,
          ),
      5_000,
      'the confirm dialog',
    );
    expect(asked.message).toBe('Open this link in your default browser?');
    expect(fake.shell.openExternal).not.toHaveBeenCalledWith(link);
  });

  it('keeps serving MCP over HTTP, and the window sees the call in its event stream', async () => {
    const events: EventEnvelope[] = [];
    const stop = connection.subscribe(0, batch => events.push(...batch.events));
    const {mcpUrl, token} = readyInfo();
    const client = new Client({name: 'desktop-test-agent', version: '1.0.0'});
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: {headers: {Authorization: `Bearer ${token}`}},
      }),
    );
    const result = await call(client, 'list_pages');
    expect(result.isError).toBe(false);
    await waitFor(
      () => events.some(e => e.event.type === 'toolCallEnded' && e.event.tool === 'list_pages'),
      20_000,
      'the call in the window',
    );
    expect(events.find(e => e.event.type === 'toolCallStarted')?.event).toMatchObject({
      tool: 'list_pages',
      client: {name: 'desktop-test-agent'},
    });
    expect(window.webContents.sentOn(IPC_CHANNELS.batch).length).toBeLessThan(events.length + 2);
    stop();
    await client.close();
  });

  it('refuses IPC from a foreign frame in the same window', async () => {
    const subframe = connectRenderer(
      fake.ipcMain!,
      window.webContents,
      frame('app://inspector/index.html', frame('app://inspector/index.html')),
    );
    await expect(subframe.invoke(IPC_CHANNELS.command, {type: 'getToken'})).rejects.toThrow(
      /subframe/,
    );
  });

  it('remembers the category switches the user makes', async () => {
    const reply = await connection.command({
      type: 'setCategoryEnabled',
      category: 'memory',
      enabled: false,
    });
    expect(reply.ok, JSON.stringify(reply)).toBe(true);
    await waitFor(
      () => loadSettings(configDir).settings.categories?.memory === false,
      5_000,
      'saved categories',
    );
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.join(configDir, 'settings.json')).mode & 0o777).toBe(0o600);
    }
  });

  it('hands a second launch’s flags over: switches live, writes its ready file, names what needs a restart', async () => {
    // Switched off in the UI first; the handed-over flags say on.
    const off = await connection.command({
      type: 'setCategoryEnabled',
      category: 'memory',
      enabled: false,
    });
    expect(off.ok).toBe(true);
    appListener('second-instance')({}, ['/usr/bin/electron', 'out/main/index.js'], '/', {
      argv: [
        '--category-pwa',
        '--category-memory',
        '--port',
        '1234',
        '--readyFile',
        handedOverReadyFile,
      ],
      cwd: configDir,
    });
    await waitFor(() => fs.existsSync(handedOverReadyFile), 10_000, 'the handed-over ready file');
    expect(readyInfo(handedOverReadyFile).mcpUrl).toBe(readyInfo().mcpUrl);
    expect(window.focus).toHaveBeenCalled();
    const state = await connection.command({type: 'getState'});
    const categories = (state as {ok: true; value: InspectorState}).value.categories;
    expect(categories.find(category => category.id === 'pwa')?.enabled).toBe(true);
    // memory was switched off in the UI (the launch flags still say on): it comes back on.
    expect(categories.find(category => category.id === 'memory')?.enabled).toBe(true);
    const notice = await waitFor(
      () =>
        fake.dialog.showMessageBox.mock.calls
          .map(args => JSON.stringify(args.at(-1)))
          .find(text => text.includes('Restart')),
      5_000,
      'the restart notice',
    );
    expect(notice).toContain(
      'Switched categories: pwa on, memory on. Restart MCP Browser Inspector to apply --port',
    );
    expect(fake.windows).toHaveLength(1);
  });

  it('opens Hold on a held call by default, and remembers when the person turns that off', async () => {
    const state = await connection.command({type: 'holdGetState'});
    expect(state.ok && state.value.openOnHeld).toBe(true);
    const off = await connection.command({type: 'holdSetOpenOnHeld', openOnHeld: false});
    expect(off.ok && off.value.openOnHeld).toBe(false);
    await waitFor(
      () => loadSettings(configDir).settings.openHoldOnHeld === false,
      5_000,
      'the saved choice',
    );
  });

  it('flashes the background window and notifies on a held call; a click shows the Hold tab', async () => {
    const rules = await connection.command({type: 'holdSetRules', rules: ['tool:list_pages']});
    expect(rules.ok).toBe(true);
    const {mcpUrl, token} = readyInfo();
    const client = new Client({name: 'held-agent', version: '1.0.0'});
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpUrl), {
        requestInit: {headers: {Authorization: `Bearer ${token}`}},
      }),
    );
    try {
      const pending = call(client, 'list_pages');
      const notification = await waitFor(
        () => fake.notifications.find(candidate => candidate.shown),
        10_000,
        'the notification',
      );
      expect(notification.options.title).toBe('list_pages is held for your decision');
      expect(notification.options.body).toMatch(
        /^From held-agent: .*Denied in 5 min unless you decide\.$/,
      );
      expect(window.flashFrame).toHaveBeenCalledWith(true);
      notification.click();
      expect(window.focus).toHaveBeenCalled();
      expect(window.flashFrame).toHaveBeenLastCalledWith(false);
      await waitFor(
        () => window.webContents.sentOn(IPC_CHANNELS.show).length > 0,
        5_000,
        'the show message',
      );
      expect(window.webContents.sentOn(IPC_CHANNELS.show)).toEqual([{kind: 'show', panel: 'hold'}]);
      await connection.command({type: 'holdSetRules', rules: []});
      await connection.command({type: 'holdAllowAll'});
      expect((await pending).isError).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('remembers the window bounds when it closes', () => {
    window.emit('close');
    expect(loadSettings(configDir).settings.window).toEqual({
      x: 40,
      y: 50,
      width: 1111,
      height: 777,
      maximized: false,
    });
  });

  // The app's end: every test above sets up what it checks itself; this one stops the engine.
  it('quits cleanly: the first quit is held until the engine stopped, then repeated', async () => {
    const {mcpUrl} = readyInfo();
    const preventDefault = vi.fn();
    appListener('before-quit')({preventDefault});
    expect(preventDefault).toHaveBeenCalled();
    await waitFor(
      () => fake.app.quit.mock.calls.length > 0,
      15_000,
      'app.quit after the engine stopped',
    );
    await expect(fetch(mcpUrl, {method: 'POST'})).rejects.toThrow();
    expect(logs.join('')).toContain('MCP Browser Inspector');
  });
});
