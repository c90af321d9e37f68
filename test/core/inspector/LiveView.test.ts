import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {LiveView} from '../../../src/core/inspector/LiveView.js';
import type {LiveFrame} from '../../../src/shared/protocol.js';
import {call, pageIdFrom, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures();
const frames: LiveFrame[] = [];
let live: LiveView;

beforeAll(() => {
  live = new LiveView(fx.engine.engine.browser, frame => frames.push(frame));
});

// Registered after the fixture's hooks, so it runs before the engine stops.
afterAll(async () => {
  await live.stop();
});

describe('LiveView', () => {
  it('waits for a page when none is open, then casts the selected page', async () => {
    await live.start(undefined, 'watcher-a');
    expect(live.pageId).toBeUndefined();
    const first = await fx.openPage('/index.html');
    const frame = await waitFor(() => frames.find(candidate => candidate.pageId === first), 20_000);
    expect(frame.mimeType).toBe('image/jpeg');
    // A real JPEG: base64 of FF D8 FF.
    expect(frame.data.startsWith('/9j/')).toBe(true);
    expect(frame.viewport?.width).toBeGreaterThan(0);
    expect(frame.viewport?.height).toBeGreaterThan(0);
  });

  it('follows the selection to another page', async () => {
    const second = await fx.openPage('/other.html');
    await waitFor(() => live.pageId === second, 20_000, 'live view to move to the new page');
    await waitFor(() => frames.some(candidate => candidate.pageId === second), 20_000);
  });

  it('keeps running while any watcher remains and stops when the last one leaves', async () => {
    const listening = (): number[] =>
      fx.engine.engine.browser.pages
        .list()
        .map(page => page.cdp.listenerCount('Page.screencastFrame'));
    // While it casts, exactly one page has its frame listener.
    expect(listening().filter(count => count > 0)).toEqual([1]);
    await live.start(undefined, 'watcher-b');
    await live.stop('watcher-a');
    expect(live.pageId).toBeDefined();
    await live.stop('watcher-b');
    expect(live.pageId).toBeUndefined();
    expect(live.watching).toBe(false);
    // Page changes now cannot produce frames: no page has a screencast listener left.
    expect(listening().every(count => count === 0)).toBe(true);
    const count = frames.length;
    await call(fx.client, 'navigate_page', {
      type: 'url',
      url: fx.server.url('/index.html?after-stop'),
    });
    expect(frames.length).toBe(count);
    expect(listening().every(count => count === 0)).toBe(true);
  });

  it('casts a page chosen by id and rejects an unknown id with the list of pages', async () => {
    const list = await call(fx.client, 'list_pages');
    const chosen = pageIdFrom(list.text, 'other.html');
    await live.start(chosen, 'watcher-c');
    expect(live.pageId).toBe(chosen);
    await expect(live.start(9_999, 'watcher-d')).rejects.toThrow(/No page with id 9999/);
    await live.stop();
  });
});
