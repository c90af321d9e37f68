/**
 * `npx tsx bench/tasks.ts [--runs=N] [--only=TEXT]`: a scripted agent runs the same tasks on the
 * fixture pages (the ARIA widgets, and the hard cases for actions: animations, overlays, sticky
 * headers, shadow roots in cross-site frames, double-click detectors, tooltips) against this
 * server and chrome-devtools-mcp, and counts the characters it reads (every tool answer) and the
 * tasks it finishes, each task N times (default 1). `--only` keeps the tasks whose name contains
 * TEXT ("action:" for the hard cases); `--ours=PATH` runs another build of this server (an older
 * commit's out/node/cli/index.js, for before/after numbers). Like a real agent it takes a snapshot, looks for the line it
 * needs, and when the line is missing follows the snapshot's own hint or falls back to a verbose
 * snapshot. `--diffs` adds a third run of this server with --snapshotDiffs, where the agent keeps
 * the last whole snapshot of its page and applies the changes it is answered with.
 */
import fs from 'node:fs';
import path from 'node:path';
import {execFileSync} from 'node:child_process';
import {FixtureServer} from '../test/helpers/fixtureServer.js';
import {LIBRARY_TASKS, MECHANISM_TASKS} from './corpusTasks.js';
import {ROOT, startServer} from './lib.js';
import {runTask, type Task} from './taskAgent.js';

const text = (selector: string): string =>
  `() => document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`;

