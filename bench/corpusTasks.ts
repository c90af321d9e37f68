/**
 * Scripted-agent tasks over the mechanism pages (test/fixtures/pages/actions: slotted buttons,
 * inner scrollers, scrollers around iframes, a slider's hidden input, an animating sortable,
 * native drag and drop, smooth scrolling) and the pages built from npm component libraries
 * (test/fixtures/libraries), for bench/tasks.ts. Each task acts as an agent would and checks the
 * page's own state afterwards.
 */

/** What a task may do: the agent of bench/tasks.ts. */
export interface TaskAgent {
  look(): Promise<string>;
  find(fragments: string[], after?: string): Promise<string>;
  click(fragments: string[], after?: string): Promise<void>;
  fill(fragments: string[], value: string, after?: string): Promise<void>;
  tool(name: string, args: Record<string, unknown>): Promise<string>;
  sees(...fragments: string[]): Promise<boolean>;
  check(source: string): Promise<unknown>;
}

export interface CorpusTask {
  name: string;
  path: string;
  /** The page embeds a cross-site frame: give it a moment to load before the agent looks. */
  frames?: boolean;
  /** The page is built from a library: wait until it marked itself ready. */
  ready?: boolean;
  run: (agent: TaskAgent) => Promise<boolean>;
}

const text = (selector: string): string =>
  `() => document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`;

async function drag(a: TaskAgent, from: string[], to: string[]): Promise<void> {
  await a.tool('drag', {from_uid: await a.find(from), to_uid: await a.find(to)});
  await a.look();
}

async function pressKey(a: TaskAgent, key: string): Promise<void> {
  await a.tool('press_key', {key});
  await a.look();
}

export const MECHANISM_TASKS: CorpusTask[] = [
  {
    name: 'mechanism: slotted label two shadow roots deep, Publish',
    path: '/actions/slotted-button.html',
    run: async a => {
      await a.click(['button "Publish"']);
      return (await a.check(text('#result'))) === 'Clicked Publish';
    },
  },
  {
    name: 'mechanism: row clipped by an inner list, File 9',
    path: '/actions/inner-scroller.html',
    run: async a => {
      await a.click(['button "File 9"']);
      return (await a.check(text('#status'))) === 'Opened File 9';
    },
  },
  {
    name: 'mechanism: scroller in a scroller, fill the deep field',
    path: '/actions/inner-scroller.html',
    run: async a => {
      await a.fill(['textbox "Deep field"'], 'abc');
      return (await a.check(text('#deepResult'))) === 'Typed abc';
    },
  },
  {
    name: 'mechanism: scroller in a cross-site iframe in a scroller',
    path: '/actions/scroller-frames.html?site=cross',
    frames: true,
    run: async a => {
      await a.click(['button "Row 5"']);
      return a.sees('Picked Row 5');
    },
  },
  {
    name: 'mechanism: scroller in a same-site iframe in a scroller',
    path: '/actions/scroller-frames.html?site=same',
    frames: true,
    run: async a => {
      await a.click(['button "Row 5"']);
      return a.sees('Picked Row 5');
    },
  },
  {
    name: 'mechanism: slider input hidden in its thumb',
    path: '/actions/hidden-input-slider.html',
    run: async a => {
      await a.click(['slider "Volume"']);
      return (await a.check(text('#result'))) === 'Volume 40, focused';
    },
  },
  {
    name: 'mechanism: animated sortable, Delta before Alpha',
    path: '/actions/sortable-animated.html',
    run: async a => {
      await drag(a, ['"Delta"'], ['"Alpha"']);
      return (await a.check(text('#order'))) === 'Delta, Alpha, Beta, Gamma, Epsilon';
    },
  },
  {
    name: 'mechanism: native drag and drop, Garden before Dishes',
    path: '/actions/native-dnd.html',
    run: async a => {
      await drag(a, ['"Garden"'], ['"Dishes"']);
      return (await a.check(text('#order'))) === 'Garden, Dishes, Laundry, Groceries';
    },
  },
  {
    name: 'mechanism: smooth scroll, End shows the last track',
    path: '/actions/smooth-scroll.html',
    run: async a => {
      await a.click(['listbox "Tracks"']);
      await pressKey(a, 'End');
      return a.sees('option "Track 1000"');
    },
  },
];

