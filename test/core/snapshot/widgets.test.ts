/**
 * Agent-like tasks on one fixture page per ARIA pattern: take a snapshot, find the uid in the text,
 * act, then check both the page's outcome and that the next snapshot shows the new state.
 *
 * Tests: src/core/browser/snapshot/axTree.ts, src/core/browser/snapshot/rules.ts
 */
import {describe, expect, it} from 'vitest';
import {useEngineWithFixtures} from '../../helpers/engine.js';
import {
  act,
  childrenOf,
  depthOf,
  evaluate,
  lineOf,
  snapshotOf,
  uidOf,
} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

async function open(name: string): Promise<{id: number; snapshot: string}> {
  const id = await fx.openPage(`/aria/${name}`);
  return {id, snapshot: await snapshotOf(fx.client, id)};
}

describe('collapsed and expanded (1)', () => {
  it('autocomplete combobox: fill opens the list that filters on keyup; an option is chosen', async () => {
    const {id, snapshot} = await open('combobox.html');
    const combo = uidOf(snapshot, 'combobox "Fruit"');
    expect(lineOf(snapshot, 'combobox "Fruit"')).toContain('collapsed');
    expect(lineOf(snapshot, 'combobox "Fruit"')).toContain('autocomplete=list');
    await act(fx.client, 'fill', {pageId: id, uid: combo, value: 'Ap'});
    const open1 = await snapshotOf(fx.client, id);
    expect(lineOf(open1, 'combobox "Fruit"')).toContain('expanded');
    const options = childrenOf(open1, 'listbox "Fruit"').join('\n');
    expect(options).toContain('option "Apple"');
    expect(options).toContain('option "Apricot"');
    expect(options).not.toContain('Banana');

    await act(fx.client, 'press_key', {pageId: id, key: 'ArrowDown'});
    const active = await snapshotOf(fx.client, id);
    expect(lineOf(active, 'option "Apple"')).toMatch(/\bactive\b/);
    expect(lineOf(active, 'option "Apple"')).toMatch(/\bselected\b/);

    await act(fx.client, 'click', {pageId: id, uid: uidOf(active, 'option "Apricot"')});
    expect(
      await evaluate(fx.client, id, '() => document.getElementById("chosen").textContent'),
    ).toBe('Chosen: Apricot');
    const chosen = await snapshotOf(fx.client, id);
    expect(lineOf(chosen, 'combobox "Fruit"')).toContain('value="Apricot"');
    expect(lineOf(chosen, 'combobox "Fruit"')).toContain('collapsed');
    expect(chosen).not.toContain('option "Apple"');
  });

  it('menu button: collapsed, opens a menu with a disabled item, reports the choice', async () => {
    const {id, snapshot} = await open('menu-button.html');
    expect(lineOf(snapshot, 'button "Actions"')).toMatch(/collapsed.*haspopup=menu/);
    const opened = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Actions"'),
      includeSnapshot: true,
    });
    expect(lineOf(opened, 'button "Actions"')).toContain('expanded');
    expect(lineOf(opened, 'menuitem "Archive"')).toContain('disabled');
    expect(lineOf(opened, 'menuitem "Edit"')).toContain('focused');
    const choice = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(opened, 'menuitem "Duplicate"'),
      includeSnapshot: true,
    });
    expect(childrenOf(choice, 'status').join('\n')).toContain('"You chose Duplicate"');
    expect(lineOf(choice, 'button "Actions"')).toContain('collapsed');
    expect(choice).not.toContain('menuitem');
  });

  it('accordion headers and native details show their state and open', async () => {
    const {id, snapshot} = await open('accordion.html');
    expect(lineOf(snapshot, 'button "Personal information"')).toContain('expanded');
    expect(lineOf(snapshot, 'button "Billing address"')).toContain('collapsed');
    expect(lineOf(snapshot, 'DisclosureTriangle "Shipping costs"')).toContain('collapsed');
    expect(snapshot).not.toContain('Billing street');
    // The label's text is the field's name already: one line, not two.
    expect(lineOf(snapshot, 'textbox "Name"')).toBeTruthy();
    expect(snapshot).not.toMatch(/^ *\d+ "Name ?"$/m);
    const billing = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Billing address"'),
      includeSnapshot: true,
    });
    expect(lineOf(billing, 'button "Billing address"')).toContain('expanded');
    expect(childrenOf(billing, 'region "Billing address"').join('\n')).toContain(
      'textbox "Billing street"',
    );
    const faq = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(billing, 'DisclosureTriangle "Shipping costs"'),
      includeSnapshot: true,
    });
    expect(lineOf(faq, 'DisclosureTriangle "Shipping costs"')).toContain('expanded');
    expect(faq).toContain('"Shipping is free above 50 euros."');
  });

  it('disclosure button and details', async () => {
    const {id, snapshot} = await open('disclosure.html');
    expect(lineOf(snapshot, 'button "Show specifications"')).toContain('collapsed');
    expect(lineOf(snapshot, 'DisclosureTriangle "Warranty"')).toContain('collapsed');
    expect(lineOf(snapshot, 'DisclosureTriangle "Returns"')).toContain('expanded');
    expect(snapshot).toContain('"Return within 30 days."');
    expect(snapshot).not.toContain('Two years');
    const shown = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Show specifications"'),
      includeSnapshot: true,
    });
    expect(lineOf(shown, 'button "Show specifications"')).toContain('expanded');
    expect(shown).toContain('"Weight: 2 kg"');
  });

  it('tree view: folders are collapsed treeitems; expanding shows children one level deeper', async () => {
    const {id, snapshot} = await open('tree.html');
    const documents = lineOf(snapshot, 'treeitem "Documents"');
    expect(documents).toContain('collapsed');
    expect(lineOf(snapshot, 'treeitem "notes.txt"')).not.toMatch(/collapsed|expanded/);
    const expanded = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'treeitem "Documents"'),
      includeSnapshot: true,
    });
    expect(lineOf(expanded, 'treeitem "Documents"')).toMatch(/expanded.*level=1|level=1.*expanded/);
    const report = lineOf(expanded, 'treeitem "report.pdf"');
    expect(depthOf(report)).toBeGreaterThan(depthOf(lineOf(expanded, 'treeitem "Documents"')));
    expect(lineOf(expanded, 'treeitem "Drafts"')).toContain('collapsed');
    const opened = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(expanded, 'treeitem "report.pdf"'),
      includeSnapshot: true,
    });
    expect(lineOf(opened, 'treeitem "report.pdf"')).toContain('selected');
    expect(opened).toContain('"Opened report.pdf"');
  });
});

