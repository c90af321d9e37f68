import {describe, expect, it} from 'vitest';
import {FixtureServer} from '../../helpers/fixtureServer.js';
import {call, pageIdFrom, startEngine, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures();

describe('list_pages / new_page / select_page / close_page', () => {
  it('lists the initial page, then opens a new one and selects it', async () => {
    const first = await call(fx.client, 'list_pages');
    expect(first.text).toMatch(/^## Pages\n1: about:blank \[selected\]$/m);

    const opened = await call(fx.client, 'new_page', {url: fx.server.url('/index.html')});
    expect(opened.isError).toBe(false);
    expect(opened.text).toContain('## Pages');
    expect(opened.text).toMatch(
      /\d+: Fixture home \(http:\/\/127\.0\.0\.1:\d+\/index\.html\) \[selected\]/,
    );
  });

  it('select_page moves the selection and rejects unknown ids with a remedy', async () => {
    const id = await fx.openPage('/other.html');
    await call(fx.client, 'new_page', {url: fx.server.url('/index.html')});
    const selected = await call(fx.client, 'select_page', {pageId: id});
    expect(selected.text).toMatch(new RegExp(`^${id}: Other page .*\\[selected\\]$`, 'm'));

    const missing = await call(fx.client, 'select_page', {pageId: 9999});
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('No page with id 9999');
    expect(missing.text).toContain('list_pages');
  });

  it('close_page closes a page, and refuses to close the last one', async () => {
    const id = await fx.openPage('/other.html?close');
    const closed = await call(fx.client, 'close_page', {pageId: id});
    expect(closed.isError).toBe(false);
    expect(closed.text).not.toContain('other.html?close');

    const isolated = await startEngine();
    try {
      const solo = await isolated.connect();
      const listing = await call(solo, 'list_pages');
      const only = pageIdFrom(listing.text, 'about:blank');
      const refused = await call(solo, 'close_page', {pageId: only});
      expect(refused.isError).toBe(false);
      expect(refused.text).toContain(
        'The last open page cannot be closed. It is fine to keep it open.',
      );
    } finally {
      await isolated.stop();
    }
  });

  it('falls back to another page when the selected one closes, and says so once', async () => {
    const keep = await fx.openPage('/other.html?keep');
    const doomed = await fx.openPage('/index.html?doomed');
    await call(fx.client, 'close_page', {pageId: doomed});
    const listing = await call(fx.client, 'list_pages');
    expect(listing.text).not.toContain('index.html?doomed');
    const fallback = /^(\d+): .*\[selected\]/m.exec(listing.text)?.[1];
    expect(fallback).toBeDefined();
    await call(fx.client, 'select_page', {pageId: keep});
    const page = fx.engine.engine.browser.pages.byId(keep);
    await page.page.close();
    const after = await call(fx.client, 'list_pages');
    expect(after.text).toMatch(
      /^Note: the previously selected page was closed\. Page \d+ is now selected\.$/m,
    );
    const again = await call(fx.client, 'list_pages');
    expect(again.text).not.toContain('Note: the previously selected page');
  });

  it('page ids are never reused', async () => {
    const a = await fx.openPage('/index.html?a');
    await call(fx.client, 'close_page', {pageId: a});
    const b = await fx.openPage('/index.html?b');
    expect(b).toBeGreaterThan(a);
  });

  it('opens pages in a named isolated context', async () => {
    const {text} = await call(fx.client, 'new_page', {
      url: fx.server.url('/other.html?iso'),
      isolatedContext: 'alice',
    });
    expect(text).toMatch(/other\.html\?iso\) \[selected\] isolatedContext=alice/);
  });
});

describe('the navigation tools tell an agent which URL to use when none is named', () => {
  it('new_page and navigate_page say what "the project URL" is', async () => {
    const {tools} = await fx.client.listTools();
    for (const name of ['new_page', 'navigate_page']) {
      const description = tools.find(tool => tool.name === name)?.description ?? '';
      expect(description, name).toContain(
        'When the user names no URL, use the URL of the project being worked on (e.g. its dev server).',
      );
      // The peer's bare wording leaves open what "the project URL" is.
      expect(description, name).not.toContain('Use the project URL if none is given');
    }
  });
});

describe('navigate_page', () => {
  it('navigates by URL, back, forward and reload', async () => {
    const id = await fx.openPage('/index.html?nav');
    const to = await call(fx.client, 'navigate_page', {
      pageId: id,
      url: fx.server.url('/other.html'),
    });
    expect(to.text).toContain(`Successfully navigated to ${fx.server.url('/other.html')}.`);
    const back = await call(fx.client, 'navigate_page', {pageId: id, type: 'back'});
    expect(back.text).toContain('Successfully navigated back to');
    expect(back.text).toContain('index.html?nav');
    const forward = await call(fx.client, 'navigate_page', {pageId: id, type: 'forward'});
    expect(forward.text).toContain('Successfully navigated forward to');
    const reload = await call(fx.client, 'navigate_page', {pageId: id, type: 'reload'});
    expect(reload.text).toContain('Successfully reloaded the page.');
  });

  it('waits after the load for a page that goes on rendering, and reports its last title', async () => {
    // Renders in a task loop after the load until settling has looked (its counter exists), and a
    // while longer: the page is still changing when settling looks, however busy the machine.
    fx.server.html(
      '/renders-after-load.html',
      `<!doctype html><title>Loading</title><p id="tick">Tick 0</p>
       <script>
         addEventListener('load', () => {
           const channel = new MessageChannel();
           let ticks = 0;
           let after = 0;
           channel.port1.onmessage = () => {
             document.getElementById('tick').textContent = 'Tick ' + ++ticks;
             if (globalThis[Symbol.for('mcp-browser-inspector.mutations')] && ++after > 100) {
               document.title = 'Rendered ' + ticks;
               return;
             }
             channel.port2.postMessage(0);
           };
           channel.port2.postMessage(0);
         });
       </script>`,
    );
    const id = await fx.openPage('/index.html');
    const navigated = await call(fx.client, 'navigate_page', {
      pageId: id,
      url: fx.server.url('/renders-after-load.html'),
    });
    expect(navigated.isError).toBe(false);
    const title = /^\d+: (Rendered \d+) \(/m.exec(navigated.text)?.[1];
    expect(title, navigated.text).toBeDefined();
    // The answer came after the last render: the title names the tick the page shows.
    const shown = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => document.title + "|" + document.getElementById("tick").textContent',
    });
    expect(shown.text).toContain(`"${title ?? ''}|Tick ${title?.slice('Rendered '.length) ?? ''}"`);
  });

  it('reports navigation problems as text, not as a failed call', async () => {
    const id = await fx.openPage('/index.html?fail');
    const noHistory = await call(fx.client, 'navigate_page', {pageId: id, type: 'forward'});
    expect(noHistory.isError).toBe(false);
    expect(noHistory.text).toContain(
      'Unable to navigate forward in the page: there is no next page in the history.',
    );
    const closedPort = await new FixtureServer().start();
    const deadUrl = closedPort.url('/');
    await closedPort.stop();
    const bad = await call(fx.client, 'navigate_page', {pageId: id, url: deadUrl});
    expect(bad.isError).toBe(false);
    expect(bad.text).toMatch(/Unable to navigate in the page: .*ERR_CONNECTION_REFUSED/);
    const neither = await call(fx.client, 'navigate_page', {pageId: id});
    expect(neither.isError).toBe(true);
    expect(neither.text).toContain('Either URL or a type is required.');
  });

  it('runs an initScript before page scripts, for that navigation only', async () => {
    const id = await fx.openPage('/index.html?init');
    await call(fx.client, 'navigate_page', {
      pageId: id,
      url: fx.server.url('/other.html'),
      initScript: 'window.__seeded = 42;',
    });
    const seeded = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => window.__seeded',
    });
    expect(seeded.text).toContain('42');
    await call(fx.client, 'navigate_page', {pageId: id, type: 'reload'});
    const after = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => window.__seeded ?? null',
    });
    expect(after.text).toContain('null');
  });

  it('accepts or dismisses a beforeunload prompt', async () => {
    const id = await fx.openPage('/beforeunload.html');
    // beforeunload prompts need a user gesture first.
    const pageState = fx.engine.engine.browser.pages.byId(id);
    await pageState.page.click('#touch');
    const dismissed = await call(fx.client, 'navigate_page', {
      pageId: id,
      url: fx.server.url('/other.html'),
      handleBeforeUnload: 'dismiss',
      timeout: 3000,
    });
    expect(dismissed.text).toContain('Dismissed a beforeunload dialog; the page stayed at');
    expect(dismissed.text).not.toContain('Unable to navigate');
    const accepted = await call(fx.client, 'navigate_page', {
      pageId: id,
      url: fx.server.url('/other.html'),
    });
    expect(accepted.text).toContain('Accepted a beforeunload dialog.');
    expect(accepted.text).toContain(`Successfully navigated to ${fx.server.url('/other.html')}.`);
  });
});

