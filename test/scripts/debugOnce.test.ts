/**
 * puppeteer-core asks the `debug` package for a logger on every CDP message; the bundles give it
 * scripts/debug-once.mjs, which makes one logger per name and keeps DEBUG working.
 *
 * Tests: scripts/debug-once.mjs
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import debugOnce from '../../scripts/debug-once.mjs';
import {ROOT} from '../helpers/engine.js';

describe('debug-once', () => {
  it('makes one logger per name, a real debug logger', () => {
    const send = debugOnce('puppeteer:protocol:SEND ►');
    expect(debugOnce('puppeteer:protocol:SEND ►')).toBe(send);
    expect(debugOnce('puppeteer:protocol:RECV ◀')).not.toBe(send);
    expect(send.namespace).toBe('puppeteer:protocol:SEND ►');
    expect(typeof send).toBe('function');
  });

  it('is what the headless bundle gives puppeteer for `debug`', () => {
    const chunks = fs.readdirSync(path.join(ROOT, 'out/node/chunks'));
    const shim = chunks.find(name => /^debug-once-.*\.js$/.test(name));
    expect(shim).toBeDefined();
    // puppeteer's import('debug') loads that chunk: no other chunk builds loggers per message.
    const importers = chunks.filter(
      name =>
        name.endsWith('.js') &&
        fs.readFileSync(path.join(ROOT, 'out/node/chunks', name), 'utf8').includes(shim ?? '-'),
    );
    expect(importers.length).toBeGreaterThan(0);
  });
});
