/**
 * `npx tsx bench/tasks.ts`: a scripted agent runs the same tasks on the ARIA fixture pages against
 * this server and chrome-devtools-mcp, and counts the characters it reads (every tool answer) and
 * the tasks it finishes. Like a real agent it takes a snapshot, looks for the line it needs, and
 * when the line is missing follows the snapshot's own hint or falls back to a verbose snapshot.
 */
import fs from 'node:fs';
import path from 'node:path';
import {FixtureServer} from '../test/helpers/fixtureServer.js';
import {callTool, ROOT, selectedPageId, startServer, type Server} from './lib.js';

class Agent {
  chars = 0;
  snapshot = '';
  id = 0;
  constructor(readonly server: Server) {}

  async tool(name: string, args: Record<string, unknown>): Promise<string> {
    const {text, isError} = await callTool(this.server.client, name, {pageId: this.id, ...args});
    this.chars += text.length;
    if (isError) {
      throw new Error(`${name}: ${text.slice(0, 300)}`);
    }
    return text;
  }

  async open(url: string): Promise<void> {
    const {text} = await callTool(this.server.client, 'new_page', {url});
    this.chars += text.length;
    this.id = selectedPageId(text);
    await this.look();
  }

  async look(): Promise<string> {
    this.snapshot = await this.tool('take_snapshot', {});
    return this.snapshot;
  }

  /** The uid of the line with every fragment (after the line with `after`, if given). */
  static uidIn(snapshot: string, fragments: string[], after?: string): string | undefined {
    let lines = snapshot.split('\n');
    if (after !== undefined) {
      const start = lines.findIndex(line => line.includes(after));
      lines = start < 0 ? [] : lines.slice(start + 1);
    }
    const line = lines.find(candidate => fragments.every(fragment => candidate.includes(fragment)));
    const match = line === undefined ? null : /uid=(\S+)|^ *(\d+) /.exec(line);
    return match?.[1] ?? match?.[2];
  }

  /** Finds a uid: in the snapshot, then where the snapshot says the rest is, then verbose. */
  async find(fragments: string[], after?: string): Promise<string> {
    const direct = Agent.uidIn(this.snapshot, fragments, after);
    if (direct !== undefined) {
      return direct;
    }
    const hint = /take_snapshot with uid (\d+) lists all/.exec(this.snapshot)?.[1];
    if (hint !== undefined) {
      const scoped = await this.tool('take_snapshot', {uid: hint});
      const found = Agent.uidIn(scoped, fragments, after);
      if (found !== undefined) {
        return found;
      }
    }
    const verbose = await this.tool('take_snapshot', {verbose: true});
    const found = Agent.uidIn(verbose, fragments, after);
    if (found === undefined) {
      throw new Error(`not found: ${fragments.join(' ')}`);
    }
    return found;
  }

  async click(fragments: string[], after?: string): Promise<void> {
    await this.tool('click', {uid: await this.find(fragments, after)});
    await this.look();
  }

  async fill(fragments: string[], value: string, after?: string): Promise<void> {
    await this.tool('fill', {uid: await this.find(fragments, after), value});
    await this.look();
  }

  /** Whether the latest (or else a verbose) snapshot has a line with every fragment. */
  async sees(...fragments: string[]): Promise<boolean> {
    if (Agent.uidIn(this.snapshot, fragments) !== undefined) {
      return true;
    }
    const verbose = await this.tool('take_snapshot', {verbose: true});
    return Agent.uidIn(verbose, fragments) !== undefined;
  }

  /** Checks the page's state without counting it as reading (the test harness, not the agent). */
  async check(source: string): Promise<unknown> {
    const {text} = await callTool(this.server.client, 'evaluate_script', {
      pageId: this.id,
      function: source,
    });
    const json = /```json\n([\s\S]*?)\n```/.exec(text)?.[1];
    return json === undefined ? undefined : JSON.parse(json);
  }
}

interface Task {
  name: string;
  page: string;
  run: (agent: Agent) => Promise<boolean>;
}

const text = (selector: string): string =>
  `() => document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`;

