/**
 * Actions land where the agent meant, or say where they would have landed: the hard cases of
 * real component libraries (test/fixtures/pages/actions), on a real Chromium.
 */
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {act, evaluate, snapshotOf, uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

async function open(pathname: string): Promise<{id: number; snapshot: string}> {
  const id = await fx.openPage(pathname, pathname.split('?')[0]);
  return {id, snapshot: await snapshotOf(fx.client, id)};
}

async function text(id: number, selector: string): Promise<unknown> {
  return evaluate(
    fx.client,
    id,
    `() => document.querySelector(${JSON.stringify(selector)})?.textContent`,
  );
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
