/**
 * The main window's options and placement. Security-relevant preferences are stated explicitly
 * (even where they match Electron's defaults) so a test and a reader can see them in one place.
 */
import type {BrowserWindowConstructorOptions} from 'electron';
import {APP_NAME} from '../shared/constants.js';
import type {WindowBounds} from './settings.js';

export const DEFAULT_WINDOW_SIZE = {width: 1280, height: 820} as const;
export const MIN_WINDOW_SIZE = {width: 720, height: 480} as const;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowPlacement {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** Pixels of the window's top strip that must be on a screen for a saved position to be kept. */
const GRAB_STRIP = {width: 120, height: 40};

function overlap(a: Rect, b: Rect): {width: number; height: number} {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Where to open the window: the saved bounds if the title bar would still be reachable on one of
 * today's displays (a monitor may have been unplugged), else the saved size centred by Electron.
 * Sizes are clamped to the minimum and to the largest display.
 */
export function placeWindow(
  saved: WindowBounds | undefined,
  workAreas: readonly Rect[],
): WindowPlacement {
  const largest = workAreas.reduce(
    (max, area) => ({
      width: Math.max(max.width, area.width),
      height: Math.max(max.height, area.height),
    }),
    {width: 0, height: 0},
  );
  const clamp = (value: number, min: number, max: number): number =>
    Math.max(min, max > 0 ? Math.min(value, max) : value);
  const width = clamp(
    saved?.width ?? DEFAULT_WINDOW_SIZE.width,
    MIN_WINDOW_SIZE.width,
    largest.width,
  );
  const height = clamp(
    saved?.height ?? DEFAULT_WINDOW_SIZE.height,
    MIN_WINDOW_SIZE.height,
    largest.height,
  );
  const placement: WindowPlacement = {width, height, maximized: saved?.maximized ?? false};
  if (saved?.x === undefined || saved.y === undefined) {
    return placement;
  }
  const titleBar: Rect = {x: saved.x, y: saved.y, width, height: GRAB_STRIP.height};
  const reachable = workAreas.some(area => {
    const visible = overlap(titleBar, area);
    return (
      visible.width >= Math.min(GRAB_STRIP.width, width) && visible.height >= GRAB_STRIP.height / 2
    );
  });
  return reachable ? {...placement, x: saved.x, y: saved.y} : placement;
}

export interface MainWindowInputs {
  preloadPath: string;
  iconPath: string | undefined;
  placement: WindowPlacement;
}

export function mainWindowOptions(inputs: MainWindowInputs): BrowserWindowConstructorOptions {
  const {placement} = inputs;
  return {
    title: APP_NAME,
    width: placement.width,
    height: placement.height,
    ...(placement.x === undefined || placement.y === undefined
      ? {}
      : {x: placement.x, y: placement.y}),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    // Shown on 'ready-to-show', so the user never sees an empty white frame.
    show: false,
    backgroundColor: '#111318',
    ...(inputs.iconPath === undefined ? {} : {icon: inputs.iconPath}),
    webPreferences: {
      preload: inputs.preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
    },
  };
}

/** What to remember when the window closes: the un-maximised bounds plus whether it was maximised. */
export function boundsToSave(normalBounds: Rect, maximized: boolean): WindowBounds {
  return {
    x: Math.round(normalBounds.x),
    y: Math.round(normalBounds.y),
    width: Math.max(MIN_WINDOW_SIZE.width, Math.round(normalBounds.width)),
    height: Math.max(MIN_WINDOW_SIZE.height, Math.round(normalBounds.height)),
    maximized,
  };
}