describe('take_snapshot', () => {
  it('renders the accessibility tree with uids, roles, names and values', async () => {
    const id = await fx.openPage('/index.html?snap');
    const {text} = await call(fx.client, 'take_snapshot', {pageId: id});
    expect(text).toContain('## Latest page snapshot');
    expect(text).toMatch(/^\d+ RootWebArea "Fixture home"/m);
    expect(text).toMatch(/^ *\d+ heading "Fixture home" level=1/m);
    expect(text).toMatch(/^ *\d+ textbox "Name"/m);
    expect(text).toMatch(/^ *\d+ button "Go"/m);
    expect(text).toMatch(/^ *\d+ combobox value="Alpha"/m);
    expect(text).toMatch(/^ *\d+ option "Beta"$/m);
    expect(text).toMatch(/^ *\d+ link "Other page"/m);
  });

  it('shows the content of a page without any focusable element, and named regions', async () => {
    const id = await fx.openPage('/plain-text.html');
    const {text} = await call(fx.client, 'take_snapshot', {pageId: id});
    expect(text).toMatch(/^ *\d+ heading "Only text" level=1/m);
    expect(text).toMatch(/^ *\d+ "No links or inputs here\."/m);
    expect(text).toMatch(/^ *\d+ region "Notes"/m);
  });

  it('keeps uids stable across snapshots of the same document', async () => {
    const id = await fx.openPage('/index.html?stable');
    const first = await call(fx.client, 'take_snapshot', {pageId: id});
    const uid = /^ *(\d+) button "Go"/m.exec(first.text)?.[1];
    await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => document.body.prepend(document.createElement("hr"))',
    });
    const second = await call(fx.client, 'take_snapshot', {pageId: id});
    expect(/^ *(\d+) button "Go"/m.exec(second.text)?.[1]).toBe(uid);
  });

  it('includes same-process iframes and the verbose tree on request', async () => {
    const id = await fx.openPage('/frames.html');
    const {text} = await call(fx.client, 'take_snapshot', {pageId: id});
    expect(text).toContain('heading "Outer"');
    expect(text).toContain('heading "Other"');
    const verbose = await call(fx.client, 'take_snapshot', {pageId: id, verbose: true});
    expect(verbose.text.split('\n').length).toBeGreaterThan(text.split('\n').length);
    expect(verbose.text).toMatch(/^ *\d+ "Outer"$/m);
  });

  it('saves to a file inside the allowed roots and refuses paths outside them', async () => {
    const id = await fx.openPage('/index.html?file');
    const os = await import('node:os');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const target = path.join(os.tmpdir(), `snapshot-${Date.now()}.txt`);
    const saved = await call(fx.client, 'take_snapshot', {pageId: id, filePath: target});
    expect(saved.text).toContain(`Saved snapshot to ${fs.realpathSync(os.tmpdir())}`);
    expect(fs.readFileSync(target, 'utf8')).toContain('button "Go"');
    expect((fs.statSync(target).mode & 0o777).toString(8)).toBe('600');

    const outside = await call(fx.client, 'take_snapshot', {
      pageId: id,
      filePath: '/etc/mbi-snapshot.txt',
    });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('Access denied: path /etc/mbi-snapshot.txt');
    expect(outside.text).toContain('--workspace');
  });
});

