/**
 * WebMCP speed, printed as JSON (`npx tsx bench/webmcp.ts`):
 *
 * 1. What execute_webmcp_tool adds over a direct CDP round trip (WebMCP.invokeTool, then the
 *    toolResponded event) on a trivial tool. Both run against the same page of one in-process
 *    engine, interleaved so machine noise hits both alike. Measured through a real MCP client over
 *    HTTP (what an agent pays) and through the engine's pipeline alone (runTool, no transport).
 *    Target: median overhead ≤ 2 ms.
 * 3. The webmcp_<name> tools (--webmcpTools): what a call adds over the same CDP round trip, and
 *    how soon a registration reaches the client as tools/list_changed (bench/webmcpToolBridge.ts).
 * 2. How long the WebMCP panel takes to render a list of 200 tools, in a headless Chromium showing
 *    the inspector: opening the tab the first time, and re-rendering the whole list (clearing a
 *    filter that hid every tool). Target: < 100 ms.
 *
 * Wall-clock numbers: run it on a quiet machine.
 */
import {execFileSync} from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import puppeteer from 'puppeteer-core';
import {z} from 'zod';
import {onUntyped, sendUntyped} from '../src/core/browser/cdp.js';
import {ROOT, startEngine} from '../test/helpers/engine.js';
import {RawHttpClient} from './lib.js';
import {measureWebMcpTools} from './webmcpToolBridge.js';
import {FixtureServer} from '../test/helpers/fixtureServer.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const WARMUP = 20;
const RENDER_RUNS = 15;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value =
    sorted.length % 2 === 0
      ? ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
      : (sorted[middle] ?? 0);
  return Math.round(value * 1000) / 1000;
}

function p90(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length * 0.9)] ?? 0) * 1000) / 1000;
}

