/**
 * The mechanisms under element actions, one fixture page each (test/fixtures/pages/actions) and on
 * the library corpus (test/fixtures/libraries): hit testing by the composed path (slotted labels,
 * nested and closed shadow roots), scrolling through inner scrollers and the frames above, a
 * control hidden inside its own container, dragging like a hand (an animating sortable, native
 * drag and drop) with the outcome said, and keys that scroll smoothly.
 *
 * Tests: src/core/tools/input.ts, src/core/browser/input/actions.ts,
 *   src/core/browser/input/pointer.ts
 */
import {describe, expect, it} from 'vitest';
import {
  actionWaitBoundsFeature,
  type ActionWaitBounds,
} from '../../../src/core/browser/input/waitBounds.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {openLibraryPage} from '../../helpers/libraryPages.js';
import {
  act,
  evaluate,
  openWithSnapshot,
  snapshotOf,
  textContentOf,
  uidOf,
} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

function open(pathname: string): Promise<{id: number; snapshot: string}> {
  return openWithSnapshot(fx, pathname);
}

function text(id: number, selector: string): Promise<unknown> {
  return textContentOf(fx.client, id, selector);
}

/** The page's own bounds on the waits that end in a failure or a note (waitBounds.ts). */
function bounds(id: number): ActionWaitBounds {
  return actionWaitBoundsFeature.get(fx.engine.engine.browser.pages.byId(id));
}

async function click(id: number, snapshot: string, line: string): Promise<string> {
  return act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, line)});
}

describe('a press over slotted content reaches the button it is slotted into', () => {
  it('clicks buttons whose label is slotted text, one and two shadow roots deep, and in a closed root', async () => {
    const {id, snapshot} = await open('/actions/slotted-button.html');
    await click(id, snapshot, 'button "Save changes"');
    expect(await text(id, '#result')).toBe('Clicked Save changes');
    await click(id, snapshot, 'button "Publish"');
    expect(await text(id, '#result')).toBe('Clicked Publish');
    await click(id, snapshot, 'button "Archive"');
    expect(await text(id, '#result')).toBe('Clicked Archive');
    await click(id, snapshot, 'button "Send"');
    expect(await text(id, '#result')).toBe('Clicked Send');
  });

  it('Shoelace: a button, a dropdown menu and a tab with slotted labels', async () => {
    const id = await openLibraryPage(fx.client, fx.server, 'shoelace');
    const snapshot = await snapshotOf(fx.client, id);
    await click(id, snapshot, 'button "Save draft"');
    expect(await text(id, '#result')).toBe('Saved 1');
    await click(id, snapshot, 'button "Actions"');
    const menu = await snapshotOf(fx.client, id);
    await click(id, menu, 'menuitem "Archive"');
    expect(await text(id, '#result')).toBe('Chose Archive');
    await click(id, await snapshotOf(fx.client, id), 'tab "Billing"');
    expect(await text(id, '#result')).toBe('Tab billing');
  });
});

describe('an element clipped by its scrolling ancestors is scrolled into view first', () => {
  it('clicks a row scrolled out of an inner list, not the status line under it', async () => {
    const {id, snapshot} = await open('/actions/inner-scroller.html');
    // File 9 lies inside the viewport, over the status line, but the list clips it.
    await click(id, snapshot, 'button "File 9"');
    expect(await text(id, '#status')).toBe('Opened File 9');
  });

  it('clicks, hovers and fills through a scroller inside a scroller', async () => {
    const {id, snapshot} = await open('/actions/inner-scroller.html');
    await act(fx.client, 'hover', {pageId: id, uid: uidOf(snapshot, 'button "Deep button"')});
    expect(await text(id, '#hovered')).toBe('Hovered Deep');
    await click(id, snapshot, 'button "Deep button"');
    expect(await text(id, '#deepResult')).toBe('Clicked Deep');
    await act(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(snapshot, 'textbox "Deep field"'),
      value: 'abc',
    });
    expect(await text(id, '#deepResult')).toBe('Typed abc');
  });

  for (const site of ['same', 'cross']) {
    it(`clicks a row of a scroller in a ${site}-site iframe that is itself in a scroller`, async () => {
      const id = await fx.openPage(`/actions/scroller-frames.html?site=${site}`, 'scroller-frames');
      const snapshot = await waitFor(async () => {
        const taken = await snapshotOf(fx.client, id);
        return taken.includes('button "Row 5"') ? taken : undefined;
      });
      // Row 5 lies inside the frame's viewport, but its list clips it; the frame lies inside the
      // page's viewport, but the box around it clips it.
      await click(id, snapshot, 'button "Row 5"');
      const after = await snapshotOf(fx.client, id);
      expect(after).toContain('"Picked Row 5"');
    });
  }
});

describe('a control hidden inside its own container', () => {
  it('presses the thumb a slider hides its input in, as a user would', async () => {
    const {id, snapshot} = await open('/actions/hidden-input-slider.html');
    const clicked = await click(id, snapshot, 'slider "Volume"');
    expect(clicked).toContain('Successfully clicked');
    expect(await text(id, '#result')).toBe('Volume 40, focused');
  });

  it('says that the container draws over the element, not that something else covers it', async () => {
    const {id, snapshot} = await open('/actions/hidden-input-slider.html');
    // The container always draws over "Buy": the failure after 300 ms instead of the product's 2 s.
    bounds(id).coveredMaxMs = 300;
    const failed = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Buy"'),
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('which contains the element and is drawn over it');
    expect(failed.text).not.toContain('Close or dismiss');
    expect(await text(id, '#result')).toBe('');
  });

  it('MUI: the slider, the checkbox and the select', async () => {
    const id = await openLibraryPage(fx.client, fx.server, 'mui');
    const snapshot = await snapshotOf(fx.client, id);
    await click(id, snapshot, 'slider "Volume"');
    expect(await text(id, '#result')).toBe('Volume 30');
    await click(id, snapshot, 'checkbox "Send me the newsletter"');
    expect(await text(id, '#result')).toBe('Newsletter on');
    await click(id, snapshot, 'combobox "Size"');
    await click(id, await snapshotOf(fx.client, id), 'option "Large"');
    expect(await text(id, '#result')).toBe('Size Large');
  });
});

