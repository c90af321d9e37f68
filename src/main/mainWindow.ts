/**
 * The one window of the desktop app: opened where it was left (windowOptions.ts holds its options
 * and placement), brought back or opened again on demand, its bounds remembered as it closes; the
 * navigation and window-open policy every web contents gets; and the message boxes shown over it.
 */
import fs from 'node:fs';
import path from 'node:path';
import {app, BrowserWindow, dialog, screen, shell, type MessageBoxOptions} from 'electron';
import {IPC_CHANNELS} from '../shared/connection.js';
import {APP_NAME} from '../shared/constants.js';
import type {ShowMessage} from '../shared/wire.js';
import {appUrlMatcher, applyWebContentsPolicy, createExternalLinkOpener} from './policy.js';
import type {Settings, WindowBounds} from './settings.js';
import {boundsToSave, mainWindowOptions, placeWindow} from './windowOptions.js';

export interface MainWindowOptions {
  /** The folder of the main bundle: the preload script and the icon are found from it. */
  bundleDir: string;
  /** The URL the window loads: the app protocol, or the dev server in development. */
  entryUrl: string;
  /** Where the window was left (read each time it opens). */
  savedBounds: () => WindowBounds | undefined;
  remember: (change: Partial<Settings>) => void;
  /** The person looked at the window. */
  onFocus: () => void;
}

export class MainWindow {
  #window: BrowserWindow | undefined;

  constructor(private readonly options: MainWindowOptions) {}

  /** The window while it is open. */
  get current(): BrowserWindow | undefined {
    return this.#window;
  }

  /** Opens the window unless it is open. */
  open(): void {
    this.#window ??= this.#create();
  }

  /** The window comes back (restored, focused, or opened again). */
  show(): void {
    const window = this.#window;
    if (window) {
      if (window.isMinimized()) {
        window.restore();
      }
      window.focus();
    } else {
      this.#window = this.#create();
    }
  }

  /** The window comes forward on a panel (once its page has loaded, if it was just opened). */
  showPanel(panel: ShowMessage['panel']): void {
    const before = this.#window;
    this.show();
    const window = this.#window;
    if (!window) {
      return;
    }
    const message: ShowMessage = {kind: 'show', panel};
    if (window === before) {
      window.webContents.send(IPC_CHANNELS.show, message);
    } else {
      window.webContents.once('did-finish-load', () =>
        window.webContents.send(IPC_CHANNELS.show, message),
      );
    }
  }

  /** A message box over the window (free-standing while it is closed); the button chosen. */
  messageBox(options: MessageBoxOptions): Promise<number> {
    const window = this.#window;
    const shown = window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options);
    return shown.then(result => result.response);
  }

  #create(): BrowserWindow {
    const {bundleDir, entryUrl, savedBounds, remember, onFocus} = this.options;
    const placement = placeWindow(
      savedBounds(),
      screen.getAllDisplays().map(display => display.workArea),
    );
    const icon = path.join(bundleDir, '../../resources/icon.png');
    const window = new BrowserWindow(
      mainWindowOptions({
        preloadPath: path.join(bundleDir, '../preload/index.cjs'),
        iconPath: fs.existsSync(icon) ? icon : undefined,
        placement,
      }),
    );
    if (placement.maximized) {
      window.maximize();
    }
    window.once('ready-to-show', () => window.show());
    window.on('focus', onFocus);
    window.on('close', () => {
      remember({window: boundsToSave(window.getNormalBounds(), window.isMaximized())});
    });
    window.on('closed', () => {
      if (this.#window === window) {
        this.#window = undefined;
      }
    });
    void window.loadURL(entryUrl);
    return window;
  }
}

/** Every web contents gets the navigation policy; links leave for the browser only when confirmed. */
export function installContentPolicy(
  mainWindow: MainWindow,
  allowedOrigins: readonly string[],
  log: (line: string) => void,
): void {
  const openExternal = createExternalLinkOpener({
    confirm: url =>
      mainWindow
        .messageBox({
          type: 'question',
          buttons: ['Open in browser', 'Cancel'],
          defaultId: 1,
          cancelId: 1,
          noLink: true,
          title: APP_NAME,
          message: 'Open this link in your default browser?',
          detail: url,
        })
        .then(response => response === 0),
    openExternal: url => shell.openExternal(url),
    log,
  });
  const policy = {isAppUrl: appUrlMatcher(allowedOrigins), openExternal};
  app.on('web-contents-created', (_event, contents) => applyWebContentsPolicy(contents, policy));
}
