/**
 * Agent runs over the keyboard-driven widget pages (W3C ARIA patterns in
 * test/fixtures/pages/widgets: colour sliders, a quantity spin button, a data grid, a file tree, a
 * listbox with an active descendant): focus a widget by clicking it or pressing Tab, press keys,
 * read the snapshot. What changes is what the page's scripts do with the keys: values, focus,
 * enabled buttons, expanded and selected items, a select the page sets, texts that appear.
 */
import {uidOf} from './snapshotText.js';
import type {Agent, WidgetSession} from './widgetSessions.js';

async function press(agent: Agent, pageId: number, ...keys: string[]): Promise<void> {
  for (const key of keys) {
    await agent.ok('press_key', {pageId, key});
  }
}

export const KEYBOARD_SESSIONS: Record<string, WidgetSession> = {
  /** Red to its end, Green to its start: the agent sees both values and the hex field change. */
  async colorSlider(agent) {
    const page = await agent.open('/widgets/color-slider.html');
    const first = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'slider "Red"')});
    await press(agent, page, 'End');
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'slider "Green"')});
    await press(agent, page, 'Home');
    await agent.snapshot(page);
  },

  /** Two guests: the value, two buttons enabled, the seating the page picks, a quoted note. */
  async spinbutton(agent) {
    const page = await agent.open('/widgets/spinbutton.html');
    const first = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'spinbutton "Guests"')});
    await press(agent, page, 'ArrowUp', 'ArrowUp');
    await agent.snapshot(page);
  },

  /** The only change is where the focus went: one cell right and one row down. */
  async grid(agent) {
    const page = await agent.open('/widgets/grid.html');
    const first = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'gridcell "2024-01-01"')});
    await press(agent, page, 'ArrowRight', 'ArrowDown');
    await agent.snapshot(page);
  },

  /** Expand a folder, move into it, select a file. */
  async tree(agent) {
    const page = await agent.open('/widgets/tree.html');
    const first = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'treeitem "Documents"')});
    await press(agent, page, 'ArrowRight');
    await agent.snapshot(page);
    await press(agent, page, 'ArrowDown', 'Enter');
    await agent.snapshot(page);
  },

  /** Tab into the list, two options down: the active descendant and the selection follow. */
  async listbox(agent) {
    const page = await agent.open('/widgets/listbox.html');
    await agent.snapshot(page);
    await press(agent, page, 'Tab', 'ArrowDown', 'ArrowDown');
    await agent.snapshot(page);
  },
};
