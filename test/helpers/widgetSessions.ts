/**
 * Agent runs over the widget pages (widgetPages.ts), made with real tool calls the way an agent
 * makes them: open a page, read its snapshot, act on an element by uid, read the snapshot again
 * (or ask for it with includeSnapshot). Each run is recorded on its own, so each becomes its own
 * exported test.
 */
import fs from 'node:fs';
import path from 'node:path';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {expect} from 'vitest';
import {call, pageIdFrom, waitFor} from './engine.js';
import type {FixtureServer} from './fixtureServer.js';
import {uidOf} from './snapshotText.js';

export class Agent {
  constructor(
    private readonly client: Client,
    private readonly server: FixtureServer,
    private readonly tmp: string,
  ) {}

  async ok(tool: string, args: Record<string, unknown>): Promise<string> {
    const {text, isError} = await call(this.client, tool, args);
    expect(isError, `${tool}: ${text}`).toBe(false);
    return text;
  }

  async open(pathname: string): Promise<number> {
    const text = await this.ok('new_page', {url: this.server.url(pathname)});
    const selected = text.split('\n').find(line => line.includes('[selected]')) ?? '';
    return pageIdFrom(selected, pathname);
  }

  snapshot(pageId: number): Promise<string> {
    return this.ok('take_snapshot', {pageId});
  }

  /** A file in the run's folder, for uploads and sourcePath scripts. */
  file(name: string, content: string): string {
    const file = path.join(this.tmp, name);
    fs.writeFileSync(file, content);
    return file;
  }
}

export type WidgetSession = (agent: Agent) => Promise<void>;

function pageIds(listing: string): number[] {
  return listing
    .split('\n')
    .flatMap(line => (/^(\d+): /.exec(line) ? [Number(line.split(':')[0])] : []));
}

export const WIDGET_SESSIONS: Record<string, WidgetSession> = {
  async disclosure(agent) {
    const page = await agent.open('/widgets/disclosure.html');
    const first = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'button "What does it cost?"')});
    const second = await agent.snapshot(page);
    await agent.ok('click', {
      pageId: page,
      uid: uidOf(second, 'button "Who made it?"'),
      includeSnapshot: true,
    });
  },

  async tabs(agent) {
    const page = await agent.open('/widgets/tabs.html');
    const first = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'tab "Privacy"')});
    await agent.snapshot(page);
    await agent.ok('click', {
      pageId: page,
      uid: uidOf(first, 'tab "Advanced"'),
      includeSnapshot: true,
    });
  },

  async menu(agent) {
    const page = await agent.open('/widgets/menu.html');
    const first = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'button "Actions"')});
    const open = await agent.snapshot(page);
    await agent.ok('click', {pageId: page, uid: uidOf(open, 'menuitem "Rename"')});
    await agent.snapshot(page);
  },

  async popup(agent) {
    const page = await agent.open('/widgets/popup.html');
    const first = await agent.snapshot(page);
    const known = new Set(pageIds(await agent.ok('list_pages', {})));
    await agent.ok('click', {pageId: page, uid: uidOf(first, 'link "Open the help"')});
    // As an agent does: list the pages until the one the link opened is there.
    const help = await waitFor(
      async () => pageIds(await agent.ok('list_pages', {})).find(id => !known.has(id)),
      10_000,
      'the page the link opened',
    );
    const helpSnapshot = await agent.snapshot(help);
    await agent.ok('click', {
      pageId: help,
      uid: uidOf(helpSnapshot, 'button "Keyboard shortcuts"'),
    });
    await agent.snapshot(help);
  },

  async layout(agent) {
    const page = await agent.open('/widgets/layout.html');
    await agent.snapshot(page);
    await agent.ok('resize_page', {pageId: page, width: 600, height: 700});
    await agent.snapshot(page);
    await agent.ok('emulate', {pageId: page, colorScheme: 'dark'});
    await agent.snapshot(page);
  },

  /** A checkbox, a switch, a key-reactive combobox, iframes, dialogs and an upload in one run. */
  async form(agent) {
    const boxes = await agent.open('/widgets/checkbox.html');
    const preferences = await agent.snapshot(boxes);
    await agent.ok('click', {
      pageId: boxes,
      uid: uidOf(preferences, 'checkbox "Accept the terms"'),
    });
    await agent.ok('fill', {
      pageId: boxes,
      uid: uidOf(preferences, 'switch "Dark theme"'),
      value: 'true',
    });
    await agent.ok('fill', {
      pageId: boxes,
      uid: uidOf(preferences, 'checkbox "Newsletter"'),
      value: 'true',
      includeSnapshot: true,
    });

    const fruits = await agent.open('/widgets/combobox.html');
    const empty = await agent.snapshot(fruits);
    await agent.ok('fill', {pageId: fruits, uid: uidOf(empty, 'combobox "Fruit"'), value: 'Bl'});
    const listed = await agent.snapshot(fruits);
    await agent.ok('click', {pageId: fruits, uid: uidOf(listed, 'option "Blueberry"')});
    await agent.snapshot(fruits);

    const frames = await agent.open('/widgets/frames.html');
    const widgets = await agent.snapshot(frames);
    const lines = widgets.split('\n');
    const cross = lines.findIndex(line => line.includes('Iframe "Cross-site widget"'));
    await agent.ok('click', {pageId: frames, uid: uidOf(widgets, 'button "Show details"')});
    await agent.ok('click', {
      pageId: frames,
      uid: uidOf(lines.slice(cross).join('\n'), 'button "Show details"'),
    });
    await agent.snapshot(frames);

    const files = await agent.open('/widgets/dialog.html');
    const buttons = await agent.snapshot(files);
    await agent.ok('click', {pageId: files, uid: uidOf(buttons, 'button "Delete report.pdf"')});
    await agent.ok('handle_dialog', {pageId: files, action: 'accept'});
    await agent.ok('click', {pageId: files, uid: uidOf(buttons, 'button "Rename report.pdf"')});
    await agent.ok('handle_dialog', {pageId: files, action: 'accept', promptText: 'final.pdf'});
    await agent.ok('click', {pageId: files, uid: uidOf(buttons, 'button "About"')});
    const about = await agent.snapshot(files);
    await agent.ok('click', {pageId: files, uid: uidOf(about, 'button "Close"')});
    const closed = await agent.snapshot(files);
    await agent.ok('evaluate_script', {
      pageId: files,
      function: '(status) => status.textContent // what the status says',
      args: [uidOf(closed, 'status')],
    });
    await agent.ok('evaluate_script', {
      pageId: files,
      sourcePath: agent.file('title.js', '() => document.title;\n'),
    });

    const upload = await agent.open('/widgets/upload.html');
    const form = await agent.snapshot(upload);
    await agent.ok('upload_file', {
      pageId: upload,
      uid: uidOf(form, '"Attachment"'),
      filePaths: [agent.file('notes.txt', 'twelve bytes')],
    });
    await agent.snapshot(upload);
  },
};
