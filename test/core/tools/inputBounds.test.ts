/**
 * One call cannot stall everyone: every input a call turns into browser work is bounded (a clear
 * error naming the bound, nothing done), and the longest text type_text takes is typed in slices.
 * While one client types it on its page, another client's list_pages and evaluate_script on its own
 * page (another site, so another renderer) answer within 1 s (times the machine's load factor) and
 * before the typing ends; a cancel stops the typing: the field keeps what was typed so far.
 *
 * Tests: src/core/tools/base/inputLimits.ts
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {beforeAll, describe, expect, it} from 'vitest';
import {
  ARGUMENT_TEXT_LIMIT,
  FILLED_TEXT_LIMIT,
  FORM_ELEMENTS_LIMIT,
  KEY_COMBO_LIMIT,
  PATH_CHARS_LIMIT,
  SCRIPT_ELEMENTS_LIMIT,
  TYPED_TEXT_LIMIT,
  UPLOAD_FILES_LIMIT,
  WAIT_TEXT_CHARS_LIMIT,
  WAIT_TEXTS_LIMIT,
} from '../../../src/core/tools/base/inputLimits.js';
import {call, openPage, textOf, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {loadFactor} from '../../helpers/loadFactor.js';

let typedSignals = 0;

const fx = useEngineWithFixtures({
  clientName: 'typist',
  routes: server => {
    // Each key costs the page 1 ms, so typing the longest text takes the page at least 10 s.
    server.html(
      '/typing.html',
      `<!doctype html><title>Typing</title><textarea id="field" autofocus></textarea><script>
        const field = document.getElementById('field');
        let told = false;
        field.addEventListener('keydown', () => {
          const until = performance.now() + 1;
          while (performance.now() < until) {}
        });
        field.addEventListener('input', () => {
          if (!told && field.value.length >= 100) {
            told = true;
            fetch('/typed', {method: 'POST'});
          }
        });
      </script>`,
    );
    server.html('/bystander.html', '<!doctype html><title>Bystander</title><p>here</p>');
    server.route('/typed', (_request, response) => {
      typedSignals++;
      response.writeHead(204).end();
    });
  },
});

let bystander: Client;

beforeAll(async () => {
  bystander = await fx.engine.connect('bystander');
});

async function fieldLength(client: Client, pageId: number): Promise<number> {
  const result = await call(client, 'evaluate_script', {
    pageId,
    function: '() => document.getElementById("field").value.length',
  });
  expect(result.isError, result.text).toBe(false);
  const json = /```json\n(\d+)\n```/.exec(result.text)?.[1];
  if (json === undefined) {
    throw new Error(`No length in:\n${result.text}`);
  }
  return Number(json);
}

describe('bounds on what a call turns into browser work', () => {
  it('refuses each input over its bound, naming the bound, and does nothing', async () => {
    const id = await fx.openPage('/typing.html');
    const over: [string, Record<string, unknown>, number][] = [
      ['type_text', {text: 'a'.repeat(TYPED_TEXT_LIMIT + 1)}, TYPED_TEXT_LIMIT],
      ['type_text', {text: 'a', submitKey: 'a'.repeat(KEY_COMBO_LIMIT + 1)}, KEY_COMBO_LIMIT],
      ['press_key', {key: 'a'.repeat(KEY_COMBO_LIMIT + 1)}, KEY_COMBO_LIMIT],
      ['fill', {uid: '1', value: 'a'.repeat(FILLED_TEXT_LIMIT + 1)}, FILLED_TEXT_LIMIT],
      [
        'fill_form',
        {elements: Array.from({length: FORM_ELEMENTS_LIMIT + 1}, () => ({uid: '1', value: 'a'}))},
        FORM_ELEMENTS_LIMIT,
      ],
      [
        'upload_file',
        {uid: '1', filePaths: Array.from({length: UPLOAD_FILES_LIMIT + 1}, () => '/tmp/a')},
        UPLOAD_FILES_LIMIT,
      ],
      ['wait_for', {text: Array.from({length: WAIT_TEXTS_LIMIT + 1}, () => 'a')}, WAIT_TEXTS_LIMIT],
      ['wait_for', {text: ['a'.repeat(WAIT_TEXT_CHARS_LIMIT + 1)]}, WAIT_TEXT_CHARS_LIMIT],
      [
        'evaluate_script',
        {function: '() => 1', args: Array.from({length: SCRIPT_ELEMENTS_LIMIT + 1}, () => '1')},
        SCRIPT_ELEMENTS_LIMIT,
      ],
      [
        'evaluate_script',
        {function: `() => ${'1'.repeat(ARGUMENT_TEXT_LIMIT)}`},
        ARGUMENT_TEXT_LIMIT,
      ],
      [
        'navigate_page',
        {url: `https://example.com/${'a'.repeat(ARGUMENT_TEXT_LIMIT)}`},
        ARGUMENT_TEXT_LIMIT,
      ],
      ['take_screenshot', {filePath: `/tmp/${'a'.repeat(PATH_CHARS_LIMIT)}.png`}, PATH_CHARS_LIMIT],
      [
        'handle_dialog',
        {action: 'accept', promptText: 'a'.repeat(FILLED_TEXT_LIMIT + 1)},
        FILLED_TEXT_LIMIT,
      ],
    ];
    for (const [tool, args, limit] of over) {
      const result = await call(fx.client, tool, {pageId: id, ...args});
      expect(result.isError, `${tool}: ${result.text}`).toBe(true);
      expect(result.text, tool).toContain(`over the limit of ${limit}`);
    }
    expect(await fieldLength(fx.client, id)).toBe(0);
  });

  it('types long text in slices: a bystander is not delayed, and a cancel stops the typing', async () => {
    const typingPage = await fx.openPage('/typing.html');
    // Another site, so another renderer: only the shared browser and pipe could delay it.
    const otherSite = fx.server.url('/bystander.html').replace('127.0.0.1', 'localhost');
    const bystanderPage = await openPage(bystander, otherSite, 'bystander.html');
    const focused = await call(fx.client, 'evaluate_script', {
      pageId: typingPage,
      function:
        '() => { document.getElementById("field").focus(); return document.activeElement.id; }',
    });
    expect(focused.text).toContain('"field"');

    typedSignals = 0;
    const controller = new AbortController();
    let typingEnded = false;
    const typing = fx.client
      .callTool(
        {name: 'type_text', arguments: {pageId: typingPage, text: 'abcdefghij'.repeat(1_000)}},
        undefined,
        {signal: controller.signal, timeout: 600_000},
      )
      .then(
        result => ({result: result as CallToolResult}),
        (error: unknown) => ({error}),
      )
      .finally(() => (typingEnded = true));
    await waitFor(() => typedSignals > 0, 30_000, 'the first 100 characters to be typed');

    const bound = 1_000 * loadFactor();
    const timings: {tool: string; ms: number}[] = [];
    for (let round = 0; round < 5; round++) {
      for (const [tool, args] of [
        ['list_pages', {}],
        ['evaluate_script', {pageId: bystanderPage, function: '() => document.title'}],
      ] as const) {
        const started = performance.now();
        const result = await call(bystander, tool, args);
        timings.push({tool, ms: performance.now() - started});
        expect(result.isError, result.text).toBe(false);
      }
    }
    // Every bystander call was answered while the typing went on.
    expect(typingEnded).toBe(false);
    console.log(
      `bystander calls while typing (bound ${bound.toFixed(0)} ms, load ${loadFactor().toFixed(2)}):`,
      timings.map(({tool, ms}) => `${tool} ${ms.toFixed(0)} ms`).join(', '),
    );
    for (const {tool, ms} of timings) {
      expect(ms, tool).toBeLessThan(bound);
    }

    controller.abort();
    const ended = await typing;
    expect('error' in ended, JSON.stringify(ended)).toBe(true);
    // The next call on the page waits only for the slice being typed; what is there then stays.
    const afterCancel = await fieldLength(bystander, typingPage);
    expect(afterCancel).toBeGreaterThanOrEqual(100);
    expect(afterCancel).toBeLessThan(10_000);
    const later = await call(bystander, 'list_console_messages', {pageId: typingPage});
    expect(later.isError, textOf(later.result)).toBe(false);
    expect(await fieldLength(bystander, typingPage)).toBe(afterCancel);
  });
});
