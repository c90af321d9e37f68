/**
 * End-to-end helpers for the inspector UI: the real headless server as a child process (what
 * `npm run serve` runs), a separate headless Chromium driven by puppeteer-core showing the UI, a
 * real MCP client, and screenshots into test-results/screenshots/.
 */
import type {ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {ToolListChangedNotificationSchema} from '@modelcontextprotocol/sdk/types.js';
import puppeteer, {type Browser, type Page} from 'puppeteer-core';
import {hasInvisible} from '../../src/renderer/src/ui/revealInvisible.js';
import type {ReadyFile} from '../../src/shared/readyFile.js';
import {ROOT, waitFor} from './engine.js';
import {scaled} from './loadFactor.js';
import {startServerProcess} from './serverProcess.js';

export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

export type ReadyInfo = ReadyFile;

export interface ServeProcess extends ReadyInfo {
  port: number;
  configDir: string;
  process: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  port?: number;
  /** Reuse a config dir (same persisted token), e.g. to restart the "same" server. */
  configDir?: string;
  flags?: string[];
}

/**
 * Starts `node out/node/cli/index.js --headless --isolated --port N --readyFile …`. Its config
 * dir stays after stop(), for a restart of the "same" server.
 */
export async function startServe(options: ServeOptions = {}): Promise<ServeProcess> {
  const configDir = options.configDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-ui-config-'));
  const server = await startServerProcess({
    port: options.port,
    configDir,
    flags: options.flags,
    readyWithinMs: 60_000,
  });
  return {
    mcpUrl: server.mcpUrl,
    inspectorUrl: server.inspectorUrl,
    token: server.token,
    pid: server.pid,
    port: server.port,
    configDir,
    process: server.child,
    stderr: () => server.stderr(),
    async stop() {
      await server.stop();
    },
  };
}

export async function launchUiBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

export interface UiPage {
  page: Page;
  /** Console errors and page errors seen so far (CSP violations show up here). */
  errors: string[];
}

/** Opens the inspector in a new tab; waits until it is connected unless told otherwise. */
export async function openInspector(
  browser: Browser,
  url: string,
  options: {waitConnected?: boolean; dark?: boolean} = {},
): Promise<UiPage> {
  const page = await browser.newPage();
  // Puppeteer's own 30 s default for every wait, stretched on a loaded machine like the rest.
  page.setDefaultTimeout(scaled(30_000));
  await page.setViewport({width: 1280, height: 800});
  if (options.dark) {
    await page.emulateMediaFeatures([{name: 'prefers-color-scheme', value: 'dark'}]);
  }
  const errors: string[] = [];
  page.on('console', message => {
    if (message.type() === 'error') {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error: unknown) => {
    errors.push(error instanceof Error ? error.message : 'page error');
  });
  await page.goto(url);
  if (options.waitConnected !== false) {
    await page.waitForFunction(
      () => document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
      {timeout: scaled(20_000)},
    );
  }
  return {page, errors};
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, {recursive: true});
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({path: file});
  return file;
}

export async function openPanel(page: Page, label: string): Promise<void> {
  // A tab's accessible name includes its count badge ("Log (5)"): match the start of its text.
  const tabs = await page.$$('[role=tab]');
  for (const tab of tabs) {
    if ((await tab.evaluate(element => element.firstChild?.textContent)) === label) {
      await tab.click();
      break;
    }
  }
  // Selected, and its panel's code loaded (panels other than Log load on first open).
  await page.waitForFunction(
    (name: string) =>
      [...document.querySelectorAll('[role=tab]')].some(tab => {
        const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
        return (
          tab.getAttribute('aria-selected') === 'true' &&
          tab.textContent.startsWith(name) &&
          panel !== null &&
          panel.querySelector('[data-panel-loading]') === null
        );
      }),
    {},
    label,
  );
}

/** Texts of the call rows in the log grid, as "tool status" pairs. */
export async function logRows(
  page: Page,
): Promise<{tool: string; status: string; client: string}[]> {
  return page.$$eval('[role=grid] [role=row][data-call-id]', rows =>
    rows.map(row => ({
      tool: row.querySelector('.log-call__tool')?.textContent ?? '',
      status: row.getAttribute('data-status') ?? '',
      client: row.querySelector('.log-cell--client')?.textContent ?? '',
    })),
  );
}

/** Clicks the first log row of a tool (optionally with a status, and of a client as shown). */
export async function clickRow(
  page: Page,
  tool: string,
  status?: string,
  client?: string,
): Promise<void> {
  const rows = await page.$$(
    `[role=grid] [role=row][data-call-id]${status ? `[data-status=${status}]` : ''}`,
  );
  for (const row of rows) {
    const name = await row.$eval('.log-call__tool', cell => cell.textContent);
    const shownClient =
      client === undefined
        ? undefined
        : await row.$eval('.log-cell--client', cell => cell.textContent);
    if (name === tool && (client === undefined || shownClient?.includes(client) === true)) {
      await row.click();
      return;
    }
  }
  throw new Error(`No log row for ${tool}`);
}

/** A log row shows as soon as its call starts (or is held): true once it shows the call's end. */
export function rowEnded(row: {status: string}): boolean {
  return row.status !== 'running' && row.status !== 'held';
}

export async function waitForRows(
  page: Page,
  check: (rows: {tool: string; status: string; client: string}[]) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<{tool: string; status: string; client: string}[]> {
  return waitFor(
    async () => {
      const rows = await logRows(page);
      return check(rows) ? rows : undefined;
    },
    timeoutMs,
    what,
  );
}

export interface McpTestClient {
  client: Client;
  /** tools/list_changed notifications received so far. */
  listChanged: () => number;
  close(): Promise<void>;
}

export async function connectMcp(
  serve: Pick<ReadyInfo, 'mcpUrl' | 'token'>,
  name = 'e2e-agent',
): Promise<McpTestClient> {
  const client = new Client({name, version: '3.1.4'});
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serve.mcpUrl), {
      requestInit: {headers: {Authorization: `Bearer ${serve.token}`}},
    }),
  );
  return {
    client,
    listChanged: () => changes,
    close: () => client.close().catch(() => undefined),
  };
}

