/**
 * The pages built from real npm component libraries (test/fixtures/libraries) load from the
 * fixture server and show their key controls in our snapshot: the corpus the action and snapshot
 * tests (and bench/tasks.ts) run on.
 *
 * Tests: src/core/browser/snapshot/snapshot.ts, scripts/build-library-fixtures.mjs
 */
import {describe, expect, it} from 'vitest';
import {useEngineWithFixtures} from '../../helpers/engine.js';
import {openLibraryPage, type LibraryPage} from '../../helpers/libraryPages.js';
import {lineOf, snapshotOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures();

async function openReady(name: LibraryPage): Promise<{id: number; snapshot: string}> {
  const id = await openLibraryPage(fx.client, fx.server, name);
  return {id, snapshot: await snapshotOf(fx.client, id)};
}

describe('the library corpus', () => {
  it('Shoelace: buttons with slotted labels, dropdown, tree, tabs, range in shadow roots', async () => {
    const {snapshot} = await openReady('shoelace');
    for (const line of [
      'button "Save draft"',
      'button "Actions"',
      'tree "Files"',
      'treeitem "Documents"',
      'tab "Billing"',
      'slider "Volume"',
      'checkbox "Accept terms"',
    ]) {
      expect(lineOf(snapshot, line)).toContain(line);
    }
  });

  it('MUI on React 19: button, select, slider, checkbox, autocomplete', async () => {
    const {snapshot} = await openReady('mui');
    for (const line of [
      // MUI draws button labels in capitals (text-transform), as the accessible name has them.
      'button "ADD TO CART"',
      'combobox "Size"',
      'slider "Volume"',
      'checkbox "Send me the newsletter"',
      'combobox "City"',
    ]) {
      expect(lineOf(snapshot, line)).toContain(line);
    }
  });

  it('AG Grid: a grid with column headers and its first rows', async () => {
    const {snapshot} = await openReady('aggrid');
    expect(lineOf(snapshot, 'columnheader "Amount"')).toContain('columnheader');
    expect(lineOf(snapshot, '"Order 1"')).toContain('Order 1');
    expect(lineOf(snapshot, ' grid')).toMatch(/^ *\d+ grid rowcount=1001$/);
    expect(lineOf(snapshot, 'Showing 1000 rows')).toContain('Showing 1000 rows');
  });

  it('SortableJS and native drag and drop: the lists and the board', async () => {
    const {snapshot} = await openReady('sortable');
    expect(lineOf(snapshot, 'heading "Playlist"')).toContain('heading');
    expect(lineOf(snapshot, 'Delta')).toContain('Delta');
    expect(lineOf(snapshot, 'region "Done"')).toContain('region');
    expect(lineOf(snapshot, 'Write report')).toContain('Write report');
  });

  it('a 10,000-row virtualized list shows its rendered rows', async () => {
    const {snapshot} = await openReady('virtual');
    expect(lineOf(snapshot, 'listbox "Contacts"')).toContain('listbox');
    expect(lineOf(snapshot, 'option "Contact 1"')).toContain('option');
    expect(snapshot).not.toContain('Contact 9999');
  });
});
