/**
 * Electron main process: the thin shell around the engine. It owns the lifecycle (single
 * instance, second launches, quit) and sets up the app protocol, the security policy, the IPC
 * bridge and the one window (mainWindow.ts); the engine does the work and also keeps serving MCP over HTTP at the same /mcp contract as headless
 * mode. Everything with logic in it lives in the small modules imported below, which take
 * Electron objects as parameters and are tested without Electron.
 */
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {app, dialog, ipcMain, Notification, protocol, session} from 'electron';
import {detectDisplay, parseFlags} from '../core/config/flags.js';
import {pathFlagProblem} from '../core/config/pathFlags.js';
import {type ServerConfig} from '../core/config/serverConfig.js';
import {userConfigDir} from '../core/config/paths.js';
import {
  categorySettings,
  loadSettings,
  settingsToArgs,
  updateSettings,
  type Settings,
} from './settings.js';
import type {Engine} from '../core/Engine.js';
import {findRendererDir} from '../core/http/static.js';
import {readVersion} from '../core/version.js';
import {TOOL_CATEGORIES} from '../shared/categories.js';
import {APP_NAME} from '../shared/constants.js';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
  originOf,
} from './appProtocol.js';
import {engineEndpoint} from './engineEndpoint.js';
import {watchHeldCalls, type HeldAttention} from './heldAttention.js';
import {describeHandOver, extractUserArgs, handOverArgs, planHandOver} from './handOver.js';
import {registerInspectorBridge, type InspectorBridgeHandle} from './inspectorBridge.js';
import {createIpcIngress} from './ipcIngress.js';
import {installContentPolicy, MainWindow} from './mainWindow.js';
import {applyPermissionPolicy} from './policy.js';
import {createQuitGate, ENGINE_STOP_TIMEOUT_MS, stopWithin} from './shutdown.js';
import {errorText} from '../shared/values.js';
import {keepServingOnUncaughtErrors} from '../core/processGuard.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

const configDir = userConfigDir();
// Chromium's own profile (caches, local storage) stays apart from the token and settings files.
app.setPath('userData', path.join(configDir, 'desktop'));
app.enableSandbox();
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

const userArgs = extractUserArgs(process.argv, app.isPackaged);
const loaded = loadSettings(configDir);
const parsed = parseFlags([...settingsToArgs(loaded.settings), ...userArgs], {
  env: process.env,
  hasDisplay: detectDisplay(process.env, process.platform),
});

/** The dev server (electron-vite dev) in development; never in a packaged app, only loopback. */
function devRendererUrl(): string | undefined {
  const raw = process.env.ELECTRON_RENDERER_URL;
  if (app.isPackaged || raw === undefined) {
    return undefined;
  }
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
      ? url.href
      : undefined;
  } catch {
    return undefined;
  }
}

function remember(change: Partial<Settings>): void {
  try {
    updateSettings(change, configDir);
  } catch (error) {
    log(`Could not save settings: ${errorText(error)}`);
  }
}

function logFailure(error: unknown): void {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
}

/** What the shell holds once it runs: the engine, its IPC bridge and the window. */
interface Desktop {
  engine?: Engine;
  bridge?: InspectorBridgeHandle;
  mainWindow: MainWindow;
  /** Flashes the window and notifies while a call is held in the background. */
  attention?: HeldAttention;
  /** The origins of the UI: the app protocol's, and the dev server's in development. */
  allowedOrigins: string[];
}

