/**
 * Tests: src/core/browser/launch/launchArguments.ts, src/core/browser/launch/executable.ts,
 *   src/core/browser/launch/ManagedBrowser.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {afterAll, describe, expect, it} from 'vitest';
import {launchArguments} from '../../../src/core/browser/launch/launchArguments.js';
import {
  ExecutableNotFoundError,
  findExecutable,
  mergeDisableFeatures,
  mergeEnableFeatures,
} from '../../../src/core/browser/launch/executable.js';
import {parseFlags} from '../../../src/core/config/flags.js';
import {call, pageIdFrom, startEngine} from '../../helpers/engine.js';
import {launchDebuggableChromium, type DebuggableChromium} from '../../helpers/chromium.js';
import {FixtureServer} from '../../helpers/fixtureServer.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

describe('executable discovery', () => {
  it('prefers --executablePath, then CHROME_PATH, then the usual locations', () => {
    expect(findExecutable({executablePath: CHROMIUM, env: {}, platform: 'linux'})).toBe(
      fs.realpathSync(CHROMIUM) === CHROMIUM ? CHROMIUM : path.resolve(CHROMIUM),
    );
    expect(findExecutable({env: {CHROME_PATH: CHROMIUM}, platform: 'linux'})).toBe(CHROMIUM);
    expect(findExecutable({env: {}, platform: 'linux'})).toMatch(/chrom/);
  });

  it('fails with one message listing what was tried and how to fix it', () => {
    let message = '';
    try {
      findExecutable({env: {LOCALAPPDATA: 'C:\\nowhere'}, platform: 'win32'});
    } catch (error) {
      expect(error).toBeInstanceOf(ExecutableNotFoundError);
      message = error instanceof Error ? error.message : '';
    }
    expect(message).toContain('No Chrome or Chromium browser found. Tried:');
    expect(message).toContain('chrome.exe (default location)');
    expect(message).toContain('--executablePath');
    expect(message).toContain('CHROME_PATH');
    expect(message).toContain('--browserUrl');

    expect(() =>
      findExecutable({executablePath: '/no/such/chrome', env: {}, platform: 'linux'}),
    ).toThrow('--executablePath /no/such/chrome is not an executable file.');
    expect(() => findExecutable({channel: 'canary', env: {}, platform: 'darwin'})).toThrow(
      /Google Chrome Canary\.app.*--channel canary/s,
    );
  });

  it('merges WebMCP into the user’s --enable-features instead of adding a second switch', () => {
    expect(mergeEnableFeatures(['--lang=de'], ['WebMCP'])).toEqual([
      '--lang=de',
      '--enable-features=WebMCP',
    ]);
    expect(
      mergeEnableFeatures(
        ['--enable-features=Foo,Bar', '--mute-audio', '--enable-features=Baz'],
        ['WebMCP'],
      ),
    ).toEqual(['--mute-audio', '--enable-features=Foo,Bar,Baz,WebMCP']);
    expect(mergeEnableFeatures(['--enable-features=WebMCP'], ['WebMCP'])).toEqual([
      '--enable-features=WebMCP',
    ]);
  });

  it('merges the start-up features it turns off into the user’s --disable-features', () => {
    expect(
      mergeDisableFeatures(['--disable-features=Foo', '--lang=de'], ['WebUIOmniboxPopup']),
    ).toEqual(['--lang=de', '--disable-features=Foo,WebUIOmniboxPopup']);
    const parsed = parseFlags(['--chromeArg=--disable-features=Foo', '--headless'], {
      env: {},
      hasDisplay: true,
    });
    if (parsed.kind !== 'config') {
      throw new Error('bad flags');
    }
    expect(
      launchArguments(parsed.config.browser, false).filter(arg =>
        arg.startsWith('--disable-features'),
      ),
    ).toEqual(['--disable-features=Foo,WebUIOmniboxPopup,WebUIOmniboxAimPopup']);
  });

  it('builds the launch arguments from the flags', () => {
    const parsed = parseFlags(
      ['--chromeArg=--enable-features=Foo', '--proxyServer=http://127.0.0.1:3128', '--headless'],
      {env: {}, hasDisplay: true},
    );
    if (parsed.kind !== 'config') {
      throw new Error('bad flags');
    }
    const args = launchArguments(parsed.config.browser, true);
    expect(args).toContain('--no-sandbox');
    expect(args).toContain('--proxy-server=http://127.0.0.1:3128');
    expect(args).toContain('--window-size=1280,720');
    expect(args.filter(arg => arg.startsWith('--enable-features'))).toEqual([
      '--enable-features=Foo,WebMCP',
    ]);
    expect(launchArguments(parsed.config.browser, false)).not.toContain('--no-sandbox');
  });
});

describe('a launched browser', () => {
  it('starts no browser-UI renderers beside the page (the omnibox popup pages stay off)', async () => {
    const engine = await startEngine();
    try {
      const client = await engine.connect();
      const listed = await call(client, 'list_pages');
      expect(listed.text).toContain('about:blank');
      const chromium = engine.engine.browser.chromium;
      if (!chromium) {
        throw new Error('the browser did not start');
      }
      // Every target of the browser, also those the page list hides (chrome:// pages).
      const cdp = await chromium.target().createCDPSession();
      const {targetInfos} = await cdp.send('Target.getTargets');
      await cdp.detach();
      const urls = targetInfos.map(target => target.url);
      expect(urls).toContain('about:blank');
      expect(urls.filter(url => url.startsWith('chrome://omnibox-popup'))).toEqual([]);
    } finally {
      await engine.stop();
    }
  });
});

describe('attaching to a running browser', () => {
  let chromium: DebuggableChromium | undefined;
  const server = new FixtureServer();

  afterAll(async () => {
    await chromium?.stop();
    await server.stop();
  });

  it('connects with --browserUrl and --wsEndpoint, and only disconnects on stop', async () => {
    await server.start();
    chromium = await launchDebuggableChromium();

    const viaUrl = await startEngine(['--browserUrl', chromium.browserUrl]);
    try {
      const client = await viaUrl.connect();
      const opened = await call(client, 'new_page', {url: server.url('/index.html')});
      expect(opened.text).toContain('Fixture home');
      expect(viaUrl.engine.browser.status).toMatchObject({state: 'running', mode: 'connect'});
      expect(viaUrl.engine.browser.isLocal).toBe(true);
      const id = pageIdFrom(opened.text, 'index.html');
      await call(client, 'close_page', {pageId: id});
    } finally {
      await viaUrl.stop();
    }
    // We attached, so stopping must leave the user's browser running.
    expect(chromium.alive()).toBe(true);

    const viaWs = await startEngine([
      '--wsEndpoint',
      chromium.wsEndpoint,
      '--wsHeaders',
      '{"X-Test":"1"}',
      '--categoryExtensions',
    ]);
    try {
      const client = await viaWs.connect();
      const listing = await call(client, 'list_pages');
      expect(listing.text).toContain('## Pages');
      // Extensions need a browser launched over a pipe: the error says what to restart.
      const extensions = await call(client, 'list_extensions');
      expect(extensions.isError).toBe(true);
      expect(extensions.text).toContain('this one is attached via --wsEndpoint');
      expect(extensions.text).toContain('Restart the server without --browserUrl/--wsEndpoint');
    } finally {
      await viaWs.stop();
    }
    expect(chromium.alive()).toBe(true);
  });

  it('explains a failed connection with the exact fix', async () => {
    const unreachable = await startEngine(['--browserUrl', 'http://127.0.0.1:9']);
    try {
      const client = await unreachable.connect();
      const result = await call(client, 'list_pages');
      expect(result.isError).toBe(true);
      expect(result.text).toContain('Could not connect to the browser at http://127.0.0.1:9');
      expect(result.text).toContain('--remote-debugging-port=9222');
      expect(unreachable.engine.browser.status.state).toBe('error');
    } finally {
      await unreachable.stop();
    }
  });
});
