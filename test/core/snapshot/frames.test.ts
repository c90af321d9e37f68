/**
 * Cross-site (out-of-process) iframes: the page is served on 127.0.0.1 and embeds the same fixture
 * server through localhost, another site, so Chromium runs that frame in its own process. Every
 * element tool must act on the frame's uids, also for frames that load or navigate later.
 *
 * Tests: src/core/browser/snapshot/documents.ts, src/core/browser/pages/frames.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {
  act,
  childrenOf,
  depthOf,
  evaluate,
  lineOf,
  snapshotOf,
  uidOf,
} from '../../helpers/snapshotText.js';
import {attachSlowDebugger, startThreadServer} from '../../helpers/slowDebugger.js';

const fx = useEngineWithFixtures({tmpPrefix: 'mbi-frames-'});

/** The part of the snapshot inside the cross-site frame. */
function crossFrame(snapshot: string): string {
  return childrenOf(snapshot, 'Iframe "Cross-site widget"').join('\n');
}

async function openFrames(): Promise<{id: number; snapshot: string}> {
  const id = await fx.openPage('/aria/iframes.html');
  const snapshot = await waitFor(
    async () => {
      const text = await snapshotOf(fx.client, id);
      return crossFrame(text).includes('button "Inner button"') ? text : undefined;
    },
    10_000,
    'the cross-site frame in the snapshot',
  );
  return {id, snapshot};
}

/** Text of an element of the cross-site frame, read through evaluate_script with its uid. */
async function crossText(id: number, snapshot: string, ...fragments: string[]): Promise<unknown> {
  const uid = uidOf(crossFrame(snapshot).replace(/^/, ''), ...fragments);
  return evaluate(fx.client, id, '(el) => el.textContent', [uid]);
}

