/**
 * The extensions category against a real Chromium launched with extension support: the fixture
 * extension (test/fixtures/extensions/action-worker) has a service worker and an action that
 * marks the page it ran on.
 */
import fs from 'node:fs';
import path from 'node:path';
import type {Protocol} from 'puppeteer-core';
import {describe, expect, it} from 'vitest';
import {call, ROOT, textOf, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {makeOutsideDir} from '../../helpers/outsideDir.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/extensions/action-worker');

describe('with --categoryExtensions', () => {
  const fx = useEngineWithFixtures({
    flags: ['--categoryExtensions', `--workspace=${ROOT}`],
    tmpPrefix: 'mbi-ext-',
  });

  /** The service worker id of extension `id`, once list_pages shows it. */
  async function workerOf(id: string, not?: string): Promise<string> {
    const pages = await waitFor(async () => {
      const {text} = await call(fx.client, 'list_pages');
      const listed = text.includes(`chrome-extension://${id}/worker.js`);
      return listed && (not === undefined || !text.includes(`${not}: `)) ? text : undefined;
    });
    const workerId = new RegExp(`^(sw-\\d+): chrome-extension://${id}/worker\\.js$`, 'm').exec(
      pages,
    )?.[1];
    if (workerId === undefined) {
      throw new Error(`No service worker of ${id} in:\n${pages}`);
    }
    return workerId;
  }

  /** What the extension's own pages get when they fetch each of `files` from the extension. */
  async function fetchedByExtension(workerId: string, files: string[]): Promise<string> {
    const result = await call(fx.client, 'evaluate_script', {
      serviceWorkerId: workerId,
      function: `async () => {
        const out = [];
        for (const file of ${JSON.stringify(files)}) {
          // A missing extension file may never answer: bounded.
          const read = fetch(file).then(
            reply => (reply.ok ? reply.text() : 'status ' + reply.status),
            () => 'failed',
          );
          const late = new Promise(resolve => setTimeout(() => resolve('no answer'), 3000));
          out.push(file + ': ' + (await Promise.race([read, late])));
        }
        return out.join(' | ');
      }`,
    });
    expect(result.isError, result.text).toBe(false);
    return result.text;
  }

  it('refuses a folder whose links lead to the token or the config folder', async () => {
    const tokenFile = path.join(fx.engine.configDir, 'token');
    expect(fs.readFileSync(tokenFile, 'utf8')).toContain(fx.engine.token);
    for (const [name, target] of [
      ['token.txt', tokenFile],
      ['config', fx.engine.configDir],
      ['passwd.txt', '/etc/passwd'],
    ] as const) {
      const folder = path.join(fx.tmp, `with-${name}`);
      fs.cpSync(FIXTURE, folder, {recursive: true});
      fs.symlinkSync(target, path.join(folder, name));
      const refused = await call(fx.client, 'install_extension', {path: folder});
      expect(refused.isError, name).toBe(true);
      expect(refused.text).toContain(`the link ${path.join(fs.realpathSync(folder), name)}`);
      expect(refused.text).toMatch(/outside the allowed roots or into the server's configuration/);
      expect(refused.text).toContain('Remove the link');
    }
    expect((await call(fx.client, 'list_extensions')).text).toContain('No extensions installed.');
  });

  it('loads a checked copy: links inside the roots are copied, later links are never seen', async () => {
    const folder = path.join(fx.tmp, 'clean');
    fs.cpSync(FIXTURE, folder, {recursive: true});
    fs.writeFileSync(path.join(fx.tmp, 'shared.txt'), 'shared inside');
    fs.symlinkSync(path.join(fx.tmp, 'shared.txt'), path.join(folder, 'shared.txt'));
    const installed = await call(fx.client, 'install_extension', {path: folder});
    expect(installed.isError, installed.text).toBe(false);
    const id = /Id: ([a-p]{32})/.exec(installed.text)?.[1] ?? '';
    try {
      await checkCopy(folder, id);
    } finally {
      await call(fx.client, 'uninstall_extension', {id});
    }
  });

  async function checkCopy(folder: string, id: string): Promise<void> {
    // Planted in the original after the install: Chromium reads the copy.
    fs.symlinkSync(path.join(fx.engine.configDir, 'token'), path.join(folder, 'token.txt'));
    const firstWorker = await workerOf(id);
    const fetched = await fetchedByExtension(firstWorker, ['/shared.txt', '/token.txt']);
    expect(fetched).toContain('/shared.txt: shared inside');
    expect(fetched).not.toContain(fx.engine.token);

    // A reload copies the original again, checked again; the id stays.
    const refused = await call(fx.client, 'reload_extension', {id});
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('token.txt leads to');
    fs.unlinkSync(path.join(folder, 'token.txt'));
    fs.writeFileSync(path.join(folder, 'added.txt'), 'added later');
    const reloaded = await call(fx.client, 'reload_extension', {id});
    expect(reloaded.text).toContain('Extension reloaded.');
    expect((await call(fx.client, 'list_extensions')).text).toContain(`id=${id} `);
    // Installed again from the same folder after an uninstall: the same id, the new contents.
    await call(fx.client, 'uninstall_extension', {id});
    const again = await call(fx.client, 'install_extension', {path: folder});
    expect(again.text).toContain(`Extension installed. Id: ${id}`);
    expect(await fetchedByExtension(await workerOf(id, firstWorker), ['/added.txt'])).toContain(
      '/added.txt: added later',
    );
  }

  it('installs, lists, triggers, reloads and uninstalls an unpacked extension', async () => {
    const installed = await call(fx.client, 'install_extension', {path: FIXTURE});
    expect(installed.isError, installed.text).toBe(false);
    const id = /Extension installed\. Id: ([a-p]{32})/.exec(installed.text)?.[1];
    expect(id, installed.text).toBeDefined();
    if (id === undefined) {
      return;
    }

    const listed = await call(fx.client, 'list_extensions');
    expect(listed.text).toContain(`## Extensions\nid=${id} "MBI Test Extension" v1.2.3 Enabled`);

    // The service worker shows with the pages and runs scripts.
    const pages = await waitFor(async () => {
      const {text} = await call(fx.client, 'list_pages');
      return text.includes('## Extension Service Workers') ? text : undefined;
    });
    const workerId = new RegExp(`^(sw-\\d+): chrome-extension://${id}/worker\\.js$`, 'm').exec(
      pages,
    )?.[1];
    expect(workerId, pages).toBeDefined();

    const pageId = await fx.openPage('/index.html');
    await call(fx.client, 'select_page', {pageId});
    const triggered = await call(fx.client, 'trigger_extension_action', {id});
    expect(triggered.text).toContain(`Extension action triggered for ID ${id}`);
    // The click reaches the worker as an event, not through DevTools: counted once it ran.
    const clicks = await waitFor(async () => {
      const {text} = await call(fx.client, 'evaluate_script', {
        serviceWorkerId: workerId,
        function: '() => self.actionClicks',
      });
      return text.includes('```json\n0\n```') ? undefined : text;
    });
    expect(clicks).toContain('```json\n1\n```');
    // The worker says when its script ran on the tab (or why not); the wait ends on that line.
    const report = (click: number) =>
      waitFor(
        async () => {
          const {text} = await call(fx.client, 'list_console_messages', {
            pageId,
            serviceWorkerId: workerId,
          });
          return new RegExp(`action (done|failed) ${click}`).test(text) ? text : undefined;
        },
        30_000,
        `the worker's report on click ${click}`,
      );
    let consoleList = await report(1);
    expect(consoleList).toMatch(/msgid=\d+ \[log\] action clicked 1/);
    // Chromium itself sometimes refuses the activeTab grant of the first action after an
    // install (about 1 in 5 with puppeteer alone, no server between); the next action has it.
    let click = 1;
    if (consoleList.includes('action failed 1: Cannot access contents of the page')) {
      click = 2;
      await call(fx.client, 'trigger_extension_action', {id});
      consoleList = await report(click);
    }
    // The action ran on the selected page (activeTab + scripting).
    expect(consoleList).toContain(`action done ${click} on ${fx.server.url('/index.html')}`);
    const marked = await call(fx.client, 'evaluate_script', {
      pageId,
      function: '() => document.documentElement.dataset.mbiAction ?? null',
    });
    expect(marked.text).toContain(`"${click}"`);

    const both = await call(fx.client, 'evaluate_script', {
      pageId,
      serviceWorkerId: workerId,
      function: '() => 1',
    });
    expect(both.isError).toBe(true);
    expect(both.text).toContain('specify either a pageId or a serviceWorkerId.');
    const neither = await call(fx.client, 'evaluate_script', {function: '() => 1'});
    expect(neither.isError).toBe(true);
    expect(neither.text).toContain('specify either a pageId or a serviceWorkerId.');

    const reloaded = await call(fx.client, 'reload_extension', {id});
    expect(reloaded.text).toContain('Extension reloaded.');

    const removed = await call(fx.client, 'uninstall_extension', {id});
    expect(removed.text).toContain(`Extension uninstalled. Id: ${id}`);
    expect((await call(fx.client, 'list_extensions')).text).toContain('No extensions installed.');
    const gone = await call(fx.client, 'trigger_extension_action', {id});
    expect(gone.isError).toBe(true);
    expect(gone.text).toContain(`Extension with ID ${id} not found.`);
  });

  it('runs code in a worker the browser stopped and started again; refuses a stopped one at once', async () => {
    const folder = path.join(fx.tmp, 'restarted');
    fs.cpSync(FIXTURE, folder, {recursive: true});
    const installed = await call(fx.client, 'install_extension', {path: folder});
    const id = /Id: ([a-p]{32})/.exec(installed.text)?.[1] ?? '';
    const workerId = await workerOf(id);
    const timer = `() => new Promise(resolve => setTimeout(() => resolve('timer ran'), 50))`;
    const first = await call(fx.client, 'evaluate_script', {
      serviceWorkerId: workerId,
      function: timer,
    });
    expect(first.text, first.text).toContain('"timer ran"');
    const workers = await serviceWorkerDomain();
    try {
      const scopeURL = `chrome-extension://${id}/`;
      const version = await workers.version(scopeURL, 'running');
      await workers.cdp.send('ServiceWorker.stopWorker', {versionId: version.versionId});
      await workers.version(scopeURL, 'stopped');
      // Stopped: code sent to it would wait out the whole script timeout.
      const stopped = await call(fx.client, 'evaluate_script', {
        serviceWorkerId: workerId,
        function: timer,
        timeout: 20_000,
      });
      expect(stopped.isError).toBe(true);
      expect(stopped.text).toContain(
        `The service worker ${workerId} (chrome-extension://${id}/worker.js)`,
      );
      expect(stopped.text).toContain('Wake it by using the extension');
      // Started again while this server held a cdp to it: it waits at its start for a
      // debugger, with no timer running, until it is resumed.
      await workers.cdp.send('ServiceWorker.startWorker', {scopeURL});
      await workers.version(scopeURL, 'starting', 'running');
      const restarted = await call(fx.client, 'evaluate_script', {
        serviceWorkerId: workerId,
        function: timer,
        timeout: 20_000,
      });
      expect(restarted.isError, restarted.text).toBe(false);
      expect(restarted.text).toContain('"timer ran"');
    } finally {
      await workers.close();
      await call(fx.client, 'uninstall_extension', {id});
    }
  });

  /** The ServiceWorker domain on a page cdp of its own: versions and their running status. */
  async function serviceWorkerDomain() {
    const page = fx.engine.engine.browser.pages.list()[0];
    if (page === undefined) {
      throw new Error('no page');
    }
    const cdp = await page.page.createCDPSession();
    let versions: Protocol.ServiceWorker.ServiceWorkerVersion[] = [];
    let registrations: Protocol.ServiceWorker.ServiceWorkerRegistration[] = [];
    cdp.on('ServiceWorker.workerVersionUpdated', event => {
      versions = [
        ...versions.filter(old => !event.versions.some(v => v.versionId === old.versionId)),
        ...event.versions,
      ];
    });
    cdp.on('ServiceWorker.workerRegistrationUpdated', event => {
      registrations = [...registrations, ...event.registrations];
    });
    await cdp.send('ServiceWorker.enable');
    return {
      cdp,
      version: (scopeURL: string, ...statuses: string[]) =>
        waitFor(
          () => {
            const registration = registrations.find(each => each.scopeURL === scopeURL);
            return versions.find(
              each =>
                each.registrationId === registration?.registrationId &&
                statuses.includes(each.runningStatus),
            );
          },
          10_000,
          `a ${statuses.join(' or ')} worker of ${scopeURL}`,
        ),
      close: () => cdp.detach().catch(() => undefined),
    };
  }

  it('refuses a folder outside the allowed roots', async () => {
    // Outside the temp dir and outside --workspace (the checkout).
    const outside = makeOutsideDir('.mbi-ext-outside-', [ROOT]);
    try {
      fs.cpSync(FIXTURE, outside, {recursive: true});
      const refused = await call(fx.client, 'install_extension', {path: outside});
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/not within|outside|allowed/i);
    } finally {
      fs.rmSync(outside, {recursive: true, force: true});
    }
  });

  it('lists serviceWorkerId on evaluate_script, with pageId optional', async () => {
    const {tools} = await fx.client.listTools();
    const evaluate = tools.find(tool => tool.name === 'evaluate_script');
    expect(Object.keys(evaluate?.inputSchema.properties ?? {})).toContain('serviceWorkerId');
    expect(evaluate?.inputSchema.required ?? []).not.toContain('pageId');
  });
});

describe('switched on at run time', () => {
  const fx = useEngineWithFixtures();

  it('says what to restart when the browser started without extension support', async () => {
    await fx.openPage('/index.html');
    const before = await fx.client.listTools();
    const evaluate = before.tools.find(tool => tool.name === 'evaluate_script');
    expect(Object.keys(evaluate?.inputSchema.properties ?? {})).not.toContain('serviceWorkerId');
    expect(evaluate?.inputSchema.required).toContain('pageId');

    const reply = await fx.engine.engine.handleCommand({
      type: 'setCategoryEnabled',
      category: 'extensions',
      enabled: true,
    });
    expect(reply.ok).toBe(true);
    const refused = await call(fx.client, 'list_extensions');
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(
      'The browser was started before the Extensions category was switched on',
    );
    expect(refused.text).toContain('--categoryExtensions');
    const listed = await fx.client.listTools();
    const after = listed.tools.find(tool => tool.name === 'evaluate_script');
    expect(Object.keys(after?.inputSchema.properties ?? {})).toContain('serviceWorkerId');
    expect(textOf(await fx.client.callTool({name: 'list_pages', arguments: {}}))).toContain(
      '## Pages',
    );
  });
});