const respondedSchema = z.object({invocationId: z.string(), status: z.string()});

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/ensure-built.mjs')], {
    stdio: 'inherit',
  });
  const fixtures = await new FixtureServer().start();
  const engine = await startEngine(['--categoryExperimentalWebmcp', '--webmcpTools']);
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const client = await engine.connect('bench');
    const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
      const result = (await client.callTool({name, arguments: args})) as CallToolResult;
      const text = result.content
        .flatMap(item => (item.type === 'text' ? [item.text] : []))
        .join('\n');
      if (result.isError === true) {
        throw new Error(text);
      }
      return text;
    };
    const pageIdOf = (text: string, fragment: string): number => {
      const line = text
        .split('\n')
        .find(candidate => /^\d+: /.test(candidate) && candidate.includes(fragment));
      return Number(line?.split(':')[0]);
    };

    // --- 1. panel render (first: no invocation history yet, just the 200 tools) ----------------
    const manyId = pageIdOf(
      await call('new_page', {url: fixtures.url('/webmcp/many.html')}),
      'many.html',
    );
    const http = engine.engine.http;
    if (!http) {
      throw new Error('no HTTP server');
    }
    const ui = await browser.newPage();
    await ui.setViewport({width: 1280, height: 800});
    // tsx keeps function names with a __name() helper that the page does not have.
    await ui.evaluateOnNewDocument('globalThis.__name = fn => fn;');
    const firstOpen: number[] = [];
    const listSelector = `section[data-page-id="${manyId}"] li.webmcp-tool`;
    for (let run = 0; run < 5; run++) {
      // A real load each time (the same URL again would only change the fragment).
      await ui.goto('about:blank');
      await ui.goto(`${http.inspectorUrl}#token=${engine.token}`);
      await ui.waitForFunction(
        () =>
          document.querySelector('[data-testid=connection-status]')?.textContent === 'Connected',
      );
      // The state (pages and their tools) has arrived once the Pages tab shows its count; then
      // let the UI finish replaying the event backlog (the call log) before timing.
      await ui.waitForFunction(() =>
        [...document.querySelectorAll('[role=tab]')].some(
          tab => tab.textContent.startsWith('Pages') && /\d/.test(tab.textContent),
        ),
      );
      let previous = '';
      for (;;) {
        await new Promise(resolve => setTimeout(resolve, 500));
        const log = await ui.$eval('[role=tab]', tab => tab.textContent);
        if (log === previous) {
          break;
        }
        previous = log;
      }
      await ui.evaluate(
        () => new Promise(resolve => requestIdleCallback(resolve, {timeout: 2_000})),
      );
      firstOpen.push(
        await ui.evaluate(async (selector: string) => {
          const tab = [...document.querySelectorAll('[role=tab]')].find(candidate =>
            candidate.textContent.startsWith('WebMCP'),
          );
          if (!(tab instanceof HTMLElement)) {
            throw new Error('no WebMCP tab');
          }
          const started = performance.now();
          tab.click();
          await new Promise<void>(resolve => {
            const check = (): void => {
              if (document.querySelectorAll(selector).length === 200) {
                resolve();
              } else {
                requestAnimationFrame(check);
              }
            };
            check();
          });
          // Until the frame with the list is painted.
          await new Promise(resolve => requestAnimationFrame(resolve));
          return performance.now() - started;
        }, listSelector),
      );
    }
    const rerender: number[] = [];
    for (let run = 0; run < RENDER_RUNS; run++) {
      rerender.push(
        await ui.evaluate(async (selector: string) => {
          const input = document.querySelector('input[aria-label="Filter WebMCP tools"]');
          if (!(input instanceof HTMLInputElement)) {
            throw new Error('no filter');
          }
          const type = (value: string): void => {
            // React tracks the element's own value setter; the prototype's bypasses it.
            Reflect.set(HTMLInputElement.prototype, 'value', value, input);
            input.dispatchEvent(new Event('input', {bubbles: true}));
          };
          // Resolves on the first frame that shows `count` tools.
          const untilCount = (count: number): Promise<void> =>
            new Promise<void>(resolve => {
              const check = (): void => {
                if (document.querySelectorAll(selector).length === count) {
                  resolve();
                } else {
                  requestAnimationFrame(check);
                }
              };
              check();
            });
          type('no tool has this name');
          await untilCount(0);
          await new Promise(resolve => requestAnimationFrame(resolve));
          const started = performance.now();
          type('');
          await untilCount(200);
          await new Promise(resolve => requestAnimationFrame(resolve));
          return performance.now() - started;
        }, listSelector),
      );
    }

    // --- 2. execute overhead -------------------------------------------------------------------
    const pageId = pageIdOf(
      await call('new_page', {url: fixtures.url('/webmcp/imperative.html')}),
      'imperative.html',
    );
    const page = engine.engine.browser.pages.byId(pageId);
    const waiters = new Map<string, () => void>();
    const early = new Set<string>();
    const stop = onUntyped(page.cdp, 'WebMCP.toolResponded', respondedSchema, event => {
      const resolve = waiters.get(event.invocationId);
      if (resolve) {
        resolve();
      } else {
        early.add(event.invocationId);
      }
    });
    const direct = async (): Promise<number> => {
      const started = performance.now();
      const {invocationId} = await sendUntyped(
        page.cdp,
        'WebMCP.invokeTool',
        {frameId: page.mainFrameId, toolName: 'add', input: {a: 1, b: 2}},
        z.object({invocationId: z.string()}),
      );
      if (!early.delete(invocationId)) {
        await new Promise<void>(resolve => waiters.set(invocationId, resolve));
        waiters.delete(invocationId);
      }
      return performance.now() - started;
    };
    const args = {pageId, toolName: 'add', input: '{"a":1,"b":2}'};
    const viaMcp = async (): Promise<number> => {
      const started = performance.now();
      const text = await call('execute_webmcp_tool', args);
      const elapsed = performance.now() - started;
      if (!text.includes('"output": 3')) {
        throw new Error(`unexpected result: ${text}`);
      }
      return elapsed;
    };
    const raw = await RawHttpClient.connect(engine.mcpUrl, engine.token);
    const viaRawHttp = async (): Promise<number> => {
      const started = performance.now();
      const body = await raw.callTool('execute_webmcp_tool', args);
      const elapsed = performance.now() - started;
      if (!body.includes('\\"output\\": 3')) {
        throw new Error(`unexpected result: ${body}`);
      }
      return elapsed;
    };
    const viaPipeline = async (): Promise<number> => {
      const started = performance.now();
      const reply = await engine.engine.handleCommand({
        type: 'runTool',
        tool: 'execute_webmcp_tool',
        args,
      });
      const elapsed = performance.now() - started;
      if (!reply.ok) {
        throw new Error(reply.error);
      }
      return elapsed;
    };
    const viaService = async (): Promise<number> => {
      const started = performance.now();
      const outcome = await engine.engine.webmcp.execute({
        page,
        toolName: 'add',
        input: {a: 1, b: 2},
        invoker: {kind: 'inspector'},
        timeoutMs: 30_000,
      });
      const elapsed = performance.now() - started;
      if (outcome.output !== 3) {
        throw new Error(`unexpected output ${String(outcome.output)}`);
      }
      return elapsed;
    };
    for (let i = 0; i < WARMUP; i++) {
      await direct();
      await viaService();
      await viaMcp();
      await viaRawHttp();
      await viaPipeline();
    }
    const cdpTimes: number[] = [];
    const serviceTimes: number[] = [];
    const mcpTimes: number[] = [];
    const rawTimes: number[] = [];
    const pipelineTimes: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      cdpTimes.push(await direct());
      serviceTimes.push(await viaService());
      mcpTimes.push(await viaMcp());
      rawTimes.push(await viaRawHttp());
      pipelineTimes.push(await viaPipeline());
    }
    raw.close();
    // With imperative.html the selected page, its tools are offered as webmcp_<name>.
    const pageTools = await measureWebMcpTools({
      page,
      client,
      mcpUrl: engine.mcpUrl,
      token: engine.token,
      direct,
      iterations: ITERATIONS,
      warmup: WARMUP,
      median,
      p90,
    });
    stop();

    const cdp = median(cdpTimes);
    const result = {
      iterations: ITERATIONS,
      loadAverage: os.loadavg().map(value => Math.round(value * 100) / 100),
      execute: {
        cdpRoundTripMedianMs: cdp,
        serviceMedianMs: median(serviceTimes),
        mcpHttpMedianMs: median(mcpTimes),
        mcpRawHttpMedianMs: median(rawTimes),
        pipelineMedianMs: median(pipelineTimes),
        /** The WebMCP service alone (registry lookup, invocation record, events). */
        overheadServiceMs: Math.round((median(serviceTimes) - cdp) * 1000) / 1000,
        /** What an agent pays, minus the SDK client's own fetch/SSE parsing. */
        overheadMcpRawHttpMs: Math.round((median(rawTimes) - cdp) * 1000) / 1000,
        overheadMcpHttpMs: Math.round((median(mcpTimes) - cdp) * 1000) / 1000,
        overheadPipelineMs: Math.round((median(pipelineTimes) - cdp) * 1000) / 1000,
        p90: {
          cdp: p90(cdpTimes),
          service: p90(serviceTimes),
          mcpHttp: p90(mcpTimes),
          mcpRawHttp: p90(rawTimes),
          pipeline: p90(pipelineTimes),
        },
        targetMs: 2,
      },
      pageTools,
      panel200Tools: {
        firstOpenMedianMs: median(firstOpen),
        rerenderMedianMs: median(rerender),
        runs: {firstOpen: firstOpen.map(Math.round), rerender: rerender.map(Math.round)},
        targetMs: 100,
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await browser.close();
    await engine.stop();
    await fixtures.stop();
  }
}

await main();
