/**
 * URL credentials in any form are found in text (a user name alone, a password holding a raw
 * `@`, ws/wss, percent-encoded inside another URL, inside JSON), nothing else is touched, and a
 * long hostile text is scanned in linear time.
 */
import {describe, expect, it} from 'vitest';
import {
  REDACTED,
  scrubUrlCredentials,
  urlSecrets,
  withoutUrlSecrets,
} from '../../src/shared/urlSecrets.js';
import {cpuMsOf} from '../helpers/loadFactor.js';

describe('scrubUrlCredentials', () => {
  it.each([
    ['https://tok3n-abcdef@host/x', `https://${REDACTED}@host/x`],
    ['https://u:p@ss@host/x', `https://${REDACTED}@host/x`],
    ['https://user:pw@host', `https://${REDACTED}@host`],
    ['wss://k:s3cret@browser.example/ws?x=1', `wss://${REDACTED}@browser.example/ws?x=1`],
    [
      'see ws://key@127.0.0.1:9222/devtools, then',
      `see ws://${REDACTED}@127.0.0.1:9222/devtools, then`,
    ],
    ['{"url":"http://a:b@c/d"}', `{"url":"http://${REDACTED}@c/d"}`],
    ['http://a:b%40c@host', `http://${REDACTED}@host`],
    [
      'go?next=https%3A%2F%2Fuser%3Apass%40evil.example%2Fp&x=1',
      `go?next=https%3A%2F%2F${REDACTED}%40evil.example%2Fp&x=1`,
    ],
    [
      'go?next=HTTPS%3a%2f%2fuser%40evil.example',
      `go?next=HTTPS%3a%2f%2f${REDACTED}%40evil.example`,
    ],
    ['two: http://a:b@x and ftp://c@y', `two: http://${REDACTED}@x and ftp://${REDACTED}@y`],
  ])('redacts the user info of %s', (text, expected) => {
    expect(scrubUrlCredentials(text)).toBe(expected);
  });

  it.each([
    'https://example.com/path?email=a@b.com',
    'https://example.com?x=a@b',
    'mail me at someone@example.com',
    'http://[::1]:8080/x@y',
    'no url here :// @ at all',
    `https://${REDACTED}@host`,
  ])('leaves %s alone', text => {
    expect(scrubUrlCredentials(text)).toBe(text);
  });

  it('scans a long hostile text in linear time', () => {
    const hostile = `${'a.'.repeat(200_000)}://${'b'.repeat(200_000)}${'x://@'.repeat(50_000)}`;
    // Quadratic scanning would take minutes of CPU here; linear takes a tenth of a second. CPU
    // time, not wall time: other processes on the machine do not move it.
    expect(cpuMsOf(() => scrubUrlCredentials(hostile))).toBeLessThan(5_000);
  });
});

describe('URL flags', () => {
  it('names the user, password and query values of an endpoint as secrets', () => {
    const secrets = urlSecrets('wss://me:p%40ss@browser.example/ws?token=abc%2Bdef&x=plain+text');
    expect(secrets).toEqual(
      expect.arrayContaining(['me', 'p%40ss', 'p@ss', 'abc%2Bdef', 'abc+def', 'plain text']),
    );
  });

  it('shows an endpoint without its secrets', () => {
    const shown = withoutUrlSecrets('ws://u:pw@127.0.0.1:9222/devtools/browser?token=SECRET1');
    expect(shown).not.toMatch(/pw|SECRET1|u:/);
    expect(shown).toContain('127.0.0.1:9222/devtools/browser?token=');
  });
});

describe('URL flags without secrets', () => {
  it('are shown exactly as given', () => {
    expect(withoutUrlSecrets('http://127.0.0.1:9222')).toBe('http://127.0.0.1:9222');
  });
});