describe('cross-site iframes (5)', () => {
  it('stitches the frame document under its Iframe node', async () => {
    const {snapshot} = await openFrames();
    const iframe = lineOf(snapshot, 'Iframe "Cross-site widget"');
    const root = lineOf(snapshot, 'RootWebArea "Inner widget"', 'localhost');
    expect(depthOf(root)).toBe(depthOf(iframe) + 1);
    const inside = crossFrame(snapshot);
    expect(inside).toContain('textbox "Inner search"');
    expect(inside).toContain('region "Drop here"');
    // The same-site frame is there too, with its own uids.
    expect(childrenOf(snapshot, 'Iframe "Same-site widget"').join('\n')).toContain(
      'button "Inner button"',
    );
  });

  it('click, fill (keyup), hover and evaluate_script args act inside the frame', async () => {
    const {id, snapshot} = await openFrames();
    const frame = crossFrame(snapshot);
    await act(fx.client, 'click', {pageId: id, uid: uidOf(frame, 'button "Inner button"')});
    expect(await crossText(id, snapshot, 'status')).toBe('Clicked inner');

    await act(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(frame, 'textbox "Inner search"'),
      value: 'hello',
    });
    const typed = await snapshotOf(fx.client, id);
    expect(childrenOf(typed, 'Iframe "Cross-site widget"').join('\n')).toContain('"Typed hello"');
    expect(lineOf(crossFrame(typed), 'textbox "Inner search"')).toContain('value="hello"');

    // Keys go to the frame once a click put the focus there.
    await act(fx.client, 'click', {pageId: id, uid: uidOf(frame, 'textbox "Inner search"')});
    await act(fx.client, 'press_key', {pageId: id, key: 'End'});
    await act(fx.client, 'type_text', {pageId: id, text: '!'});
    expect(await crossText(id, snapshot, 'status')).toBe('Typed hello!');

    await act(fx.client, 'hover', {pageId: id, uid: uidOf(frame, 'button "Hover target"')});
    expect(await crossText(id, snapshot, 'status')).toBe('Hovered');
  });

  it('drag and upload_file act inside the frame', async () => {
    const {id, snapshot} = await openFrames();
    const frame = crossFrame(snapshot);
    await act(fx.client, 'drag', {
      pageId: id,
      from_uid: uidOf(frame, 'button "Drag me"'),
      to_uid: uidOf(frame, 'region "Drop here"'),
    });
    expect(await crossText(id, snapshot, 'status')).toBe('Dropped');

    const file = path.join(fx.tmp, 'notes.txt');
    fs.writeFileSync(file, 'hi');
    await act(fx.client, 'upload_file', {
      pageId: id,
      uid: uidOf(frame, 'button "Inner file"'),
      filePaths: [file],
    });
    expect(await crossText(id, snapshot, 'status')).toBe('File notes.txt');
  });

  it('take_screenshot of an element inside the frame captures its box', async () => {
    const {id, snapshot} = await openFrames();
    const uid = uidOf(crossFrame(snapshot), 'button "Inner button"');
    const shot = await call(fx.client, 'take_screenshot', {pageId: id, uid});
    expect(shot.isError, shot.text).toBe(false);
    const image = shot.result.content.find(item => item.type === 'image');
    expect(image?.type).toBe('image');
    const png = Buffer.from(image?.type === 'image' ? image.data : '', 'base64');
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    const size = await evaluate(
      fx.client,
      id,
      '(el) => { const r = el.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; }',
      [uid],
    );
    expect([width, height]).toEqual(size);
  });

  it('frames that load or navigate after the first snapshot get fresh uids that work', async () => {
    const {id, snapshot} = await openFrames();
    await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Load another widget"'),
    });
    const late = await waitFor(
      async () => {
        const text = await snapshotOf(fx.client, id);
        return childrenOf(text, 'Iframe "Late widget"').join('\n').includes('Late button')
          ? text
          : undefined;
      },
      10_000,
      'the late frame',
    );
    const lateButton = uidOf(
      childrenOf(late, 'Iframe "Late widget"').join('\n'),
      'button "Late button"',
    );
    const pressed = await act(fx.client, 'click', {
      pageId: id,
      uid: lateButton,
      includeSnapshot: true,
    });
    expect(pressed, pressed).toContain('button "Pressed late"');

    const innerButton = uidOf(crossFrame(late), 'button "Inner button"');
    await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(crossFrame(late), 'link "Go elsewhere"'),
    });
    const moved = await waitFor(
      async () => {
        const text = await snapshotOf(fx.client, id);
        return crossFrame(text).includes('Other widget') ? text : undefined;
      },
      10_000,
      'the cross-site frame to navigate',
    );
    expect(crossFrame(moved)).toContain('button "Late button"');
    const stale = await call(fx.client, 'click', {pageId: id, uid: innerButton});
    expect(stale.isError).toBe(true);
    // The button's document is gone, so its uid left the snapshot: the agent is sent back to one.
    expect(stale.text).toMatch(new RegExp(`uid "?${innerButton}"? (not found|no longer exists)`));
    expect(stale.text).toContain('take_snapshot');
  });

  it('nested cross-site frames: a frame inside a cross-site frame is stitched and clickable', async () => {
    const id = await fx.openPage('/aria/nested-frames.html');
    const snapshot = await waitFor(
      async () => {
        const text = await snapshotOf(fx.client, id);
        return childrenOf(text, 'Iframe "Nested widget"').join('\n').includes('Late button')
          ? text
          : undefined;
      },
      10_000,
      'the nested frame',
    );
    const outer = lineOf(snapshot, 'Iframe "Outer widget"');
    const nested = lineOf(snapshot, 'Iframe "Nested widget"');
    expect(depthOf(nested)).toBeGreaterThan(depthOf(outer));
    const button = uidOf(childrenOf(snapshot, 'Iframe "Nested widget"').join('\n'), 'button');
    const pressed = await act(fx.client, 'click', {pageId: id, uid: button, includeSnapshot: true});
    expect(childrenOf(pressed, 'Iframe "Nested widget"').join('\n')).toContain(
      'button "Pressed late"',
    );
  });
});