const TASKS: Task[] = [
  {
    name: 'combobox: type to filter, pick Apricot',
    path: '/aria/combobox.html',
    run: async a => {
      await a.fill(['combobox "Fruit"'], 'Ap');
      await a.click(['option "Apricot"']);
      return (await a.check(text('#chosen'))) === 'Chosen: Apricot';
    },
  },
  {
    name: 'menu button: choose Duplicate',
    path: '/aria/menu-button.html',
    run: async a => {
      await a.click(['button "Actions"']);
      await a.click(['menuitem "Duplicate"']);
      return (await a.check(text('#result'))) === 'You chose Duplicate';
    },
  },
  {
    name: 'tabs: read the second panel',
    path: '/aria/tabs.html',
    run: async a => {
      await a.click(['tab "Carl Andersen"']);
      return a.sees('Danish flutist');
    },
  },
  {
    name: 'modal dialog: add an address',
    path: '/aria/dialog.html',
    run: async a => {
      await a.click(['button "Add delivery address"']);
      await a.fill(['textbox "Street"'], 'Main St 1');
      await a.fill(['textbox "City"'], 'Aarhus');
      await a.click(['button "Save"']);
      return (await a.check(text('#saved'))) === 'Saved: Main St 1, Aarhus';
    },
  },
  {
    name: 'accordion: is Billing collapsed? open it and fill it',
    path: '/aria/accordion.html',
    run: async a => {
      const known = /button "Billing address".*collapsed/.test(a.snapshot);
      await a.click(['button "Billing address"']);
      await a.fill(['textbox "Billing street"'], 'Elm 2');
      return known && (await a.check('() => document.getElementById("billing").value')) === 'Elm 2';
    },
  },
  {
    name: 'tree: open Documents/report.pdf',
    path: '/aria/tree.html',
    run: async a => {
      const folder = /treeitem "Documents".*(collapsed|expandable)/.test(a.snapshot);
      await a.click(['treeitem "Documents"']);
      await a.click(['treeitem "report.pdf"']);
      return folder && (await a.check(text('#opened'))) === 'Opened report.pdf';
    },
  },
  {
    name: 'grid: which column is sorted, then sort by amount',
    path: '/aria/grid.html',
    run: async a => {
      const sorted = /columnheader "Date".*sort=ascending/.test(a.snapshot);
      await a.click(['button "Amount"']);
      return sorted && (await a.check(text('tbody td'))) === '2024-01-02';
    },
  },
  {
    name: 'carousel: next slide, book Asia',
    path: '/aria/carousel.html',
    run: async a => {
      await a.click(['button "Next slide"']);
      await a.click(['link "Book Asia"']);
      return (await a.check('() => location.hash')) === '#asia';
    },
  },
  {
    name: 'breadcrumb and steps: which page and step are current',
    path: '/aria/breadcrumb.html',
    run: a => {
      const page = /link "Shoes".*current=page/.test(a.snapshot);
      const step = /current=step\n\s+\d+ "Shipping"/.test(a.snapshot);
      return Promise.resolve(page && step);
    },
  },
  {
    name: 'date picker: pick March 20',
    path: '/aria/datepicker.html',
    run: async a => {
      await a.click(['button "Choose date"']);
      await a.click(['button "March 20, 2024"']);
      return (await a.check('() => document.getElementById("date").value')) === '2024-03-20';
    },
  },
  {
    name: 'long listbox: choose Airport 199',
    path: '/aria/listbox.html',
    run: async a => {
      await a.click(['option "Airport 199"']);
      return (await a.check(text('#choice'))) === 'Chosen Airport 199';
    },
  },
  {
    name: 'slider: raise the temperature by two',
    path: '/aria/slider.html',
    run: async a => {
      await a.click(['slider "Temperature"']);
      await a.tool('press_key', {key: 'ArrowRight'});
      await a.tool('press_key', {key: 'ArrowRight'});
      await a.look();
      return /slider "Temperature".*22 degrees/.test(a.snapshot);
    },
  },
  {
    name: 'spinbutton: one more guest',
    path: '/aria/spinbutton.html',
    run: async a => {
      await a.click(['button "More guests"']);
      return /spinbutton "Guests".*value="?3/.test(a.snapshot);
    },
  },
  {
    name: 'live region: see the alert',
    path: '/aria/live.html',
    run: async a => {
      await a.click(['button "Break something"']);
      return a.sees('Connection lost');
    },
  },
  {
    name: 'disclosure: show the specifications',
    path: '/aria/disclosure.html',
    run: async a => {
      await a.click(['button "Show specifications"']);
      return a.sees('Weight: 2 kg');
    },
  },
  {
    name: 'cross-site iframe: click and type inside it',
    path: '/aria/iframes.html',
    frames: true,
    run: async a => {
      await a.click(['button "Inner button"'], 'Cross-site widget');
      await a.fill(['textbox "Inner search"'], 'hello', 'Cross-site widget');
      return a.sees('Typed hello');
    },
  },
  {
    // A large app: one row changes at a time on a 2,000-row table (~300,000 characters a snapshot).
    name: 'large table: tick orders 3 and 1500',
    path: '/big-table.html',
    run: async a => {
      await a.click(['checkbox "Select order 3"']);
      await a.click(['checkbox "Select order 1500"']);
      return (
        (await a.check(
          '() => [...document.querySelectorAll("#rows input:checked")].map(box => box.getAttribute("aria-label")).join()',
        )) === 'Select order 3,Select order 1500'
      );
    },
  },
  {
    name: 'messy markup: add to cart',
    path: '/aria/messy.html',
    run: async a => {
      await a.click(['button "Add to cart"']);
      return (await a.check(text('#out'))) === 'Added to cart';
    },
  },
];

