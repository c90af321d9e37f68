/**
 * How fast the inspector UI comes up in a browser tab: from the start of the page load (the
 * navigation's time origin) to its first paint and to the first call rows of the log, with a
 * cold cache each time (a fresh browser context per load). The server is the headless entry over
 * HTTP with a few calls already in its log. Used by `npm run bench -- inspector`; takes the CLI
 * to start so an older build can be measured the same way.
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import puppeteer from 'puppeteer-core';
import {CHROMIUM, median} from './lib.js';

export interface InspectorLoadTimes {
  /** First contentful paint, ms after the load started. */
  firstPaint: number;
  /** First call row in the log, ms after the load started. */
  firstRows: number;
}

/**
 * Records, inside the page, when the first call row appears (installed before any page script).
 * A string, not a function: tsx's transform would add helpers the page does not have.
 */
const WATCH_FOR_ROWS = `
new MutationObserver((_mutations, observer) => {
  if (document.querySelector('[role=row][data-call-id]')) {
    window.__firstRowsAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
`;

async function startServer(
  cli: string,
  dir: string,
): Promise<{stop: () => void; ready: {mcpUrl: string; inspectorUrl: string; token: string}}> {
  const readyFile = path.join(dir, 'ready.json');
  const child = spawn(
    process.execPath,
    [cli, '--headless', '--isolated', '--port', '0', '--readyFile', readyFile],
    {
      stdio: 'ignore',
      env: {...process.env, MCP_BROWSER_INSPECTOR_CONFIG_DIR: dir, CHROME_PATH: CHROMIUM},
    },
  );
  const deadline = Date.now() + 20_000;
  while (!fs.existsSync(readyFile)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error('the server did not start');
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  const ready = JSON.parse(fs.readFileSync(readyFile, 'utf8')) as {
    mcpUrl: string;
    inspectorUrl: string;
    token: string;
  };
  return {ready, stop: () => child.kill('SIGTERM')};
}

export async function measureInspectorLoad(
  cli: string,
  runs: number,
): Promise<{firstPaint: number; firstRows: number; all: InspectorLoadTimes[]}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-ui-'));
  const server = await startServer(cli, dir);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const client = new Client({name: 'bench-ui', version: '1'});
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.ready.mcpUrl), {
        requestInit: {headers: {Authorization: `Bearer ${server.ready.token}`}},
      }),
    );
    for (let i = 0; i < 20; i++) {
      await client.callTool({name: 'list_pages', arguments: {}});
    }
    await client.close();
    const all: InspectorLoadTimes[] = [];
    // One warm-up load (Chromium's own first-use costs), then cold-cache loads.
    for (let i = 0; i <= runs; i++) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.evaluateOnNewDocument(WATCH_FOR_ROWS);
      await page.goto(`${server.ready.inspectorUrl}#token=${server.ready.token}`);
      await page.waitForFunction(() => Reflect.get(window, '__firstRowsAt') !== undefined, {
        timeout: 20_000,
      });
      const times = await page.evaluate(() => ({
        firstPaint:
          performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        firstRows: Number(Reflect.get(window, '__firstRowsAt')),
      }));
      if (i > 0) {
        all.push(times);
      }
      await context.close();
    }
    return {
      firstPaint: median(all.map(time => time.firstPaint)),
      firstRows: median(all.map(time => time.firstRows)),
      all,
    };
  } finally {
    await browser.close();
    server.stop();
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

// `npx tsx bench/inspector-load.ts [cli…]`: compares builds side by side (each CLI serves the
// renderer it finds next to it).
if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const clis = process.argv.slice(2);
  const runs = Number(process.env.BENCH_RUNS ?? '9');
  for (const cli of clis.length > 0 ? clis : ['out/node/cli/index.js']) {
    const result = await measureInspectorLoad(path.resolve(cli), runs);
    console.log(
      `${cli}: first paint ${result.firstPaint.toFixed(0)} ms, first rows ${result.firstRows.toFixed(0)} ms (median of ${runs})`,
    );
  }
}