describe('current item (2)', () => {
  it('shows aria-current page, step, true, date and location, and not false', async () => {
    const {snapshot} = await open('breadcrumb.html');
    expect(lineOf(snapshot, 'link "Shoes"')).toContain('current=page');
    expect(lineOf(snapshot, 'link "Home"')).not.toContain('current');
    expect(lineOf(snapshot, 'current=step')).toMatch(/listitem/);
    expect(childrenOf(snapshot, 'current=step').join('\n')).toContain('"Shipping"');
    expect(lineOf(snapshot, 'link "2"')).toMatch(/\bcurrent\b(?!=)/);
    expect(childrenOf(snapshot, 'current=date').join('\n')).toContain('"today"');
    expect(childrenOf(snapshot, 'current=location').join('\n')).toContain('"Copenhagen"');
    expect(snapshot.split('\n').filter(line => / current(=\S+)?(?= |$)/.test(line))).toHaveLength(
      5,
    );
  });

  it('date picker: today is current=date in the calendar dialog; picking fills the field', async () => {
    const {id, snapshot} = await open('datepicker.html');
    expect(lineOf(snapshot, 'button "Choose date"')).toMatch(/collapsed.*haspopup=dialog/);
    const calendar = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Choose date"'),
      includeSnapshot: true,
    });
    expect(lineOf(calendar, 'dialog "Choose date"')).toContain('modal');
    expect(lineOf(calendar, 'button "March 14, 2024"')).toContain('current=date');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(calendar, 'button "March 20, 2024"')});
    const picked = await snapshotOf(fx.client, id);
    expect(lineOf(picked, 'textbox "Date"')).toContain('value="2024-03-20"');
    expect(picked).not.toMatch(/ dialog "/);
  });
});