/** The hard cases for actions (test/fixtures/pages/actions): each click must land, or say why not. */
const ACTION_TASKS: Task[] = [
  {
    name: 'action: animated tree, open report.pdf right after expanding',
    path: '/actions/animated-tree.html',
    run: async a => {
      await a.click(['treeitem "Documents"']);
      await a.click(['treeitem "report.pdf"']);
      return (
        (await a.check(text('#opened'))) === 'Opened report.pdf' &&
        (await a.check(text('#log'))) === 'expanded Documents;'
      );
    },
  },
  {
    name: 'action: menu sliding in, choose Delete',
    path: '/actions/sliding-menu.html',
    run: async a => {
      await a.click(['button "Options"']);
      await a.click(['menuitem "Delete"']);
      return (await a.check(text('#result'))) === 'You chose Delete';
    },
  },
  {
    name: 'action: overlay fading out over Save',
    path: '/actions/fading-overlay.html',
    run: async a => {
      await a.click(['button "Save"']);
      return (await a.check(text('#status'))) === 'Saved';
    },
  },
  {
    name: 'action: sticky header over Subscribe',
    path: '/actions/sticky-header.html',
    run: async a => {
      await a.click(['button "Subscribe"']);
      return (await a.check(text('#status'))) === 'Subscribed';
    },
  },
  {
    name: 'action: shadow root in a cross-site iframe, Pay now',
    path: '/actions/shadow-frame.html',
    frames: true,
    run: async a => {
      await a.click(['button "Pay now"'], 'Payment widget');
      return a.sees('Paid now');
    },
  },
  {
    name: 'action: shadow root in a same-site iframe, Dark mode',
    path: '/actions/frame-covers.html?site=same',
    frames: true,
    run: async a => {
      await a.click(['button "Dark mode"'], 'Settings panel');
      return a.sees('Clicked Dark mode');
    },
  },
  {
    name: 'action: veil in a same-site iframe, the click says who would get it',
    path: '/actions/frame-covers.html?site=same',
    frames: true,
    run: async a => {
      const answer = await a.attempt('click', {
        uid: await a.find(['button "Reset"'], 'Settings panel'),
      });
      return (
        answer.isError &&
        answer.text.includes('dialog "Confirm reset"') &&
        (await a.sees('Nothing changed'))
      );
    },
  },
  {
    name: 'action: banner over an iframe, the click says who would get it',
    path: '/actions/frame-covers.html?site=cross',
    frames: true,
    run: async a => {
      const answer = await a.attempt('click', {
        uid: await a.find(['button "Under banner"'], 'Settings panel'),
      });
      return (
        answer.isError &&
        answer.text.includes('dialog "Newsletter signup"') &&
        (await a.sees('Nothing changed'))
      );
    },
  },
  {
    name: 'action: covered drop zone, the drag says who would get it',
    path: '/actions/covered-controls.html',
    run: async a => {
      const answer = await a.attempt('drag', {
        from_uid: await a.find(['button "Free card"']),
        to_uid: await a.find(['region "Busy zone"']),
      });
      return (
        answer.isError &&
        answer.text.includes('dialog "Upload in progress"') &&
        (await a.check(text('#log'))) === ''
      );
    },
  },
  {
    name: 'action: double-click detector needing a gap',
    path: '/actions/double-click.html',
    run: async a => {
      await a.doubleClick(['button "Rename file"']);
      return (await a.check(text('#result'))) === 'Double click detected';
    },
  },
  {
    name: 'action: tooltip with a 150 ms show delay',
    path: '/actions/tooltip.html',
    run: async a => {
      await a.hover(['button "Info"']);
      return a.snapshot.includes('Saved 3 minutes ago');
    },
  },
  {
    name: 'action: covered button, the click says who would get it',
    path: '/actions/covered.html',
    run: async a => {
      const answer = await a.attempt('click', {uid: await a.find(['button "Buy now"'])});
      return (
        answer.isError &&
        answer.text.includes('dialog "Cookie consent"') &&
        (await a.check(text('#status'))) === 'Nothing bought'
      );
    },
  },
  {
    name: 'action: card popping up on approach, no misdirected click',
    path: '/actions/hover-cover.html',
    run: async a => {
      const answer = await a.attempt('click', {uid: await a.find(['button "Follow Alex"'])});
      return (
        answer.isError &&
        answer.text.includes('Profile card of Alex') &&
        (await a.check('() => window.cardClicks')) === 0
      );
    },
  },
];

