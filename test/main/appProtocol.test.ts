import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {
  APP_CSP,
  APP_ENTRY_URL,
  createAppProtocolHandler,
  originOf,
  resolveAppPath,
} from '../../src/main/appProtocol.js';

// Created at load time: the traversal table below needs the real path of the secret.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-protocol-'));
const rendererDir = path.join(root, 'renderer');

beforeAll(() => {
  fs.mkdirSync(path.join(rendererDir, 'assets'), {recursive: true});
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><p>inspector</p>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  // A secret next to the renderer folder: what every traversal below tries to reach.
  fs.writeFileSync(path.join(root, 'secret.txt'), 'top secret');
});

afterAll(() => fs.rmSync(root, {recursive: true, force: true}));

describe('app protocol', () => {
  const handler = () => createAppProtocolHandler(rendererDir);

  it('serves index.html for the entry URL and the bare origin, with the CSP header', async () => {
    for (const url of [APP_ENTRY_URL, 'app://inspector/', 'app://inspector']) {
      const response = await handler()({url, method: 'GET'});
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(APP_CSP);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('inspector');
    }
  });

  it('has a strict CSP: scripts only from the app, no eval, nothing framed or embedded', () => {
    expect(APP_CSP).toContain("default-src 'none'");
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).not.toContain('unsafe-eval');
    expect(APP_CSP).not.toContain('unsafe-inline');
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("frame-ancestors 'none'");
  });

  it('serves assets with their content type', async () => {
    const response = await handler()({url: 'app://inspector/assets/app.js', method: 'GET'});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await response.text()).toBe('console.log(1)');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await handler()({url: APP_ENTRY_URL, method: 'HEAD'});
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await handler()({url: APP_ENTRY_URL, method: 'POST'});
    expect(post.status).toBe(405);
  });

  it.each([
    ['dot-dot segment', 'app://inspector/../secret.txt'],
    ['nested dot-dot', 'app://inspector/assets/../../secret.txt'],
    ['encoded dot-dot', 'app://inspector/%2e%2e/secret.txt'],
    ['mixed-case encoded dot-dot', 'app://inspector/%2E%2e/secret.txt'],
    ['encoded slash', 'app://inspector/..%2fsecret.txt'],
    ['encoded backslash', 'app://inspector/..%5csecret.txt'],
    ['backslash', 'app://inspector/..\\secret.txt'],
    ['absolute path', `app://inspector/${encodeURIComponent(path.join(root, 'secret.txt'))}`],
    [
      'double slash absolute',
      `app://inspector/${path.join(root, 'secret.txt')}`.replace('inspector/', 'inspector//'),
    ],
    ['windows drive', 'app://inspector/C:/Windows/win.ini'],
    ['NUL byte', 'app://inspector/index.html%00.png'],
    ['dot segment', 'app://inspector/./index.html'],
  ])('refuses path traversal: %s', async (_name, url) => {
    const response = await handler()({url, method: 'GET'});
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).not.toContain('top secret');
    expect(resolveAppPath(url, 'GET', rendererDir).kind).toBe('refused');
  });

  it('refuses a URL normalised by the URL parser too (what Electron hands over)', async () => {
    // new URL() folds ../ away; what is left must still resolve inside the renderer folder.
    const request = new Request('app://inspector/../../secret.txt');
    const response = await handler()(request);
    expect(await response.text()).not.toContain('top secret');
  });

  it('refuses other hosts and schemes', async () => {
    for (const url of [
      'app://evil/index.html',
      'file:///etc/passwd',
      'https://inspector/index.html',
    ]) {
      const response = await handler()({url, method: 'GET'});
      expect(response.status).toBe(403);
    }
  });

  it('answers 404 for a missing file and malformed encoding with 400', async () => {
    expect((await handler()({url: 'app://inspector/nope.js', method: 'GET'})).status).toBe(404);
    expect((await handler()({url: 'app://inspector/%E0%A4%A', method: 'GET'})).status).toBe(400);
  });

  it('originOf gives scheme://host for custom schemes (whose WHATWG origin is "null")', () => {
    expect(new URL('app://inspector/index.html').origin).toBe('null');
    expect(originOf('app://inspector/index.html')).toBe('app://inspector');
    expect(originOf('http://localhost:5173/x')).toBe('http://localhost:5173');
    expect(originOf('about:blank')).toBeUndefined();
    expect(originOf('not a url')).toBeUndefined();
  });
});