describe('containers (3)', () => {
  it('tab panels show their text by default and switch with the tab', async () => {
    const {id, snapshot} = await open('tabs.html');
    expect(lineOf(snapshot, 'tab "Maria Ahlefeldt"')).toContain('selected');
    expect(childrenOf(snapshot, 'tabpanel "Maria Ahlefeldt"').join('\n')).toContain(
      'first female composer in Denmark',
    );
    const second = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'tab "Carl Andersen"'),
      includeSnapshot: true,
    });
    expect(lineOf(second, 'tab "Carl Andersen"')).toMatch(/focused.*selected/);
    expect(childrenOf(second, 'tabpanel "Carl Andersen"').join('\n')).toContain('Danish flutist');
    expect(second).not.toContain('first female composer');
  });

  it('modal dialog, alertdialog and native <dialog> appear with their content', async () => {
    const {id, snapshot} = await open('dialog.html');
    const opened = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Add delivery address"'),
      includeSnapshot: true,
    });
    expect(lineOf(opened, 'dialog "Add delivery address"')).toContain('modal');
    const inside = childrenOf(opened, 'dialog "Add delivery address"').join('\n');
    expect(inside).toContain('textbox "Street"');
    expect(inside).toContain('button "Save"');
    await act(fx.client, 'fill_form', {
      pageId: id,
      elements: [
        {uid: uidOf(opened, 'textbox "Street"'), value: 'Main St 1'},
        {uid: uidOf(opened, 'textbox "City"'), value: 'Aarhus'},
      ],
    });
    const saved = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(opened, 'button "Save"'),
      includeSnapshot: true,
    });
    expect(saved).toContain('"Saved: Main St 1, Aarhus"');
    expect(saved).not.toMatch(/ dialog "/);

    const confirm = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(saved, 'button "Delete all addresses"'),
      includeSnapshot: true,
    });
    const alert = lineOf(confirm, 'alertdialog "Confirmation"');
    expect(alert).toContain('modal');
    expect(alert).toContain('description="Are you sure you want to delete all addresses?"');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(confirm, 'button "No"')});

    const terms = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(confirm, 'button "Show terms"'),
      includeSnapshot: true,
    });
    expect(lineOf(terms, 'dialog "Terms of use"')).toContain('modal');
    expect(childrenOf(terms, 'dialog "Terms of use"').join('\n')).toContain('"Use it kindly."');
  });

  it('live regions (status, alert, log) are shown, and their messages under them', async () => {
    const {id, snapshot} = await open('live.html');
    for (const role of ['status', 'alert', 'log "Activity"']) {
      expect(snapshot).toMatch(new RegExp(`^ *\\d+ ${role}`, 'm'));
    }
    expect(lineOf(snapshot, 'progressbar "Upload"')).toMatch(/value=40/);
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Break something"')});
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Add log entry"')});
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Save draft"')});
    const waited = await act(fx.client, 'wait_for', {pageId: id, text: ['Draft saved']});
    expect(childrenOf(waited, 'status').join('\n')).toContain('"Draft saved"');
    expect(childrenOf(waited, 'alert').join('\n')).toContain('"Connection lost"');
    expect(childrenOf(waited, 'log "Activity"').join('\n')).toContain('"Entry 1"');
  });

  it('carousel slides are groups with roledescription; Next shows the next slide', async () => {
    const {id, snapshot} = await open('carousel.html');
    expect(lineOf(snapshot, 'region "Highlighted trips"')).toContain('roledescription=carousel');
    expect(lineOf(snapshot, 'group "1 of 3"')).toContain('roledescription=slide');
    expect(childrenOf(snapshot, 'group "1 of 3"').join('\n')).toContain('link "Book Europe"');
    const next = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Next slide"'),
      includeSnapshot: true,
    });
    expect(childrenOf(next, 'group "2 of 3"').join('\n')).toContain('link "Book Asia"');
    expect(next).not.toContain('Book Europe');
  });

  it('grid: column sort state, sorting by another column', async () => {
    const {id, snapshot} = await open('grid.html');
    expect(lineOf(snapshot, 'grid "Transactions"')).toBeTruthy();
    expect(lineOf(snapshot, 'columnheader "Date"')).toContain('sort=ascending');
    const sorted = await act(fx.client, 'click', {
      pageId: id,
      uid: uidOf(snapshot, 'button "Amount"'),
      includeSnapshot: true,
    });
    expect(lineOf(sorted, 'columnheader "Amount"')).toContain('sort=ascending');
    expect(sorted).not.toMatch(/columnheader "Date".*sort/);
    const cells = sorted.split('\n').filter(line => line.includes('gridcell'));
    expect(cells[0]).toContain('"2024-01-02"');
  });

  it('table rows that hold controls are shown, so the buttons of each row are told apart', async () => {
    const {id, snapshot} = await open('table.html');
    const rows = snapshot.split('\n').filter(line => / row( |$)/.test(line));
    // The three user rows hold buttons; the header row and the plain table's row do not.
    expect(rows).toHaveLength(3);
    // A row named after its cells says nothing its children do not: no name printed.
    expect(rows.every(line => !line.includes('"'))).toBe(true);
    const bobRow = childrenOf(snapshot, rows[1] ?? '').join('\n');
    expect(bobRow).toContain('"Bob"');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(bobRow, 'button "Delete"')});
    expect(await evaluate(fx.client, id, '() => document.getElementById("out").textContent')).toBe(
      'Deleted Bob',
    );
  });

  it('messy markup: image links, div buttons, unlabeled controls; hidden content stays out', async () => {
    const {id, snapshot} = await open('messy.html');
    expect(childrenOf(snapshot, 'link "Acme home"').join('\n')).toContain('image "Acme home"');
    expect(snapshot).not.toContain('base64,R0lG');
    expect(snapshot).not.toContain('Decorative banner text');
    expect(snapshot).not.toContain('Invisible');
    expect(lineOf(snapshot, 'checkbox "Gift wrap"')).not.toContain('checked');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Add to cart"')});
    await act(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(snapshot, 'checkbox "Gift wrap"'),
      value: 'true',
    });
    await act(fx.client, 'fill', {pageId: id, uid: uidOf(snapshot, 'checkbox'), value: 'true'});
    const after = await snapshotOf(fx.client, id);
    expect(after).toContain('"Added to cart"');
    expect(lineOf(after, 'checkbox "Gift wrap"')).toContain('checked');
    expect(await evaluate(fx.client, id, '() => document.getElementById("nolabel").checked')).toBe(
      true,
    );
    await act(fx.client, 'click', {pageId: id, uid: uidOf(after, 'link "Deals"')});
    expect(await evaluate(fx.client, id, '() => document.getElementById("out").textContent')).toBe(
      'Went to deals',
    );
    // A visible button that aria-hidden takes from screen readers is still shown, and clickable.
    expect(lineOf(snapshot, 'button "Buy now"')).toContain('aria-hidden');
    expect(snapshot).not.toContain('Really hidden');
    expect(snapshot).not.toContain('Clipped slide');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "Buy now"')});
    expect(await evaluate(fx.client, id, '() => document.getElementById("out").textContent')).toBe(
      'Bought now',
    );
  });
});

