import {describe, expect, it} from 'vitest';
import {boundsToSave, mainWindowOptions, placeWindow} from '../../src/main/windowOptions.js';

// The design's sizes, stated here rather than read from the module under test.
const DEFAULT_SIZE = {width: 1280, height: 820};
const MIN_SIZE = {width: 720, height: 480};
const screen = {x: 0, y: 0, width: 1920, height: 1040};
const rightScreen = {x: 1920, y: 0, width: 1280, height: 1000};

describe('main window options', () => {
  const options = mainWindowOptions({
    preloadPath: '/app/out/preload/index.cjs',
    iconPath: '/app/resources/icon.png',
    placement: {width: 1000, height: 700, x: 5, y: 6, maximized: false},
  });

  it('isolates the renderer: sandbox, context isolation, no Node anywhere', () => {
    expect(options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
    });
    expect(options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
  });

  it('loads the bundled CJS preload, the icon and the placement; shows when ready', () => {
    expect(options.webPreferences?.preload).toBe('/app/out/preload/index.cjs');
    expect(options.icon).toBe('/app/resources/icon.png');
    expect(options).toMatchObject({width: 1000, height: 700, x: 5, y: 6, show: false});
    expect(options).toMatchObject({minWidth: MIN_SIZE.width, minHeight: MIN_SIZE.height});
  });

  it('leaves the position to Electron (centred) when none is known', () => {
    const centred = mainWindowOptions({
      preloadPath: 'p',
      iconPath: undefined,
      placement: {width: 900, height: 600, maximized: false},
    });
    expect(centred).not.toHaveProperty('x');
    expect(centred).not.toHaveProperty('icon');
  });
});

describe('window placement', () => {
  it('uses the default size the first time', () => {
    expect(placeWindow(undefined, [screen])).toEqual({...DEFAULT_SIZE, maximized: false});
  });

  it('restores saved bounds that are on a screen', () => {
    const saved = {x: 2000, y: 100, width: 1000, height: 800, maximized: true};
    expect(placeWindow(saved, [screen, rightScreen])).toEqual(saved);
  });

  it('drops a position on a display that is gone, keeping the size', () => {
    const saved = {x: 2000, y: 100, width: 1000, height: 800, maximized: false};
    expect(placeWindow(saved, [screen])).toEqual({width: 1000, height: 800, maximized: false});
  });

  it('drops a position whose title bar would be off-screen', () => {
    expect(
      placeWindow({x: 100, y: -500, width: 1000, height: 800, maximized: false}, [screen]),
    ).not.toHaveProperty('x');
    expect(
      placeWindow({x: 1900, y: 10, width: 1000, height: 800, maximized: false}, [screen]),
    ).not.toHaveProperty('x');
  });

  it('clamps the size to the minimum and to the largest screen', () => {
    expect(placeWindow({width: 300, height: 200, maximized: false}, [screen])).toMatchObject(
      MIN_SIZE,
    );
    expect(
      placeWindow({width: 9000, height: 5000, maximized: false}, [screen, rightScreen]),
    ).toMatchObject({
      width: 1920,
      height: 1040,
    });
  });

  it('saves rounded normal bounds and the maximised state', () => {
    expect(boundsToSave({x: 10.4, y: 20.6, width: 1000.2, height: 700.7}, true)).toEqual({
      x: 10,
      y: 21,
      width: 1000,
      height: 701,
      maximized: true,
    });
  });
});