/** The nested frame's own page (served from a worker thread, see slowDebugger.ts). */
const NESTED_PAGE =
  '<!doctype html><title>Other widget</title><h2>Other widget</h2>' +
  '<button onclick="this.textContent = \'Pressed late\'">Late button</button>';

describe('frames that attach while the engine is busy (the race seen under load)', () => {
  it('a nested frame that started before the engine set its parent up still loads and is clickable', async () => {
    const nested = await startThreadServer(NESTED_PAGE);
    const id = await fx.openPage('/index.html');
    const other = await fx.engine.engine.browser.pages.byId(id).page.createCDPSession();
    try {
      // The outer frame runs (and starts its nested frame) while the engine's thread is blocked;
      // a debugger keeps the nested frame at its start until the engine has set the outer one up.
      const slow = await attachSlowDebugger(other, 1_500);
      await other.send('Page.navigate', {
        url: fx.server.url(`/aria/nested-held.html?nested=${nested.port}`),
      });
      await waitFor(
        async () => (await snapshotOf(fx.client, id)).includes('heading "Holding widget"'),
        10_000,
        'the outer frame',
      );
      slow.release();
      const snapshot = await waitFor(
        async () => {
          const text = await snapshotOf(fx.client, id);
          return childrenOf(text, 'Iframe "Nested widget"').join('\n').includes('Late button')
            ? text
            : undefined;
        },
        10_000,
        'the nested frame to load',
      );
      const button = uidOf(childrenOf(snapshot, 'Iframe "Nested widget"').join('\n'), 'button');
      const pressed = await act(fx.client, 'click', {
        pageId: id,
        uid: button,
        includeSnapshot: true,
      });
      expect(childrenOf(pressed, 'Iframe "Nested widget"').join('\n')).toContain(
        'button "Pressed late"',
      );
    } finally {
      await other.detach().catch(() => undefined);
      await nested.stop();
    }
  });

  it("a nested frame that hops out of its parent's process and back is followed every time", async () => {
    const id = await fx.openPage('/aria/nested-hop.html');
    let host = '127.0.0.1';
    let staleButton: string | undefined;
    // Out of the parent's process (the first document, on 127.0.0.1), into it (localhost), and out
    // again: both hops, each followed by a stale uid and a click in the new document.
    const hops = 3;
    for (let hop = 0; hop < hops; hop++) {
      const inside = await waitFor(
        async () => {
          const text = await snapshotOf(fx.client, id);
          const lines = childrenOf(text, 'Iframe "Hopping widget"').join('\n');
          return lines.includes(`Served by ${host}`) ? lines : undefined;
        },
        10_000,
        `the hopping frame on ${host} (hop ${hop})`,
      );
      expect(lineOf(inside, 'RootWebArea "Hop widget"')).toContain(`url="http://${host}:`);
      if (staleButton !== undefined) {
        // The document it came from is gone: its uid is refused, with the way back.
        const stale = await call(fx.client, 'click', {pageId: id, uid: staleButton});
        expect(stale.isError, stale.text).toBe(true);
        expect(stale.text).toContain('take_snapshot');
      }
      const button = uidOf(inside, 'button "Hop button"');
      const pressed = await act(fx.client, 'click', {
        pageId: id,
        uid: button,
        includeSnapshot: true,
      });
      expect(childrenOf(pressed, 'Iframe "Hopping widget"').join('\n')).toContain(
        `button "Pressed on ${host}"`,
      );
      staleButton = button;
      if (hop === hops - 1) {
        break;
      }
      await act(fx.client, 'click', {
        pageId: id,
        uid: uidOf(inside, 'link "Hop to the other site"'),
      });
      host = host === '127.0.0.1' ? 'localhost' : '127.0.0.1';
    }
  });
});