const TASKS: Task[] = [
  {
    name: 'combobox: type to filter, pick Apricot',
    page: 'combobox.html',
    run: async a => {
      await a.fill(['combobox "Fruit"'], 'Ap');
      await a.click(['option "Apricot"']);
      return (await a.check(text('#chosen'))) === 'Chosen: Apricot';
    },
  },
  {
    name: 'menu button: choose Duplicate',
    page: 'menu-button.html',
    run: async a => {
      await a.click(['button "Actions"']);
      await a.click(['menuitem "Duplicate"']);
      return (await a.check(text('#result'))) === 'You chose Duplicate';
    },
  },
  {
    name: 'tabs: read the second panel',
    page: 'tabs.html',
    run: async a => {
      await a.click(['tab "Carl Andersen"']);
      return a.sees('Danish flutist');
    },
  },
  {
    name: 'modal dialog: add an address',
    page: 'dialog.html',
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
    page: 'accordion.html',
    run: async a => {
      const known = /button "Billing address".*collapsed/.test(a.snapshot);
      await a.click(['button "Billing address"']);
      await a.fill(['textbox "Billing street"'], 'Elm 2');
      return known && (await a.check('() => document.getElementById("billing").value')) === 'Elm 2';
    },
  },
  {
    name: 'tree: open Documents/report.pdf',
    page: 'tree.html',
    run: async a => {
      const folder = /treeitem "Documents".*(collapsed|expandable)/.test(a.snapshot);
      await a.click(['treeitem "Documents"']);
      await a.click(['treeitem "report.pdf"']);
      return folder && (await a.check(text('#opened'))) === 'Opened report.pdf';
    },
  },
  {
    name: 'grid: which column is sorted, then sort by amount',
    page: 'grid.html',
    run: async a => {
      const sorted = /columnheader "Date".*sort=ascending/.test(a.snapshot);
      await a.click(['button "Amount"']);
      return sorted && (await a.check(text('tbody td'))) === '2024-01-02';
    },
  },
  {
    name: 'carousel: next slide, book Asia',
    page: 'carousel.html',
    run: async a => {
      await a.click(['button "Next slide"']);
      await a.click(['link "Book Asia"']);
      return (await a.check('() => location.hash')) === '#asia';
    },
  },
  {
    name: 'breadcrumb and steps: which page and step are current',
    page: 'breadcrumb.html',
    run: a => {
      const page = /link "Shoes".*current=page/.test(a.snapshot);
      const step = /current=step\n\s+\d+ "Shipping"/.test(a.snapshot);
      return Promise.resolve(page && step);
    },
  },
  {
    name: 'date picker: pick March 20',
    page: 'datepicker.html',
    run: async a => {
      await a.click(['button "Choose date"']);
      await a.click(['button "March 20, 2024"']);
      return (await a.check('() => document.getElementById("date").value')) === '2024-03-20';
    },
  },
  {
    name: 'long listbox: choose Airport 199',
    page: 'listbox.html',
    run: async a => {
      await a.click(['option "Airport 199"']);
      return (await a.check(text('#choice'))) === 'Chosen Airport 199';
    },
  },
  {
    name: 'slider: raise the temperature by two',
    page: 'slider.html',
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
    page: 'spinbutton.html',
    run: async a => {
      await a.click(['button "More guests"']);
      return /spinbutton "Guests".*value="?3/.test(a.snapshot);
    },
  },
  {
    name: 'live region: see the alert',
    page: 'live.html',
    run: async a => {
      await a.click(['button "Break something"']);
      return a.sees('Connection lost');
    },
  },
  {
    name: 'disclosure: show the specifications',
    page: 'disclosure.html',
    run: async a => {
      await a.click(['button "Show specifications"']);
      return a.sees('Weight: 2 kg');
    },
  },
  {
    name: 'cross-site iframe: click and type inside it',
    page: 'iframes.html',
    run: async a => {
      await a.click(['button "Inner button"'], 'Cross-site widget');
      await a.fill(['textbox "Inner search"'], 'hello', 'Cross-site widget');
      return a.sees('Typed hello');
    },
  },
  {
    name: 'messy markup: add to cart',
    page: 'messy.html',
    run: async a => {
      await a.click(['button "Add to cart"']);
      return (await a.check(text('#out'))) === 'Added to cart';
    },
  },
];

const fixtures = await new FixtureServer().start();
const totals: Record<string, {chars: number; passed: number}> = {};
const rows: {task: string; ours: string; peer: string}[] = [];
for (const kind of ['peer', 'ours'] as const) {
  const server = await startServer(kind);
  totals[kind] = {chars: 0, passed: 0};
  try {
    for (const task of TASKS) {
      const agent = new Agent(server);
      let ok = false;
      let note = '';
      try {
        await agent.open(fixtures.url(`/aria/${task.page}`));
        if (task.page === 'iframes.html') {
          // Let the cross-site frame load before the agent looks (both servers alike).
          await new Promise(resolve => setTimeout(resolve, 1_000));
          await agent.look();
        }
        ok = await task.run(agent);
      } catch (error) {
        note = error instanceof Error ? error.message.slice(0, 80) : String(error);
      }
      const total = totals[kind];
      total.chars += agent.chars;
      total.passed += ok ? 1 : 0;
      const cell = `${ok ? 'ok' : 'FAIL'} ${agent.chars}${note ? ` (${note})` : ''}`;
      const row = rows.find(entry => entry.task === task.name);
      if (row) {
        row[kind] = cell;
      } else {
        rows.push({
          task: task.name,
          ours: kind === 'ours' ? cell : '',
          peer: kind === 'peer' ? cell : '',
        });
      }
    }
  } finally {
    await server.close();
  }
}
await fixtures.stop();
for (const row of rows) {
  console.log(`${row.task.padEnd(58)} ours ${row.ours.padEnd(12)} peer ${row.peer}`);
}
const ours = totals.ours ?? {chars: 0, passed: 0};
const peer = totals.peer ?? {chars: 0, passed: 0};
console.log(
  `\nTasks finished: ours ${ours.passed}/${TASKS.length}, peer ${peer.passed}/${TASKS.length}. Characters read: ours ${ours.chars}, peer ${peer.chars}, ratio ${(ours.chars / peer.chars).toFixed(2)} (target ≤ 0.8×).`,
);
const out = path.join(ROOT, 'bench/results/tasks.json');
fs.writeFileSync(
  out,
  `${JSON.stringify({date: new Date().toISOString(), tasks: TASKS.length, ours, peer, rows}, null, 2)}\n`,
);