describe('evaluate_script', () => {
  it('returns JSON and passes elements by uid', async () => {
    const id = await fx.openPage('/index.html?eval');
    const title = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => ({title: document.title, n: 1 + 1})',
    });
    expect(title.text).toContain(
      'Script ran on page and returned:\n```json\n{"title":"Fixture home","n":2}\n```',
    );
    const snap = await call(fx.client, 'take_snapshot', {pageId: id});
    const uid = /^ *(\d+) button "Go"/m.exec(snap.text)?.[1];
    const html = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '(el) => el.id',
      args: [uid],
    });
    expect(html.text).toContain('"go"');
  });

  it('runs classic scripts, reports exceptions, and auto-accepts dialogs', async () => {
    const id = await fx.openPage('/dialogs.html');
    const script = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: 'var x = 20; x + 22',
      format: 'script',
    });
    expect(script.text).toContain('42');
    const thrown = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => { throw new Error("boom") }',
    });
    expect(thrown.isError).toBe(true);
    expect(thrown.text).toContain('Error: boom');
    expect(thrown.text).toContain('Error: Error: boom');
    const confirmed = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => confirm("ok?")',
    });
    expect(confirmed.text).toContain('true');
    const prompted = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => prompt("name?")',
      dialogAction: 'Grace',
    });
    expect(prompted.text).toContain('"Grace"');
    const dismissed = await call(fx.client, 'evaluate_script', {
      pageId: id,
      function: '() => confirm("ok?")',
      dialogAction: 'dismiss',
    });
    expect(dismissed.text).toContain('false');
  });

  it('explains bad uids the way agents expect', async () => {
    const fresh = await startEngine();
    try {
      const solo = await fresh.connect();
      const {text} = await call(solo, 'new_page', {url: fx.server.url('/index.html')});
      const id = pageIdFrom(text, 'index.html');
      const noSnapshot = await call(solo, 'evaluate_script', {
        pageId: id,
        function: '(e) => 1',
        args: ['1_1'],
      });
      expect(noSnapshot.text).toContain(
        `No snapshot found for page ${id}. Use take_snapshot to capture one.`,
      );
      await call(solo, 'take_snapshot', {pageId: id});
      const unknown = await call(solo, 'evaluate_script', {
        pageId: id,
        function: '(e) => 1',
        args: ['99_99'],
      });
      expect(unknown.text).toContain(`Element uid "99_99" not found on page ${id}.`);
      const snap = await call(solo, 'take_snapshot', {pageId: id});
      const uid = /^ *(\d+) button "Go"/m.exec(snap.text)?.[1];
      await call(solo, 'navigate_page', {pageId: id, url: fx.server.url('/other.html')});
      const gone = await call(solo, 'evaluate_script', {
        pageId: id,
        function: '(e) => 1',
        args: [uid],
      });
      expect(gone.text).toContain(`Element with uid ${uid} no longer exists on the page.`);
    } finally {
      await fresh.stop();
    }
  });
});

