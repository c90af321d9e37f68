/**
 * What an export asserts between two snapshots of one page, line by line (no browser): every
 * state and value the agent saw change, each with a message naming it; texts on located elements
 * (a whole-text element's toHaveText, or getByText exact or anchored where the snapshot shows an
 * end), never a substring of the page; no text CSS generated, no list marker.
 *
 * Tests: src/core/recordings/export/observed.ts, src/core/recordings/export/context.ts,
 *   src/core/recordings/export/snapshot.ts
 */
import {describe, expect, it} from 'vitest';
import type {HelperName} from '../../../src/core/recordings/export/context.js';
import {observedChanges, type FieldKind} from '../../../src/core/recordings/export/observed.js';
import {parseSnapshot, type ParsedSnapshot} from '../../../src/core/recordings/export/snapshot.js';

function snapshot(...lines: string[]): ParsedSnapshot {
  const parsed = parseSnapshot(
    ['## Latest page snapshot', '0 RootWebArea "Page" url="https://x.test/"', ...lines].join('\n'),
  );
  if (!parsed) {
    throw new Error('no snapshot');
  }
  return parsed;
}

function changes(
  before: ParsedSnapshot,
  after: ParsedSnapshot,
  fields = new Map<string, FieldKind>(),
): {lines: string[]; helpers: Set<HelperName>} {
  const helpers = new Set<HelperName>();
  const lines = observedChanges(
    {
      scopeOf: () => 'page',
      fields,
      helper: name => {
        helpers.add(name);
        return name;
      },
    },
    before,
    after,
  );
  return {lines, helpers};
}

describe('states and values', () => {
  it('asserts values, focus, enabled, the active descendant and attribute states', () => {
    const before = snapshot(
      ' 1 slider "Red" value=128 valuemax=255 valuemin=0',
      ' 2 slider "Green" value=128 valuemax=255 valuemin=0',
      ' 3 button "Book" disabled',
      ' 4 textbox "Hex" value="#808080" readonly',
      ' 5 listbox "Planets"',
      '  6 option "Mars"',
      '  7 option "Venus"',
      ' 8 columnheader "Date"',
      ' 9 region "Results"',
      ' 10 combobox "Seat" value="Bar" collapsed',
      ' 11 slider "Heat" value=20 valuetext="20 degrees"',
    );
    const after = snapshot(
      ' 1 slider "Red" value=255 valuemax=255 valuemin=0',
      ' 2 slider "Green" value=0 focused valuemax=255 valuemin=0',
      ' 3 button "Book"',
      ' 4 textbox "Hex" value="#ff0080"',
      ' 5 listbox "Planets"',
      '  6 option "Mars"',
      '  7 option "Venus" active selected',
      ' 8 columnheader "Date" sort=ascending',
      ' 9 region "Results" busy description="Loading the results"',
      ' 10 combobox "Seat" value="Window table" collapsed',
      ' 11 slider "Heat" value=21 valuetext="21 degrees"',
    );
    const {lines, helpers} = changes(before, after);
    const green = 'page.getByRole("slider", { name: "Green", exact: true }).first()';
    expect(lines).toEqual([
      `await expect(${green}, "slider \\"Green\\" is focused").toBeFocused();`,
      'await expectActiveDescendant(page.getByRole("option", { name: "Venus", exact: true }).first(), "option \\"Venus\\" is the active descendant");',
      'await expectValue(page.getByRole("slider", { name: "Red", exact: true }).first(), "255", "slider \\"Red\\" value is \\"255\\"");',
      `await expectValue(${green}, "0", "slider \\"Green\\" value is \\"0\\"");`,
      'await expect(page.getByRole("button", { name: "Book", exact: true }).first(), "button \\"Book\\" is enabled").toBeEnabled();',
      'await expectValue(page.getByRole("textbox", { name: "Hex", exact: true }).first(), "#ff0080", "textbox \\"Hex\\" value is \\"#ff0080\\"");',
      'await expect(page.getByRole("textbox", { name: "Hex", exact: true }).first(), "textbox \\"Hex\\" is editable").toBeEditable();',
      'await expect(page.getByRole("option", { name: "Venus", exact: true }).first().and(page.getByRole("option", { selected: true })), "option \\"Venus\\" is selected").toHaveCount(1);',
      'await expect(page.getByRole("columnheader", { name: "Date", exact: true }).first(), "columnheader \\"Date\\" has aria-sort \\"ascending\\"").toHaveAttribute("aria-sort", "ascending");',
      'await expect(page.getByRole("region", { name: "Results", exact: true }).first(), "region \\"Results\\" is described as \\"Loading the results\\"").toHaveAccessibleDescription("Loading the results");',
      'await expect(page.getByRole("region", { name: "Results", exact: true }).first(), "region \\"Results\\" has aria-busy \\"true\\"").toHaveAttribute("aria-busy", "true");',
      'await expectValue(page.getByRole("combobox", { name: "Seat", exact: true }).first(), "Window table", "combobox \\"Seat\\" value is \\"Window table\\"");',
    ]);
    expect(helpers).toEqual(new Set(['expectValue', 'expectActiveDescendant']));
    // Past the bound (12 state lines), the rest is left out rather than the test made unreadable.
    expect(lines.join('\n')).not.toContain('aria-valuetext');
  });

  it('asserts a filled field directly, and no value a line does not show', () => {
    const before = snapshot(' 1 textbox "Name" value="Ada"', ' 2 textbox "City" value="Oslo"');
    // "Name" now equals its value, so the line leaves the value out: it is not known to be empty.
    const after = snapshot(' 1 textbox "Name"', ' 2 textbox "City" value="Bergen"');
    const {lines} = changes(before, after, new Map([['2', 'text']]));
    expect(lines).toEqual([
      'await expect(page.getByRole("textbox", { name: "City", exact: true }).first(), "textbox \\"City\\" value is \\"Bergen\\"").toHaveValue("Bergen");',
    ]);
  });
});