export const LIBRARY_TASKS: CorpusTask[] = [
  {
    name: 'library: Shoelace, save the draft',
    path: '/libraries/shoelace.html',
    ready: true,
    run: async a => {
      await a.click(['button "Save draft"']);
      return (await a.check(text('#result'))) === 'Saved 1';
    },
  },
  {
    name: 'library: Shoelace dropdown, choose Archive',
    path: '/libraries/shoelace.html',
    ready: true,
    run: async a => {
      await a.click(['button "Actions"']);
      await a.click(['menuitem "Archive"']);
      return (await a.check(text('#result'))) === 'Chose Archive';
    },
  },
  {
    name: 'library: Shoelace dialog, confirm the order',
    path: '/libraries/shoelace.html',
    ready: true,
    run: async a => {
      await a.click(['button "Open dialog"']);
      await a.click(['button "Confirm"']);
      return (await a.check(text('#result'))) === 'Confirmed';
    },
  },
  {
    name: 'library: Shoelace tabs, read Billing',
    path: '/libraries/shoelace.html',
    ready: true,
    run: async a => {
      await a.click(['tab "Billing"']);
      return a.sees('accounts@example.com');
    },
  },
  {
    name: 'library: MUI, add to cart',
    path: '/libraries/mui.html',
    ready: true,
    run: async a => {
      await a.click(['button "ADD TO CART"']);
      return (await a.check(text('#result'))) === 'Added 1';
    },
  },
  {
    name: 'library: MUI select, choose Large',
    path: '/libraries/mui.html',
    ready: true,
    run: async a => {
      await a.click(['combobox "Size"']);
      await a.click(['option "Large"']);
      return (await a.check(text('#result'))) === 'Size Large';
    },
  },
  {
    name: 'library: MUI dialog, delete the account',
    path: '/libraries/mui.html',
    ready: true,
    run: async a => {
      await a.click(['button "DELETE ACCOUNT"']);
      await a.click(['button "DELETE"']);
      return (await a.check(text('#result'))) === 'Deleted';
    },
  },
  {
    name: 'library: MUI autocomplete, pick Oslo',
    path: '/libraries/mui.html',
    ready: true,
    run: async a => {
      await a.fill(['combobox "City"'], 'Os');
      await a.click(['option "Oslo"']);
      return (await a.check(text('#result'))) === 'City Oslo';
    },
  },
  {
    name: 'library: MUI checkbox and slider',
    path: '/libraries/mui.html',
    ready: true,
    run: async a => {
      await a.click(['checkbox "Send me the newsletter"']);
      const ticked = (await a.check(text('#result'))) === 'Newsletter on';
      await a.click(['slider "Volume"']);
      return ticked && (await a.check(text('#result'))) === 'Volume 30';
    },
  },
  {
    name: 'library: AG Grid, filter to Zagreb',
    path: '/libraries/aggrid.html',
    ready: true,
    run: async a => {
      await a.fill(['searchbox "Filter orders"'], 'Zagreb');
      return (await a.check(text('#result'))) === 'Showing 3 rows' && (await a.sees('"Order 778"'));
    },
  },
  {
    name: 'library: AG Grid, sort by amount',
    path: '/libraries/aggrid.html',
    ready: true,
    run: async a => {
      await a.click(['columnheader "Amount"']);
      return (await a.check(text('#sorted'))) === 'Sorted by amount asc';
    },
  },
  {
    name: 'library: SortableJS (native), Delta before Alpha',
    path: '/libraries/sortable.html',
    ready: true,
    run: async a => {
      await drag(a, ['"Delta"'], ['"Alpha"']);
      return (await a.check(text('#native-list-order'))) === 'Delta, Alpha, Beta, Gamma, Epsilon';
    },
  },
  {
    name: 'library: SortableJS (pointer), Four before One',
    path: '/libraries/sortable.html',
    ready: true,
    run: async a => {
      await drag(a, ['"Four"'], ['"One"']);
      return (await a.check(text('#fallback-list-order'))) === 'Four, One, Two, Three, Five';
    },
  },
  {
    name: 'library: drag and drop board, Write report to Done',
    path: '/libraries/sortable.html',
    ready: true,
    run: async a => {
      await drag(a, ['"Write report"'], ['region "Done"']);
      return (await a.check(text('#board-status'))) === 'To do: Call Ana; Done: Write report';
    },
  },
  {
    name: 'library: 10,000-row virtual list, choose Contact 9999',
    path: '/libraries/virtual.html',
    ready: true,
    run: async a => {
      await a.click(['listbox "Contacts"']);
      await pressKey(a, 'End');
      await a.click(['option "Contact 9999"']);
      return (await a.check(text('#result'))) === 'Chosen Contact 9999';
    },
  },
];
