/**
 * Actions land where the agent meant, or say where they would have landed: the hard cases of
 * real component libraries (test/fixtures/pages/actions), on a real Chromium.
 *
 * Tests: src/core/tools/input.ts, src/core/browser/input/actionability.ts,
 *   src/core/browser/input/cover.ts, src/core/browser/input/waitBounds.ts
 */
import {describe, expect, it} from 'vitest';
import {actionWaitBoundsFeature} from '../../../src/core/browser/input/waitBounds.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
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

/**
 * For a page whose cover never goes away: an action on a covered element fails after 300 ms
 * instead of the product's 2 s (waitBounds.ts), the same failure, sooner. The waits that end
 * because a cover went away (a fading overlay, a branch animating open) keep the product's bound.
 */
function failSoonWhenCovered(id: number): void {
  actionWaitBoundsFeature.get(fx.engine.engine.browser.pages.byId(id)).coveredMaxMs = 300;
}

describe('a click lands on its element or fails naming what covers it', () => {
  it('waits for a branch animating open: the click reaches the clipped child, not the row below', async () => {
    // The branch takes 800 ms to open: at the time of the second click its last child is still
    // clipped, and a click at its center would reach "Pictures" below.
    const {id, snapshot} = await open('/actions/animated-tree.html?ms=800');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'treeitem "Documents"')});
    const opened = await snapshotOf(fx.client, id);
    const clicked = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(opened, 'treeitem "report.pdf"'),
    });
    expect(clicked).toContain('Successfully clicked on the element');
    expect(await text(id, '#opened')).toBe('Opened report.pdf');
    expect(await text(id, '#log')).toBe('expanded Documents;');
  });

  it('waits for a menu that slides in, stepped by a timer, before choosing from it', async () => {
    const {id, snapshot} = await open('/actions/sliding-menu.html');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Options"')});
    const menu = await snapshotOf(fx.client, id);
    await act(fx.client, 'click', {pageId: id, uid: uidOf(menu, 'menuitem "Delete"')});
    expect(await text(id, '#result')).toBe('You chose Delete');
  });

  it('waits for an overlay that fades out over the element', async () => {
    const {id, snapshot} = await open('/actions/fading-overlay.html');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Save"')});
    expect(await text(id, '#status')).toBe('Saved');
  });

  it('scrolls the element out from under a sticky header', async () => {
    const {id, snapshot} = await open('/actions/sticky-header.html');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Subscribe"')});
    expect(await text(id, '#status')).toBe('Subscribed');
  });

  it('clicks a checkbox through its own label when a drawn box lies over it', async () => {
    const {id, snapshot} = await open('/actions/styled-checkbox.html');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'checkbox "Remember me"')});
    expect(await evaluate(fx.client, id, '() => document.getElementById("remember").checked')).toBe(
      true,
    );
  });

  it('fails naming the dialog that covers the element, and clicks nothing', async () => {
    const {id, snapshot} = await open('/actions/covered.html');
    failSoonWhenCovered(id);
    const dialog = uidOf(snapshot, 'dialog "Cookie consent"');
    const failed = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Buy now"'),
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain(`would land on dialog "Cookie consent" (uid ${dialog}) instead`);
    expect(failed.text).toContain('Nothing was clicked.');
    expect(await text(id, '#status')).toBe('Nothing bought');

    // Once the agent dismisses it, the same click lands.
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Accept cookies"')});
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Buy now"')});
    expect(await text(id, '#status')).toBe('Bought');
  });

  it('holds back a press that would land on what popped up over the element', async () => {
    // A card pops up over the button when the pointer arrives: the check passed, the press
    // would hit the card. The page must not see that press, and the click must not succeed.
    const {id, snapshot} = await open('/actions/hover-cover.html');
    failSoonWhenCovered(id);
    const failed = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Follow Alex"'),
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('region "Profile card of Alex"');
    expect(await evaluate(fx.client, id, '() => window.cardClicks')).toBe(0);
    expect(await text(id, '#status')).toBe('Not following');
  });

  it('reaches a button in a closed shadow root of a cross-site iframe, and names what covers another', async () => {
    const id = await fx.openPage('/actions/shadow-frame.html?veil=600', '/actions/shadow-frame');
    const snapshot = await waitFor(
      async () => {
        const seen = await snapshotOf(fx.client, id);
        return seen.includes('button "Pay later"') && seen;
      },
      10_000,
      'the payment widget',
    );
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Pay now"')});
    expect(await snapshotOf(fx.client, id)).toContain('Paid now');

    // "Pay now" waited for its veil to fade; the veil over "Pay later" stays.
    failSoonWhenCovered(id);
    const failed = await call(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Pay later"'),
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('Busy');
    expect(failed.text).toContain('Nothing was clicked.');
    expect(await snapshotOf(fx.client, id)).toContain('Paid now');
  });
});