/**
 * Text the page shows (its visible text and the attributes a person reads) that still holds an
 * invisible or bidi character, as found: every panel should show them as ⟨U+XXXX⟩ instead.
 */
export async function invisibleShown(page: Page): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const texts = [document.body.innerText];
    for (const element of document.querySelectorAll(
      '[title], [alt], [aria-label], [placeholder]',
    )) {
      for (const name of ['title', 'alt', 'aria-label', 'placeholder']) {
        texts.push(element.getAttribute(name) ?? '');
      }
    }
    return texts;
  });
  return shown.flatMap(text =>
    text
      .split('\n')
      .filter(line => hasInvisible(line))
      .map(line => JSON.stringify(line.slice(0, 200))),
  );
}

/** Accessible names of every interactive control that has none (should be empty). */
export async function unnamedControls(page: Page): Promise<string[]> {
  const snapshot = await page.accessibility.snapshot({interestingOnly: true});
  const interactive = new Set([
    'button',
    'checkbox',
    'switch',
    'combobox',
    'textbox',
    'searchbox',
    'radio',
    'tab',
    'link',
    'spinbutton',
  ]);
  const missing: string[] = [];
  const visit = (node: {role: string; name?: string; children?: unknown[]} | null): void => {
    if (!node) {
      return;
    }
    if (interactive.has(node.role) && !node.name?.trim()) {
      missing.push(node.role);
    }
    for (const child of (node.children ?? []) as {role: string; name?: string}[]) {
      visit(child);
    }
  };
  visit(snapshot);
  return missing;
}

export interface InspectorFixture {
  serve: ServeProcess;
  /** The UI browser: the one passed in, or one launched (and closed) by the fixture. */
  browser: Browser;
  ui: UiPage;
  page: Page;
  agent: McpTestClient;
  /** Stops whatever was started, newest first, ignoring errors; safe to call more than once. */
  dispose(): Promise<void>;
}

export interface InspectorFixtureOptions {
  /** Extra flags for the server. */
  flags?: string[];
  /** The MCP client's name. */
  clientName?: string;
  /** A UI browser to open the inspector in; dispose() then closes only the inspector's tab. */
  browser?: Browser;
  /** The server's port (default: any free one). */
  port?: number;
}

/**
 * The usual end-to-end setup: a real headless server, the inspector (connected, token in the URL)
 * in a headless Chromium, and an MCP client. If a step fails, what was started is stopped again.
 */
export async function startInspectorFixture(
  options: InspectorFixtureOptions = {},
): Promise<InspectorFixture> {
  const cleanups: (() => Promise<unknown>)[] = [];
  let disposed: Promise<void> | undefined;
  const dispose = (): Promise<void> => {
    disposed ??= (async () => {
      for (const cleanup of cleanups.reverse()) {
        await Promise.resolve()
          .then(cleanup)
          .catch(() => undefined);
      }
    })();
    return disposed;
  };
  try {
    const serve = await startServe({
      flags: options.flags,
      ...(options.port === undefined ? {} : {port: options.port}),
    });
    cleanups.push(() => serve.stop());
    const shared = options.browser;
    const browser = shared ?? (await launchUiBrowser());
    if (!shared) {
      cleanups.push(() => browser.close());
    }
    const ui = await openInspector(browser, `${serve.inspectorUrl}#token=${serve.token}`);
    if (shared) {
      cleanups.push(() => ui.page.close());
    }
    const agent = await connectMcp(serve, options.clientName);
    cleanups.push(() => agent.close());
    return {serve, browser, ui, page: ui.page, agent, dispose};
  } catch (error) {
    await dispose();
    throw error;
  }
}