const argument = (name: string): string | undefined =>
  process.argv.find(arg => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(argument('runs') ?? '1');
const only = argument('only');
const oursBin = argument('ours');
const tasks = [...TASKS, ...ACTION_TASKS, ...MECHANISM_TASKS, ...LIBRARY_TASKS].filter(
  task => only === undefined || task.name.includes(only),
);

// The library pages' bundles (cached; built as the tests build them).
execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-library-fixtures.mjs')], {
  stdio: 'inherit',
});
const fixtures = await new FixtureServer().start();
interface Totals {
  chars: number;
  /** Of those, the snapshots after each task's first. */
  repeatChars: number;
  passed: number;
}
/** The runs: the peer, this server, and with `--diffs` this server with --snapshotDiffs. */
type Column = 'ours' | 'peer' | 'oursDiffs';
const diffs = process.argv.includes('--diffs');
const columns: Column[] = diffs ? ['peer', 'ours', 'oursDiffs'] : ['peer', 'ours'];
const totals: Record<Column, Totals> = {
  ours: {chars: 0, repeatChars: 0, passed: 0},
  peer: {chars: 0, repeatChars: 0, passed: 0},
  oursDiffs: {chars: 0, repeatChars: 0, passed: 0},
};
/** Per task: passes per server, and the first failure's note. */
const rows = tasks.map(task => ({
  task: task.name,
  ours: {passed: 0, chars: 0, note: ''},
  peer: {passed: 0, chars: 0, note: ''},
  oursDiffs: {passed: 0, chars: 0, note: ''},
}));

for (const kind of columns) {
  const server = await startServer(
    kind === 'peer' ? 'peer' : 'ours',
    kind === 'oursDiffs' ? ['--snapshotDiffs'] : [],
    ...(oursBin === undefined ? [] : [oursBin]),
  );
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const [index, task] of tasks.entries()) {
        const result = await runTask(server, task, fixtures.url(task.path));
        const row = rows[index];
        if (!row) {
          continue;
        }
        const cell = row[kind];
        cell.passed += result.ok ? 1 : 0;
        cell.chars += result.chars;
        cell.note ||= result.ok ? '' : result.note || 'check failed';
        totals[kind].chars += result.chars;
        totals[kind].repeatChars += result.repeatChars;
        totals[kind].passed += result.ok ? 1 : 0;
      }
    }
  } finally {
    await server.close();
  }
}
await fixtures.stop();
const cellText = (cell: {passed: number; chars: number; note: string}): string =>
  `${cell.passed}/${RUNS} ${Math.round(cell.chars / RUNS)}${cell.note ? ` (${cell.note.slice(0, 60)})` : ''}`;
for (const row of rows) {
  const withDiffs = diffs ? ` diffs ${cellText(row.oursDiffs).padEnd(16)}` : '';
  console.log(
    `${row.task.padEnd(62)} ours ${cellText(row.ours).padEnd(16)}${withDiffs} peer ${cellText(row.peer)}`,
  );
}
const attempts = tasks.length * RUNS;
const {ours, peer, oursDiffs} = totals;
console.log(
  `\nTasks finished: ours ${ours.passed}/${attempts}, peer ${peer.passed}/${attempts} (${tasks.length} tasks, ${RUNS} runs). Characters read: ours ${ours.chars}, peer ${peer.chars}, ratio ${(ours.chars / peer.chars).toFixed(2)} (target ≤ 0.8×).`,
);
if (diffs) {
  console.log(
    `With --snapshotDiffs: ${oursDiffs.passed}/${attempts} finished, ${oursDiffs.chars} characters read, ${(oursDiffs.chars / ours.chars).toFixed(2)}× without (target ≤ 0.5×); the snapshots after each task's first: ${oursDiffs.repeatChars} against ${ours.repeatChars} (${(oursDiffs.repeatChars / ours.repeatChars).toFixed(2)}×).`,
  );
}
// A run of some tasks or of another build goes to a local file, not over the committed numbers.
const out = path.join(
  ROOT,
  `bench/results/${only === undefined && oursBin === undefined ? 'tasks.json' : 'tasks.filtered.local.json'}`,
);
fs.writeFileSync(
  out,
  `${JSON.stringify({date: new Date().toISOString(), tasks: tasks.length, runs: RUNS, ours, peer, ...(diffs ? {oursDiffs} : {}), rows}, null, 2)}\n`,
);
