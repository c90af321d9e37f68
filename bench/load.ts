/**
 * Load: 50 MCP clients at once over HTTP, 26 tool calls each (a tab of their own, then snapshots,
 * evaluations, lists and a reload), against the real headless server as a child process. Reports
 * errors, latency and the server's RSS growth. Target: 0 errors, <= 100 MB RSS growth.
 *
 *   npx tsx bench/load.ts [--clients 50] [--calls 26]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {startHttpServer} from './httpServer.js';
import {CHROMIUM, ROOT} from './lib.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const CLIENTS = option('clients', 50);
const CALLS = option('calls', 26);
const PAGE = `<!doctype html><title>Load page</title><h1>Load</h1>
<button onclick="this.textContent = 'clicked'">Press</button>
<ul>${Array.from({length: 30}, (_, index) => `<li><a href="#${index}">item ${index}</a></li>`).join('')}</ul>
<script>console.log('loaded');</script>`;

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0,
  );
}

async function main(): Promise<void> {
  const site = http.createServer((_request, response) => {
    response.writeHead(200, {'Content-Type': 'text/html'}).end(PAGE);
  });
  await new Promise<void>(resolve => site.listen(0, '127.0.0.1', resolve));
  const address = site.address();
  const pageUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;

  const ready = await startHttpServer(ROOT, CHROMIUM, ['--maxSessions', String(CLIENTS + 10)]);
  try {
    const connect = async (name: string): Promise<Client> => {
      const client = new Client({name, version: '1'});
      await client.connect(
        new StreamableHTTPClientTransport(new URL(ready.mcpUrl), {
          requestInit: {headers: {Authorization: `Bearer ${ready.token}`}},
        }),
      );
      return client;
    };
    // Warm up: the browser is started and one page is loaded before the baseline.
    const warm = await connect('warm-up');
    await warm.callTool({name: 'new_page', arguments: {url: pageUrl}});
    await warm.close();
    const baseline = rssMb(ready.pid);

    const latencies: number[] = [];
    const errors: string[] = [];
    const started = performance.now();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(ready.pid))), 250);
    const clients = await Promise.all(
      Array.from({length: CLIENTS}, (_, index) => connect(`load-${index}`)),
    );
    await Promise.all(
      clients.map(async (client, index) => {
        const timed = async (name: string, args: Record<string, unknown>): Promise<string> => {
          const t0 = performance.now();
          try {
            const result = (await client.callTool({name, arguments: args})) as CallToolResult;
            latencies.push(performance.now() - t0);
            const text = result.content
              .flatMap(item => (item.type === 'text' ? [item.text] : []))
              .join('\n');
            if (result.isError) {
              errors.push(`${name}: ${text.split('\n')[0] ?? ''}`);
            }
            return text;
          } catch (error) {
            errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
            return '';
          }
        };
        const opened = await timed('new_page', {url: `${pageUrl}?client=${index}`});
        const line = opened
          .split('\n')
          .find(l => l.includes(`client=${index}`) && /^\d+: /.test(l));
        const pageId = Number(line?.split(':')[0]);
        const rotation: [string, Record<string, unknown>][] = [
          ['take_snapshot', {pageId}],
          ['evaluate_script', {pageId, function: '() => document.querySelectorAll("li").length'}],
          ['list_pages', {}],
          ['list_console_messages', {pageId}],
          ['list_network_requests', {pageId}],
          ['navigate_page', {pageId, type: 'reload'}],
        ];
        for (let call = 1; call < CALLS; call++) {
          const [name, args] = rotation[(call - 1) % rotation.length] ?? ['list_pages', {}];
          await timed(name, args);
        }
      }),
    );
    clearInterval(sampler);
    const elapsed = performance.now() - started;
    const after = rssMb(ready.pid);
    for (const client of clients) {
      await client.close().catch(() => undefined);
    }
    const result = {
      clients: CLIENTS,
      callsPerClient: CALLS,
      calls: latencies.length + errors.length,
      errors: errors.length,
      firstErrors: errors.slice(0, 5),
      seconds: Math.round(elapsed / 100) / 10,
      latencyMs: {
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        max: percentile(latencies, 100),
      },
      serverRssMb: {baseline, after, peak, growth: Math.round((after - baseline) * 10) / 10},
      target: '0 errors, <= 100 MB RSS growth',
      ok: errors.length === 0 && after - baseline <= 100,
      loadAverage: os.loadavg().map(value => Math.round(value * 100) / 100),
    };
    console.log(JSON.stringify(result, null, 2));
    fs.mkdirSync(path.join(ROOT, 'bench/results'), {recursive: true});
    fs.writeFileSync(
      path.join(ROOT, 'bench/results/load.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    process.exitCode = result.ok ? 0 : 1;
  } finally {
    await ready.stop();
    site.close();
  }
}

await main();