describe('texts', () => {
  it('asserts DOM text on located elements, never CSS-generated text or list markers', () => {
    const before = snapshot(' 1 heading "Book" level=1', ' 2 button "Book"', ' 7 status');
    const after = snapshot(
      ' 1 heading "Book" level=1',
      ' 2 button "Book"',
      ' 3 "Our host says: "',
      ' 4 "“" generated',
      ' 5 "Window tables seat two"',
      ' 6 "”" generated',
      ' 7 status',
      '  8 "2 guests"',
      ' 9 heading "Menu" level=2',
      ' 10 ListMarker "1. "',
      ' 11 "First course"',
      ' 12 separator',
      ' 13 "Served at noon"',
      ' 14 link "Details"',
    );
    const {lines} = changes(before, after);
    expect(lines).toEqual([
      'await expect(page.getByRole("heading", { name: "Menu", exact: true }).first()).toBeVisible();',
      'await expect(page.getByRole("link", { name: "Details", exact: true }).first()).toBeVisible();',
      'await expect(page.getByRole("status").first(), "status shows \\"2 guests\\"").toHaveText("2 guests");',
      // After a button (it may share the element): open at the start; a status after: the end.
      'await expect(page.getByText(/Our\\s+host\\s+says:\\s*Window\\s+tables\\s+seat\\s+two\\s*$/).filter({ visible: true }).first(), "text \\"Our host says: Window tables seat two\\" is shown").toBeVisible();',
      // Between a heading (the list marker is not text) and a separator: its element's whole text.
      'await expect(page.getByText("First course", { exact: true }).filter({ visible: true }).first(), "text \\"First course\\" is shown").toBeVisible();',
      'await expect(page.getByText(/^\\s*Served\\s+at\\s+noon/).filter({ visible: true }).first(), "text \\"Served at noon\\" is shown").toBeVisible();',
    ]);
    expect(lines.join('\n')).not.toMatch(/[“”]|1\. /);
  });

  it('asserts a text that went, as the element that held it', () => {
    const before = snapshot(
      ' 1 heading "Files" level=1',
      ' 2 "No file opened"',
      ' 3 button "Open"',
    );
    const after = snapshot(' 1 heading "Files" level=1', ' 3 button "Open"');
    expect(changes(before, after).lines).toEqual([
      'await expect(page.getByText(/^\\s*No\\s+file\\s+opened/).filter({ visible: true }), "text \\"No file opened\\" is gone").toHaveCount(0);',
    ]);
  });
});