describe('options (4)', () => {
  it('shows short listboxes whole, with selected, active and multiselectable', async () => {
    const {id, snapshot} = await open('listbox.html');
    const planets = childrenOf(snapshot, 'listbox "Favourite planet"').join('\n');
    for (const planet of ['Mercury', 'Venus', 'Earth', 'Mars']) {
      expect(planets).toContain(`option "${planet}"`);
    }
    expect(lineOf(snapshot, 'option "Earth"')).toMatch(/active selected/);
    expect(lineOf(snapshot, 'listbox "Toppings"')).toContain('multiselectable');
    expect(lineOf(snapshot, 'option "Basil"')).toContain('selected');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'option "Mars"')});
    const after = await snapshotOf(fx.client, id);
    expect(lineOf(after, 'option "Mars"')).toMatch(/active selected/);
    expect(lineOf(after, 'option "Earth"')).not.toContain('selected');
  });

  it('windows a long listbox around its selected option and lists the rest on request', async () => {
    const {id, snapshot} = await open('listbox.html');
    const airports = childrenOf(snapshot, 'listbox "Airport"');
    const options = airports.filter(line => line.includes('option "'));
    expect(options.length).toBeLessThanOrEqual(21);
    expect(lineOf(snapshot, 'option "Airport 150"')).toContain('selected');
    const listbox = uidOf(snapshot, 'listbox "Airport"');
    const gaps = airports.filter(line => line.includes('more options'));
    expect(gaps).toHaveLength(2);
    const hidden = gaps.map(line => Number(/… (\d+) more options/.exec(line)?.[1]));
    expect(options.length + (hidden[0] ?? 0) + (hidden[1] ?? 0)).toBe(200);
    expect(gaps[0]).toContain(`take_snapshot with uid ${listbox}`);
    expect(snapshot).not.toContain('option "Airport 1"');

    const all = await snapshotOf(fx.client, id, {uid: listbox});
    expect(all.split('\n').filter(line => line.includes('option "Airport'))).toHaveLength(200);
    expect(all).not.toContain('more options');
    expect(all).not.toContain('Favourite planet');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(all, 'option "Airport 199"')});
    expect(
      await evaluate(fx.client, id, '() => document.getElementById("choice").textContent'),
    ).toBe('Chosen Airport 199');
    // uids handed out before the partial snapshot still work.
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'option "Mars"')});
  });

  it('windows a long native select; fill picks an option that is not shown', async () => {
    const {id, snapshot} = await open('listbox.html');
    const country = uidOf(snapshot, 'combobox "Country"');
    expect(lineOf(snapshot, 'option "Country 2"')).toContain('selected');
    expect(lineOf(snapshot, 'more options')).toBeTruthy();
    expect(snapshot).toContain(`fill uid ${country} with an option's text`);
    await act(fx.client, 'fill', {pageId: id, uid: country, value: 'Country 99'});
    expect(await evaluate(fx.client, id, '() => document.getElementById("country").value')).toBe(
      'c99',
    );
    const after = await snapshotOf(fx.client, id);
    expect(lineOf(after, 'combobox "Country"')).toContain('value="Country 99"');
    expect(lineOf(after, 'option "Country 99"')).toContain('selected');
  });
});

