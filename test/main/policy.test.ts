import {describe, expect, it, vi} from 'vitest';
import {
  appUrlMatcher,
  applyPermissionPolicy,
  applyWebContentsPolicy,
  createExternalLinkOpener,
  externalLinkTarget,
  type NavigationEvent,
  type PolicedContents,
} from '../../src/main/policy.js';

type Listener = (event: NavigationEvent) => void;

/** A webContents stand-in that records the policy's listeners and window-open handler. */
function fakeContents() {
  const listeners = new Map<string, Listener[]>();
  let openHandler: ((details: {url: string}) => {action: 'deny'}) | undefined;
  const contents: PolicedContents = {
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return contents;
    },
    setWindowOpenHandler(handler) {
      openHandler = handler;
    },
  };
  const fire = (name: string, url: string, isMainFrame?: boolean) => {
    const event = {url, isMainFrame, preventDefault: vi.fn()};
    for (const listener of listeners.get(name) ?? []) {
      listener(event);
    }
    return event.preventDefault.mock.calls.length > 0;
  };
  return {
    contents,
    fire,
    open: (url: string) => {
      if (!openHandler) {
        throw new Error('no window-open handler installed');
      }
      return openHandler({url});
    },
  };
}

function setup() {
  const openExternal = vi.fn(() => Promise.resolve('opened' as const));
  const fake = fakeContents();
  applyWebContentsPolicy(fake.contents, {
    isAppUrl: appUrlMatcher(['app://inspector']),
    openExternal,
  });
  return {...fake, openExternal};
}

describe('navigation policy', () => {
  it('lets the app navigate within its own origin', () => {
    const {fire, openExternal} = setup();
    expect(fire('will-navigate', 'app://inspector/index.html#log', true)).toBe(false);
    expect(fire('will-redirect', 'app://inspector/index.html')).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it.each([
    'https://example.com/',
    'http://127.0.0.1:7624/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'app://evil/index.html',
    'data:text/html,<p>x</p>',
  ])('prevents navigating away to %s and offers it to the external opener', url => {
    const {fire, openExternal} = setup();
    expect(fire('will-navigate', url, true)).toBe(true);
    expect(openExternal).toHaveBeenCalledWith(url);
  });

  it('prevents redirects and subframe navigations away from the app', () => {
    const {fire, openExternal} = setup();
    expect(fire('will-redirect', 'https://example.com/')).toBe(true);
    expect(fire('will-frame-navigate', 'https://example.com/', false)).toBe(true);
    expect(fire('will-frame-navigate', 'app://inspector/frame.html', false)).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('refuses webviews', () => {
    const {fire} = setup();
    expect(fire('will-attach-webview', 'about:blank')).toBe(true);
  });

  it('denies every new window and hands the URL to the confirm-then-open flow', () => {
    const {open, openExternal} = setup();
    for (const url of [
      'https://example.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'about:blank',
    ]) {
      expect(open(url)).toEqual({action: 'deny'});
      expect(openExternal).toHaveBeenLastCalledWith(url);
    }
  });
});

describe('external links', () => {
  it('accepts only parsed http(s) URLs without credentials', () => {
    expect(externalLinkTarget('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(externalLinkTarget('HTTP://Example.com')).toBe('http://example.com/');
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,x',
      'ms-settings:',
      'chrome://settings',
      'https://bank.example@evil.example/',
      'not a url',
      '//example.com',
    ]) {
      expect(externalLinkTarget(url), url).toBeUndefined();
    }
  });

  it('opens an http(s) link only after the user confirms', async () => {
    const confirm = vi.fn(() => Promise.resolve(true));
    const openExternal = vi.fn(() => Promise.resolve());
    const opener = createExternalLinkOpener({confirm, openExternal});
    expect(await opener('https://example.com/docs')).toBe('opened');
    expect(confirm).toHaveBeenCalledWith('https://example.com/docs');
    expect(openExternal).toHaveBeenCalledWith('https://example.com/docs');
  });

  it('does not open when the user cancels', async () => {
    const openExternal = vi.fn(() => Promise.resolve());
    const opener = createExternalLinkOpener({confirm: () => Promise.resolve(false), openExternal});
    expect(await opener('https://example.com/')).toBe('cancelled');
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('refuses javascript: and file: without even asking', async () => {
    const confirm = vi.fn(() => Promise.resolve(true));
    const openExternal = vi.fn(() => Promise.resolve());
    const log = vi.fn();
    const opener = createExternalLinkOpener({confirm, openExternal, log});
    expect(await opener('javascript:alert(1)')).toBe('refused');
    expect(await opener('file:///etc/passwd')).toBe('refused');
    expect(confirm).not.toHaveBeenCalled();
    expect(openExternal).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('asks one question at a time (window.open spam gets one dialog)', async () => {
    let answer: (yes: boolean) => void = () => undefined;
    const confirm = vi.fn(() => new Promise<boolean>(resolve => (answer = resolve)));
    const openExternal = vi.fn(() => Promise.resolve());
    const opener = createExternalLinkOpener({confirm, openExternal});
    const first = opener('https://example.com/1');
    expect(await opener('https://example.com/2')).toBe('busy');
    answer(true);
    expect(await first).toBe('opened');
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
});

describe('permission policy', () => {
  it('denies permission requests, checks and devices', () => {
    let request:
      ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: ((wc: unknown, permission: string) => boolean) | undefined;
    let device: ((details: unknown) => boolean) | undefined;
    const log = vi.fn();
    applyPermissionPolicy(
      {
        setPermissionRequestHandler: handler => (request = handler),
        setPermissionCheckHandler: handler => (check = handler),
        setDevicePermissionHandler: handler => (device = handler),
      },
      log,
    );
    for (const permission of [
      'media',
      'notifications',
      'geolocation',
      'clipboard-read',
      'openExternal',
    ]) {
      const callback = vi.fn();
      request?.({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(check?.({}, permission)).toBe(false);
    }
    expect(device?.({deviceType: 'usb'})).toBe(false);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('"media"'));
  });
});