describe('double click and hover', () => {
  it('double clicks at a human pace, with click counts 1 then 2', async () => {
    // The detector needs more than 5 ms between the clicks (a person's are tens of ms apart).
    const {id, snapshot} = await open('/actions/double-click.html?min=5');
    const done = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Rename file"'),
      dblClick: true,
    });
    expect(done).toContain('Successfully double clicked on the element');
    expect(await text(id, '#result')).toBe('Double click detected');
    expect(
      await evaluate(fx.client, id, '() => document.getElementById("result").dataset.dblclick'),
    ).toBe('2');
  });

  it('answers a hover once the tooltip it shows after a delay is there', async () => {
    const {id, snapshot} = await open('/actions/tooltip.html');
    await act(fx.client, 'hover', {pageId: id, uid: uidOf(snapshot, 'button "Info"')});
    expect(await snapshotOf(fx.client, id)).toContain(
      'button "Info" description="Saved 3 minutes ago"',
    );
    // A tooltip made visible by a delayed CSS transition.
    await act(fx.client, 'hover', {pageId: id, uid: uidOf(snapshot, 'button "Help"')});
    expect(await snapshotOf(fx.client, id)).toContain('Press F1 for help');
  });
});

describe('hover, drag and fill check what their press would reach, too', () => {
  async function log(id: number): Promise<unknown> {
    return text(id, '#log');
  }

  it('hover fails naming the cover and moves nothing; an uncovered hover lands', async () => {
    const {id, snapshot} = await open('/actions/covered-controls.html');
    failSoonWhenCovered(id);
    const veil = uidOf(snapshot, 'dialog "Upload in progress"');
    const failed = await call(fx.client, 'hover', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Details"'),
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain(
      `The pointer at its center would be over dialog "Upload in progress" (uid ${veil}) instead`,
    );
    expect(failed.text).toContain('The pointer was not moved.');
    expect(failed.text).toContain('take a new snapshot (take_snapshot) and retry');
    expect(await log(id)).toBe('');

    await act(fx.client, 'hover', {pageId: id, uid: uidOf(snapshot, 'button "Help"')});
    expect(await log(id)).toBe('hover help;');
  });

  it('fill fails naming what its focus click would reach, and types nothing', async () => {
    const {id, snapshot} = await open('/actions/covered-controls.html');
    failSoonWhenCovered(id);
    const veil = uidOf(snapshot, 'dialog "Upload in progress"');
    const failed = await call(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(snapshot, 'textbox "Comment"'),
      value: 'hello',
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain(
      `A click to focus it would land on dialog "Upload in progress" (uid ${veil}) instead`,
    );
    expect(failed.text).toContain('Nothing was typed.');
    expect(await evaluate(fx.client, id, '() => document.getElementById("comment").value')).toBe(
      '',
    );
    expect(await log(id)).toBe('');

    await act(fx.client, 'fill', {pageId: id, uid: uidOf(snapshot, 'textbox "Title"'), value: 'A'});
    expect(await log(id)).toBe('focus title;input title;');
  });

  it('drag fails when its target or its source is covered, and presses nothing', async () => {
    const {id, snapshot} = await open('/actions/covered-controls.html');
    failSoonWhenCovered(id);
    const veil = uidOf(snapshot, 'dialog "Upload in progress"');
    const freeCard = uidOf(snapshot, 'button "Free card"');
    const freeZone = uidOf(snapshot, 'region "Free zone"');
    for (const [from, to] of [
      [freeCard, uidOf(snapshot, 'region "Busy zone"')],
      [uidOf(snapshot, 'button "Busy card"'), freeZone],
    ] as const) {
      const failed = await call(fx.client, 'drag', {pageId: id, from_uid: from, to_uid: to});
      expect(failed.isError, `${from} -> ${to}`).toBe(true);
      expect(failed.text).toContain(
        `A drag at its center would reach dialog "Upload in progress" (uid ${veil}) instead`,
      );
      expect(failed.text).toContain('Nothing was dragged.');
    }
    expect(await log(id)).toBe('');

    await act(fx.client, 'drag', {pageId: id, from_uid: freeCard, to_uid: freeZone});
    expect(await log(id)).toBe('dragstart free-card;drop free-card on free-zone;');
  });
});

describe('hit testing through frames', () => {
  for (const site of ['same', 'cross'] as const) {
    it(`in a ${site}-site iframe: reaches a shadow root's button, names covers inside the frame, its shadow root and the page above`, async () => {
      const pathname = `/actions/frame-covers.html?site=${site}`;
      const id = await fx.openPage(pathname, '/actions/frame-covers');
      const snapshot = await waitFor(
        async () => {
          const seen = await snapshotOf(fx.client, id);
          return seen.includes('button "Under banner"') && seen;
        },
        10_000,
        'the settings panel',
      );
      await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Dark mode"')});
      expect(await snapshotOf(fx.client, id)).toContain('Clicked Dark mode');
      await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Apply"')});
      failSoonWhenCovered(id);
      const covers: [string, string][] = [
        ['button "Reset"', 'dialog "Confirm reset"'],
        ['button "Sync"', 'alert "Sync in progress"'],
        ['button "Under banner"', 'dialog "Newsletter signup"'],
      ];
      for (const [target, cover] of covers) {
        const failed = await call(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, target)});
        expect(failed.isError, target).toBe(true);
        expect(failed.text, target).toContain(
          `A click at its center would land on ${cover} (uid ${uidOf(snapshot, cover)}) instead`,
        );
        expect(failed.text, target).toContain('Nothing was clicked.');
      }
      expect(await snapshotOf(fx.client, id)).toContain('Clicked Apply');
    });
  }
});