describe('values (7)', () => {
  it('slider: value, range and valuetext; arrow keys change them', async () => {
    const {id, snapshot} = await open('slider.html');
    const slider = lineOf(snapshot, 'slider "Temperature"');
    expect(slider).toContain('value=20');
    expect(slider).toContain('valuemin=10');
    expect(slider).toContain('valuemax=30');
    expect(slider).toContain('valuetext="20 degrees"');
    expect(slider).not.toContain('orientation');
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'slider "Temperature"')});
    await act(fx.client, 'press_key', {pageId: id, key: 'ArrowRight'});
    const after = await snapshotOf(fx.client, id);
    expect(lineOf(after, 'slider "Temperature"')).toMatch(/value=21 .*valuetext="21 degrees"/);
  });

  it('spinbutton: value and range; the increment button raises it', async () => {
    const {id, snapshot} = await open('spinbutton.html');
    expect(lineOf(snapshot, 'spinbutton "Guests"')).toMatch(/value=2 valuemax=8 valuemin=1/);
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "More guests"')});
    const after = await snapshotOf(fx.client, id);
    expect(lineOf(after, 'spinbutton "Guests"')).toContain('value=3');
    await act(fx.client, 'fill', {
      pageId: id,
      uid: uidOf(after, 'spinbutton "Nights"'),
      value: '7',
    });
    expect(lineOf(await snapshotOf(fx.client, id), 'spinbutton "Nights"')).toContain('value=7');
  });
});

describe('generated content', () => {
  it('marks text CSS made (quote marks, ::before, ::after) generated, also after a change', async () => {
    const {id, snapshot} = await open('generated.html');
    const generated = (text: string): string[] =>
      text.split('\n').filter(line => /\bgenerated$/.test(line));
    expect(generated(snapshot).map(line => line.replace(/^\s*\d+ /, ''))).toEqual([
      '"“" generated',
      '"”" generated',
      '"★ " generated',
      '" items" generated',
    ]);
    // The text the DOM holds is not marked.
    for (const text of ['"Ada said "', '"works well"', '"Top pick"', '"3"']) {
      expect(lineOf(snapshot, text)).not.toContain('generated');
    }
    await act(fx.client, 'click', {pageId: id, uid: uidOf(snapshot, 'button "More quotes"')});
    const after = await snapshotOf(fx.client, id);
    expect(lineOf(after, '"fast"')).not.toContain('generated');
    expect(generated(after)).toHaveLength(6);
  });
});
