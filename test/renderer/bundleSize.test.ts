/**
 * The first-paint budget of the built UI (out/renderer): the JavaScript a browser must fetch before
 * the inspector can paint — the entry script of index.html, its modulepreloads and, transitively,
 * their static imports — stays within 350 KB minified and 120 KB gzipped. The schema form (rjsf)
 * and the heavy panels are not part of it: a panel loads when its tab is first opened, the form
 * with the first panel that shows one.
 *
 * Tests: src/renderer/src/main.tsx, src/renderer/src/app/panels.tsx
 */
import fs from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import {describe, expect, it} from 'vitest';
import {ROOT} from '../helpers/engine.js';

const RENDERER = path.join(ROOT, 'out/renderer');
const MAX_MINIFIED_BYTES = 350_000;
const MAX_GZIP_BYTES = 120_000;

/** `import … from "./x.js"` and `import "./x.js"` (static only; `import("./x.js")` is lazy). */
const STATIC_IMPORT =
  /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)?\s*(?:from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;

/** Script and modulepreload URLs of index.html, as files under out/renderer. */
function htmlEntries(): string[] {
  const html = fs.readFileSync(path.join(RENDERER, 'index.html'), 'utf8');
  const urls = [
    ...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g),
    ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
  ].map(match => match[1] ?? '');
  return urls.map(url => path.join(RENDERER, url.replace(/^\.?\//, '')));
}

/** Every file the entries load before running: the entries and their static imports. */
function firstPaintFiles(): string[] {
  const seen = new Set<string>();
  const pending = htmlEntries();
  while (pending.length > 0) {
    const file = pending.pop() ?? '';
    if (seen.has(file)) {
      continue;
    }
    seen.add(file);
    const code = fs.readFileSync(file, 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT)) {
      pending.push(path.resolve(path.dirname(file), match[1] ?? ''));
    }
  }
  return [...seen];
}

describe('first-paint JavaScript of the built UI', () => {
  const files = firstPaintFiles();
  const code = files.map(file => fs.readFileSync(file));

  it('starts from the entry script of index.html', () => {
    expect(files.length).toBeGreaterThanOrEqual(1);
    expect(files.every(file => file.endsWith('.js') && fs.existsSync(file))).toBe(true);
  });

  it(`is at most ${MAX_MINIFIED_BYTES / 1000} KB minified and ${MAX_GZIP_BYTES / 1000} KB gzipped`, () => {
    const minified = code.reduce((sum, data) => sum + data.length, 0);
    const gzipped = code.reduce((sum, data) => sum + gzipSync(data, {level: 9}).length, 0);
    console.log(
      `[bundle] first paint: ${files.length} file(s), ${(minified / 1000).toFixed(1)} KB minified, ${(gzipped / 1000).toFixed(1)} KB gzipped`,
    );
    expect(minified).toBeLessThanOrEqual(MAX_MINIFIED_BYTES);
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIP_BYTES);
  });

  it('is minified', () => {
    // Unminified output has a line per statement (tens of characters); minified, a few long lines.
    // A tiny shared chunk (a few hundred bytes on one line) says nothing either way.
    for (const data of code.filter(chunk => chunk.length > 4_000)) {
      const lines = data.toString('utf8').split('\n').length;
      expect(data.length / lines).toBeGreaterThan(1_000);
    }
  });

  it('leaves the schema form and the heavy panels to load on first open', () => {
    const names = files.map(file => path.basename(file));
    for (const lazy of [
      'RjsfForm',
      'WebMcpPanel',
      'RunPanel',
      'ToolsPanel',
      'PagesPanel',
      'TelemetryPanel',
      'ConnectionPanel',
    ]) {
      expect(names.filter(name => name.startsWith(`${lazy}-`))).toEqual([]);
    }
    const assets = fs.readdirSync(path.join(RENDERER, 'assets'));
    expect(assets.some(name => /^RjsfForm-.*\.js$/.test(name))).toBe(true);
    expect(assets.some(name => /^WebMcpPanel-.*\.js$/.test(name))).toBe(true);
  });
});
