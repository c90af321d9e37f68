/**
 * Snapshots show uids as bare numbers and CLI and model clients send them as numbers: every tool
 * that takes a uid accepts `uid: 3` as "3", while tools/list still advertises a string, as
 * chrome-devtools-mcp does.
 *
 * Tests: src/core/browser/snapshot/uids.ts, src/core/tools/base/paramShapes.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';
import {act, evaluate, openWithSnapshot, uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures({tmpPrefix: 'mbi-numeric-uid-'});

function open(pathname: string): Promise<{id: number; snapshot: string}> {
  return openWithSnapshot(fx, pathname);
}

/** The uid on the line with every fragment, as the number a client sends. */
function numberOf(snapshot: string, ...fragments: string[]): number {
  return Number(uidOf(snapshot, ...fragments));
}

async function value(id: number, selector: string, property = 'textContent'): Promise<unknown> {
  return evaluate(
    fx.client,
    id,
    `() => document.querySelector(${JSON.stringify(selector)})?.${property}`,
  );
}

describe('numeric uids', () => {
  it('click, hover, fill and fill_form take them', async () => {
    const timing = await open('/input-timing.html');
    await act(fx.client, 'click', {
      pageId: timing.id,
      uid: numberOf(timing.snapshot, 'button "Counter"'),
    });
    expect(await value(timing.id, '#log')).toBe('clicks 1');
    await act(fx.client, 'hover', {pageId: timing.id, uid: numberOf(timing.snapshot, 'Hover me')});
    expect(await value(timing.id, '#tip', 'hidden')).toBe(false);

    const form = await open('/input-form.html');
    await act(fx.client, 'fill', {
      pageId: form.id,
      uid: numberOf(form.snapshot, 'textbox "Name"'),
      value: 'Ada',
    });
    await act(fx.client, 'fill_form', {
      pageId: form.id,
      elements: [
        {uid: numberOf(form.snapshot, 'textbox "Email"'), value: 'ada@example.com'},
        {uid: uidOf(form.snapshot, 'textbox "Bio"'), value: 'Analyst'},
      ],
    });
    expect(
      await evaluate(
        fx.client,
        form.id,
        '() => ["name", "email", "bio"].map(id => document.getElementById(id).value)',
      ),
    ).toEqual(['Ada', 'ada@example.com', 'Analyst']);
  });

  it('drag, upload_file, take_screenshot, take_snapshot and evaluate_script take them', async () => {
    const drag = await open('/input-drag.html');
    await act(fx.client, 'drag', {
      pageId: drag.id,
      from_uid: numberOf(drag.snapshot, '"Card"'),
      to_uid: numberOf(drag.snapshot, '"Drop here"'),
    });
    expect(await value(drag.id, '#status')).toBe('Dropped card-42');

    const shot = await call(fx.client, 'take_screenshot', {
      pageId: drag.id,
      uid: numberOf(drag.snapshot, '"Card"'),
    });
    expect(shot.isError, shot.text).toBe(false);
    expect(shot.result.content.some(item => item.type === 'image')).toBe(true);

    const scoped = await act(fx.client, 'take_snapshot', {
      pageId: drag.id,
      uid: numberOf(drag.snapshot, '"Drop zone"'),
    });
    expect(scoped).toContain('region "Drop zone"');
    expect(scoped).not.toContain('"Card"');

    const evaluated = await act(fx.client, 'evaluate_script', {
      pageId: drag.id,
      function: '(card) => card.getAttribute("aria-label")',
      args: [numberOf(drag.snapshot, '"Card"')],
    });
    expect(evaluated).toContain('"Card"');

    const file = path.join(fx.tmp, 'n.txt');
    fs.writeFileSync(file, 'numeric');
    const upload = await open('/input-upload.html?direct');
    await act(fx.client, 'upload_file', {
      pageId: upload.id,
      uid: numberOf(upload.snapshot, '"Single"'),
      filePaths: [file],
    });
    expect(
      await evaluate(
        fx.client,
        upload.id,
        `async () => { for (let i = 0; i < 1000 && !document.getElementById('out').textContent; i++) await new Promise(r => setTimeout(r, 10)); return document.getElementById('out').textContent; }`,
      ),
    ).toBe('single: n.txt=numeric');
  });

  it('refuses numbers that are no uid, and still advertises a string', async () => {
    const {id} = await open('/input-timing.html');
    const fraction = await call(fx.client, 'click', {pageId: id, uid: 2.5});
    expect(fraction.isError).toBe(true);
    expect(fraction.text).toContain('uid: Invalid input: expected string, received number');

    const {tools} = await fx.client.listTools();
    const schemaOf = (name: string): unknown => tools.find(tool => tool.name === name)?.inputSchema;
    for (const [name, params] of [
      ['click', ['uid']],
      ['hover', ['uid']],
      ['fill', ['uid']],
      ['drag', ['from_uid', 'to_uid']],
      ['upload_file', ['uid']],
      ['take_screenshot', ['uid']],
      ['take_snapshot', ['uid']],
    ] as const) {
      for (const param of params) {
        expect(schemaOf(name), `${name} ${param}`).toMatchObject({
          properties: {[param]: {type: 'string'}},
        });
      }
    }
    expect(schemaOf('fill_form')).toMatchObject({
      properties: {elements: {items: {properties: {uid: {type: 'string'}}}}},
    });
    expect(schemaOf('evaluate_script')).toMatchObject({
      properties: {args: {items: {type: 'string'}}},
    });
  });
});