describe('take_screenshot', () => {
  it('returns a PNG of the viewport, an element, or the full page', async () => {
    const id = await fx.openPage('/big.html');
    const viewport = await call(fx.client, 'take_screenshot', {pageId: id});
    expect(viewport.text).toContain("Took a screenshot of the current page's viewport.");
    const image = viewport.result.content.find(item => item.type === 'image');
    expect(image?.type === 'image' && image.mimeType).toBe('image/png');
    const png = Buffer.from(image?.type === 'image' ? image.data : '', 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1280);

    const jpeg = await call(fx.client, 'take_screenshot', {
      pageId: id,
      format: 'jpeg',
      quality: 50,
    });
    const jpegImage = jpeg.result.content.find(item => item.type === 'image');
    expect(jpegImage?.type === 'image' && jpegImage.mimeType).toBe('image/jpeg');

    const snap = await call(fx.client, 'take_snapshot', {pageId: id});
    const uid = /^ *(\d+) button "Action 3"/m.exec(snap.text)?.[1];
    const element = await call(fx.client, 'take_screenshot', {pageId: id, uid});
    expect(element.text).toContain(`Took a screenshot of node with uid "${uid}".`);

    const both = await call(fx.client, 'take_screenshot', {pageId: id, uid, fullPage: true});
    expect(both.isError).toBe(true);
    expect(both.text).toContain('Providing both "uid" and "fullPage" is not allowed.');

    const full = await call(fx.client, 'take_screenshot', {pageId: id, fullPage: true});
    expect(full.text).toContain('Took a screenshot of the full current page.');
    // A 400-section page is tall: large images go to a file rather than into the context.
    expect(full.text).toMatch(
      /Saved screenshot to .*screenshot\.png \(a temporary file, removed when the server stops\)\.|\[image/,
    );
  });
});