function start(config: ServerConfig): void {
  const devUrl = devRendererUrl();
  const devOrigin = devUrl === undefined ? undefined : originOf(devUrl);
  const desktop: Desktop = {
    mainWindow: new MainWindow({
      bundleDir: here,
      entryUrl: devUrl ?? APP_ENTRY_URL,
      savedBounds: () => loadSettings(configDir).settings.window,
      remember,
      onFocus: () => desktop.attention?.windowFocused(),
    }),
    allowedOrigins: devOrigin === undefined ? [APP_ORIGIN] : [APP_ORIGIN, devOrigin],
  };
  installContentPolicy(desktop.mainWindow, desktop.allowedOrigins, log);
  const ready = app.whenReady().then(() => launch(config, desktop));
  ready.catch((error: unknown) => {
    log(
      `${APP_NAME} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    app.exit(1);
  });
  handleAppEvents(desktop, ready);
}

/** Once Electron is ready: the app protocol, the engine and its HTTP server, the bridge, the window. */
async function launch(config: ServerConfig, desktop: Desktop): Promise<void> {
  applyPermissionPolicy(session.defaultSession, log);
  const rendererDir = findRendererDir(here);
  if (rendererDir === undefined) {
    dialog.showErrorBox(
      APP_NAME,
      'The inspector UI is not built. Run "npm run build" and start again.',
    );
    app.exit(1);
    return;
  }
  protocol.handle(APP_SCHEME, createAppProtocolHandler(rendererDir));

  // Loaded only now: a start that fails its flag or path checks never reads the engine's code.
  const {Engine, PortInUseError} = await import('../core/Engine.js');
  const running = new Engine(config, {
    version: readVersion(here),
    log,
    rendererDir,
    configDir,
    // On unless the person switched it off: the desktop window is for watching the agent.
    openHoldOnHeld: loaded.settings.openHoldOnHeld ?? true,
  });
  desktop.engine = running;
  // Whatever ends the app (a quit past its bound, app.exit, a crash), no browser process stays.
  process.on('exit', () => {
    running.browser.endProcessesNow();
    running.announcements.removeAll();
  });
  try {
    await running.startHttp(false);
  } catch (error) {
    const message = errorText(error);
    dialog.showErrorBox(
      APP_NAME,
      error instanceof PortInUseError ? message : `Could not start: ${message}`,
    );
    await running.stop();
    app.exit(1);
    return;
  }
  if (config.port !== 0 && config.port !== loaded.settings.port) {
    remember({port: config.port});
  }
  rememberCategories(running);
  rememberHoldChoice(running);

  desktop.bridge = registerInspectorBridge(
    createIpcIngress(ipcMain, {allowedOrigins: desktop.allowedOrigins, log}),
    engineEndpoint(running),
    log,
  );
  desktop.mainWindow.open();
  desktop.attention = watchHeldCalls({
    onEvent: listener => running.hub.onEvent(envelope => listener(envelope.event)),
    window: () => desktop.mainWindow.current,
    notify: (text, onClick) => {
      if (!Notification.isSupported()) {
        return undefined;
      }
      const notification = new Notification({title: text.title, body: text.body});
      notification.on('click', onClick);
      notification.show();
      return notification;
    },
    showHold: () => desktop.mainWindow.showPanel('hold'),
  });
  if (config.stdio) {
    process.stdin.on('end', () => app.quit());
    await running.connectStdio();
  }
  running.announcements.announce('desktop', config.stdio);
  if (config.readyFile !== undefined) {
    running.writeReadyFile(config.readyFile);
  }
  log(running.startupLine());
}

/** Category switches are remembered as the user leaves them (not in --slim, where none apply). */
function rememberCategories(running: Engine): void {
  let saved = JSON.stringify(loaded.settings.categories ?? {});
  const save = (): void => {
    if (running.catalog.slim) {
      return;
    }
    const categories = categorySettings(running.catalog.categoryStates());
    const json = JSON.stringify(categories);
    if (json !== saved) {
      saved = json;
      remember({categories});
    }
  };
  save();
  running.hub.onEvent(envelope => {
    if (envelope.event.type === 'toolsChanged') {
      save();
    }
  });
}

/** The Hold tab's "open it when a call is held" choice is remembered as the person leaves it. */
function rememberHoldChoice(running: Engine): void {
  running.hub.onEvent(envelope => {
    if (envelope.event.type === 'holdOpenOnHeldChanged') {
      remember({openHoldOnHeld: envelope.event.openOnHeld});
    }
  });
}

/** A second launch hands its flags over: switches apply at once, the rest is reported. */
async function takeHandOver(
  desktop: Desktop,
  engine: Engine,
  argv: string[],
  additionalData: unknown,
): Promise<void> {
  // Compared with the switches as they are now (the user may have toggled some in the UI).
  const categories = {...engine.config.categories};
  for (const state of engine.catalog.categoryStates()) {
    categories[state.id] = state.enabled;
  }
  const plan = planHandOver(handOverArgs(additionalData, argv, app.isPackaged), {
    ...engine.config,
    categories,
  });
  for (const category of TOOL_CATEGORIES) {
    const enabled = plan.categories[category];
    if (enabled === undefined) {
      continue;
    }
    const reply = await engine.handleCommand({type: 'setCategoryEnabled', category, enabled});
    if (!reply.ok) {
      log(`Could not switch ${category}: ${reply.error}`);
    }
  }
  if (plan.readyFile !== undefined) {
    engine.writeReadyFile(plan.readyFile);
  }
  for (const warning of plan.warnings) {
    log(`Second launch: ${warning}`);
  }
  const summary = describeHandOver(plan);
  if (summary !== undefined) {
    log(summary);
    if (plan.error !== undefined || plan.needsRestart.length > 0) {
      void desktop.mainWindow.messageBox({
        type: 'info',
        title: APP_NAME,
        message: summary,
        buttons: ['OK'],
      });
    }
  }
}

/** Second launches, windows closing and coming back, and a bounded quit. */
function handleAppEvents(desktop: Desktop, ready: Promise<void>): void {
  app.on('second-instance', (_event, argv, _cwd, additionalData) => {
    void ready
      .then(async () => {
        const engine = desktop.engine;
        if (!engine) {
          return;
        }
        desktop.mainWindow.show();
        await takeHandOver(desktop, engine, argv, additionalData);
      })
      .catch(logFailure);
  });

  app.on('window-all-closed', () => {
    // macOS apps stay in the dock without windows; the MCP server keeps serving agents meanwhile.
    if (process.platform !== 'darwin') {
      app.quit();
    }
  });
  app.on('activate', () => {
    void ready
      .then(() => {
        if (desktop.engine) {
          desktop.mainWindow.open();
        }
      })
      .catch(logFailure);
  });
  app.on(
    'before-quit',
    createQuitGate(
      async () => {
        desktop.bridge?.dispose();
        desktop.attention?.dispose();
        const engine = desktop.engine;
        if (engine) {
          await stopWithin(() => engine.stop(), ENGINE_STOP_TIMEOUT_MS, log);
        }
      },
      () => app.quit(),
    ),
  );
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => app.quit());
  }
  keepServingOnUncaughtErrors(log);
}

switch (parsed.kind) {
  case 'help':
    process.stdout.write(`${parsed.text}\n`);
    app.exit(0);
    break;
  case 'version':
    process.stdout.write(`${readVersion(here)}\n`);
    app.exit(0);
    break;
  case 'error':
    log(`${APP_NAME}: ${parsed.message}`);
    dialog.showErrorBox(APP_NAME, `${parsed.message}\n\nRun with --help to see all flags.`);
    app.exit(2);
    break;
  case 'config': {
    // As headless: a stale ready file goes first, and a bad path flag ends the start at once.
    const pathProblem = pathFlagProblem(parsed.config);
    if (pathProblem !== undefined) {
      log(`${APP_NAME}: ${pathProblem}`);
      dialog.showErrorBox(APP_NAME, pathProblem);
      app.exit(2);
      break;
    }
    if (loaded.warning !== undefined) {
      log(loaded.warning);
    }
    for (const warning of parsed.warnings) {
      log(`Warning: ${warning}`);
    }
    if (app.requestSingleInstanceLock({argv: userArgs, cwd: process.cwd()})) {
      start(parsed.config);
    } else {
      log(
        `${APP_NAME} is already running: its window was focused and these flags were handed to it.`,
      );
      app.exit(0);
    }
    break;
  }
}