describe('drag moves like a hand and says where the element ended up', () => {
  it('reorders a sortable list that animates each step and ignores the pointer meanwhile', async () => {
    const {id, snapshot} = await open('/actions/sortable-animated.html');
    const dragged = await act(fx.client, 'drag', {
      pageId: id,
      from_uid: uidOf(snapshot, '"Delta"'),
      to_uid: uidOf(snapshot, '"Alpha"'),
    });
    expect(await text(id, '#order')).toBe('Delta, Alpha, Beta, Gamma, Epsilon');
    expect(dragged).toContain('Dragged "Delta": it is now before "Alpha"');
  });

  it('reorders with the HTML5 drag events and drops on a zone', async () => {
    const {id, snapshot} = await open('/actions/native-dnd.html');
    const dragged = await act(fx.client, 'drag', {
      pageId: id,
      from_uid: uidOf(snapshot, '"Garden"'),
      to_uid: uidOf(snapshot, '"Dishes"'),
    });
    expect(await text(id, '#order')).toBe('Garden, Dishes, Laundry, Groceries');
    expect(dragged).toContain('it is now before "Dishes"');
    const trashed = await act(fx.client, 'drag', {
      pageId: id,
      from_uid: uidOf(snapshot, '"Laundry"'),
      to_uid: uidOf(snapshot, 'region "Trash"'),
    });
    expect(await text(id, '#log')).toBe('trashed Laundry');
    expect(trashed).toContain('Dragged "Laundry": it is no longer on the page');
  });

  it('says where the element is when the drop did not take it to the target', async () => {
    const {id, snapshot} = await open('/actions/native-dnd.html');
    // The notes beside the list take no drops: the item stays where it was.
    const dragged = await act(fx.client, 'drag', {
      pageId: id,
      from_uid: uidOf(snapshot, '"Groceries"'),
      to_uid: uidOf(snapshot, 'region "Notes"'),
    });
    expect(dragged).toContain('it is still between "Laundry" and "Garden"');
    expect(dragged).not.toContain('Successfully dragged');
  });

  it('SortableJS (native and pointer modes) and the drag and drop board', async () => {
    const id = await openLibraryPage(fx.client, fx.server, 'sortable');
    const snapshot = await snapshotOf(fx.client, id);
    const drags: [string, string][] = [
      ['"Delta"', '"Alpha"'],
      ['"Four"', '"One"'],
      ['"Write report"', 'region "Done"'],
    ];
    for (const [from, to] of drags) {
      await act(fx.client, 'drag', {
        pageId: id,
        from_uid: uidOf(snapshot, from),
        to_uid: uidOf(snapshot, to),
      });
    }
    expect(await text(id, '#native-list-order')).toBe('Delta, Alpha, Beta, Gamma, Epsilon');
    expect(await text(id, '#fallback-list-order')).toBe('Four, One, Two, Three, Five');
    expect(await text(id, '#board-status')).toBe('To do: Call Ana; Done: Write report');
  });
});

describe('keys that scroll settle after the smooth scroll ends', () => {
  it('End in a smoothly scrolling list: the next snapshot shows its last rows', async () => {
    const {id, snapshot} = await open('/actions/smooth-scroll.html');
    await click(id, snapshot, 'listbox "Tracks"');
    await act(fx.client, 'press_key', {pageId: id, key: 'End'});
    expect(await snapshotOf(fx.client, id)).toContain('option "Track 1000"');
  });

  it('End and Home in a scroller that animates itself for a second answer once it is there', async () => {
    const {id, snapshot} = await open('/actions/smooth-scroll.html');
    await click(id, snapshot, 'feed "News"');
    const bottom =
      '() => { const feed = document.getElementById("feed"); return feed.scrollTop >= feed.scrollHeight - feed.clientHeight - 1; }';
    await act(fx.client, 'press_key', {pageId: id, key: 'End'});
    expect(await evaluate(fx.client, id, bottom)).toBe(true);
    await act(fx.client, 'press_key', {pageId: id, key: 'Home'});
    expect(await evaluate(fx.client, id, '() => document.getElementById("feed").scrollTop')).toBe(
      0,
    );
  });

  it('a scroll still going when the bounded wait runs out is said in the reply, not called ended', async () => {
    const {id, snapshot} = await open('/actions/smooth-scroll.html');
    // The ticker scrolls for 30 s: a wait of 0.3 s (scaled by the machine's slowness, as the
    // product's 1.5 s is) runs out the same way, sooner.
    bounds(id).keyScrollMs = 300;
    await click(id, snapshot, 'marquee "Ticker"');
    const reply = await act(fx.client, 'press_key', {pageId: id, key: 'End'});
    expect(reply).toMatch(
      /The page was still scrolling \d+\.\d s after End; take a snapshot again/,
    );
  });
});
