/**
 * Invisible and bidi characters made visible: the character set, and the document-wide watch
 * (watchInvisible) with React rendering into the page in headless Chromium, as the app does: text
 * and shown attributes of any element are revealed, also when React writes them again; what a
 * person edits or sends back (fields, an option's implicit value) is left as it is.
 *
 * Tests: src/renderer/src/ui/revealInvisible.ts
 */
import {build} from 'esbuild';
import type {Browser, Page} from 'puppeteer-core';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {hasInvisible, revealInvisible} from '../../src/renderer/src/ui/revealInvisible.js';
import {ROOT} from '../helpers/engine.js';
import {launchUiBrowser} from '../helpers/ui.js';

describe('revealInvisible', () => {
  it('shows bidi, zero-width, control, separator and tag characters as ⟨U+XXXX⟩', () => {
    const cases: [string, string][] = [
      ['\u202E', '⟨U+202E⟩'],
      ['\u2066', '⟨U+2066⟩'],
      ['\u2069', '⟨U+2069⟩'],
      ['\u200B', '⟨U+200B⟩'],
      ['\u200F', '⟨U+200F⟩'],
      ['\uFEFF', '⟨U+FEFF⟩'],
      ['\u0000', '⟨U+0000⟩'],
      ['\u001B', '⟨U+001B⟩'],
      ['\r', '⟨U+000D⟩'],
      ['\u007F', '⟨U+007F⟩'],
      ['\u0085', '⟨U+0085⟩'],
      ['\u2028', '⟨U+2028⟩'],
      ['\u00AD', '⟨U+00AD⟩'],
      ['\u{E0041}', '⟨U+E0041⟩'],
    ];
    for (const [char, shown] of cases) {
      expect(revealInvisible(`a${char}b`)).toBe(`a${shown}b`);
      expect(hasInvisible(char)).toBe(true);
    }
  });

  it('leaves tabs, newlines, letters of any script and emoji alone', () => {
    const plain = 'tab\there\nnext line: café, Ελληνικά, العربية, 日本語, 😀👍🏽';
    expect(revealInvisible(plain)).toBe(plain);
    expect(hasInvisible(plain)).toBe(false);
  });
});

/** A small React app with the watch on, bundled like the renderer (React from node_modules). */
const APP = `
import {createElement as h, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {flushSync} from 'react-dom';
import {watchInvisible} from './src/renderer/src/ui/revealInvisible.ts';
watchInvisible(document.body);
let update;
function App() {
  const [text, setText] = useState(window.initialText);
  update = setText;
  return h('main', null,
    h('p', {id: 'single'}, text),
    h('p', {id: 'mixed'}, 'Title: ', text, '!'),
    h('span', {id: 'attrs', title: text, 'aria-label': text}, 'x'),
    h('img', {id: 'image', alt: text}),
    h('textarea', {id: 'field', value: text, onChange: () => undefined}),
    h('select', {id: 'plain-select', value: text, onChange: () => undefined}, h('option', null, text)),
    h('select', {id: 'valued-select', value: text, onChange: () => undefined}, h('option', {value: text}, text)),
  );
}
window.addEventListener('set-text', event => flushSync(() => update(event.detail)));
createRoot(document.getElementById('root')).render(h(App));
`;

let browser: Browser;
let page: Page;
let script: string;

beforeAll(async () => {
  const bundled = await build({
    stdin: {contents: APP, resolveDir: ROOT, loader: 'ts'},
    bundle: true,
    write: false,
    format: 'iife',
    define: {'process.env.NODE_ENV': '"production"'},
  });
  script = bundled.outputFiles[0]?.text ?? '';
  browser = await launchUiBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser.close();
});

interface Shown {
  single: string;
  mixed: string;
  title: string;
  label: string;
  alt: string;
  field: string;
  plainOption: string;
  plainValue: string;
  valuedOption: string;
  valuedValue: string;
}

function shown(): Promise<Shown> {
  return page.evaluate(() => {
    const byId = (id: string): HTMLElement | null => document.getElementById(id);
    const text = (id: string): string => byId(id)?.textContent ?? '';
    const select = (id: string): HTMLSelectElement | null => {
      const element = byId(id);
      return element instanceof HTMLSelectElement ? element : null;
    };
    const field = byId('field');
    return {
      single: text('single'),
      mixed: text('mixed'),
      title: byId('attrs')?.getAttribute('title') ?? '',
      label: byId('attrs')?.getAttribute('aria-label') ?? '',
      alt: byId('image')?.getAttribute('alt') ?? '',
      field: field instanceof HTMLTextAreaElement ? field.value : '',
      plainOption: select('plain-select')?.options[0]?.textContent ?? '',
      plainValue: select('plain-select')?.value ?? '',
      valuedOption: select('valued-select')?.options[0]?.textContent ?? '',
      valuedValue: select('valued-select')?.value ?? '',
    };
  });
}

describe('watchInvisible in a page React renders', () => {
  it('reveals text and shown attributes, again when React writes them, never in fields', async () => {
    const first = 'invoice\u202Efdp.exe';
    await page.setContent(`<div id="root"></div>`);
    await page.evaluate(text => {
      Object.assign(window, {initialText: text});
    }, first);
    await page.addScriptTag({content: script});
    await page.waitForSelector('#single');
    const revealed = 'invoice⟨U+202E⟩fdp.exe';
    expect(await shown()).toEqual({
      single: revealed,
      mixed: `Title: ${revealed}!`,
      title: revealed,
      label: revealed,
      alt: revealed,
      // Values are what they are: a field edits them, a select sends them.
      field: first,
      plainOption: first,
      plainValue: first,
      valuedOption: revealed,
      valuedValue: first,
    });

    // React writes new text into the same nodes: revealed again, before anything reads it.
    const second = 'evil\u2066gnp.exe\u2069\u200B';
    await page.evaluate(text => {
      window.dispatchEvent(new CustomEvent('set-text', {detail: text}));
    }, second);
    const again = await shown();
    expect(again.single).toBe('evil⟨U+2066⟩gnp.exe⟨U+2069⟩⟨U+200B⟩');
    expect(again.mixed).toBe('Title: evil⟨U+2066⟩gnp.exe⟨U+2069⟩⟨U+200B⟩!');
    expect(again.title).toBe('evil⟨U+2066⟩gnp.exe⟨U+2069⟩⟨U+200B⟩');
    expect(again.field).toBe(second);

    // Nothing invisible is left anywhere in the visible text.
    const bodyText = await page.evaluate(() => document.body.innerText);
    expect(hasInvisible(bodyText.replace(second, ''))).toBe(false);
  });
});
