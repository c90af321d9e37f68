/**
 * Several agents on one server: N MCP clients at once over HTTP, each doing what an agent does
 * with a page of its own: new_page (its page found through the `[selected]` marker of its own
 * reply, and the reply's first line), 20 × list_pages (its page still marked), 5 × evaluate_script
 * on its page (it must answer with that client's URL), then close_page of that page. Counts
 * errors (an error reply, a thrown call, or another client's page), hangs (a call over the
 * bound), pages left open, list_pages latency and, when given the server's pid, its RSS.
 * Used by `npm run bench -- agents` (50 clients) and by the suite (10 clients). Node flags for the
 * server process (a CPU profile: `--cpu-prof`) go in BENCH_SERVER_NODE_ARGS.
 *
 * The clients are the SDK's (what the suite checks with) or lean ones (what the bench times): all
 * of them run in this one process, where 50 SDK clients spend about 3 ms of CPU per call and wait
 * for each other on one event loop, a cost no agent in its own process pays.
 */
import fs from 'node:fs';
import os from 'node:os';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {LeanHttpClient, toolResult} from './leanHttpClient.js';

export interface AgentsLoadOptions {
  mcpUrl: string;
  token: string;
  /** A page URL; each client opens it with `?client=<n>`. */
  pageUrl: string;
  clients: number;
  listPages?: number;
  evaluations?: number;
  /** The server's pid, to read its RSS (Linux /proc). */
  serverPid?: number;
  /** A call that takes longer than this counts as a hang. */
  hangMs?: number;
  /** The MCP client each agent uses: the SDK's (default) or the lean one (see the file comment). */
  client?: 'sdk' | 'lean';
}

export interface AgentsLoadResult {
  clients: number;
  calls: number;
  errors: number;
  hangs: number;
  firstErrors: string[];
  /** Pages open after the clients are gone that were not open before the load. */
  pagesLeft: number;
  listPagesMs: {p50: number; p95: number; max: number};
  seconds: number;
  rssMb?: {baseline: number; peak: number; after: number; growth: number};
  /**
   * CPU time used during the load by the server process (given its pid) and by this process (the
   * clients): where list_pages time goes on a loaded machine besides Chromium.
   */
  cpuMs?: {server: number; clients: number};
  loadAverage: number[];
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

/** CPU time (user + system) a process used so far (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = (fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return Math.round(value * 10) / 10;
}

function textOf(result: CallToolResult): string {
  return result.content.flatMap(item => (item.type === 'text' ? [item.text] : [])).join('\n');
}

function selectedId(text: string): number | undefined {
  const match = /^(\d+): .*\[selected\]/m.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function pageIds(text: string): number[] {
  return text
    .split('\n')
    .filter(line => /^\d+: /.test(line))
    .map(line => Number(line.split(':')[0]));
}

/** What an agent needs of its MCP client. */
interface AgentClient {
  callTool(params: {name: string; arguments: Record<string, unknown>}): Promise<CallToolResult>;
  /** Ends the MCP session (DELETE) and closes the client, as a client that is done does. */
  leave(): Promise<void>;
}

async function connect(options: AgentsLoadOptions, name: string): Promise<AgentClient> {
  if (options.client === 'lean') {
    const lean = new LeanHttpClient(options.mcpUrl, options.token);
    await lean.connect(name);
    return {callTool: params => lean.callTool(params), leave: () => lean.close()};
  }
  const client = new Client({name, version: '1'});
  const transport = new StreamableHTTPClientTransport(new URL(options.mcpUrl), {
    requestInit: {headers: {Authorization: `Bearer ${options.token}`}},
  });
  await client.connect(transport);
  return {
    // Only the text items and isError are read (the SDK has checked the answer already).
    callTool: async params => toolResult(await client.callTool(params)),
    leave: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}

interface Tally {
  errors: string[];
  hangs: number;
  calls: number;
  listPagesMs: number[];
}

/** One call, bounded: an error reply, a throw or a hang is counted; the reply text is returned. */
async function timedCall(
  client: AgentClient,
  tally: Tally,
  hangMs: number,
  name: string,
  args: Record<string, unknown>,
): Promise<{text: string; ok: boolean}> {
  const started = performance.now();
  tally.calls++;
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>(resolve => {
    timer = setTimeout(() => resolve('hang'), hangMs);
  });
  try {
    const outcome = await Promise.race([client.callTool({name, arguments: args}), hang]);
    if (outcome === 'hang') {
      tally.hangs++;
      tally.errors.push(`${name}: no answer within ${hangMs} ms`);
      return {text: '', ok: false};
    }
    const result = outcome;
    if (name === 'list_pages') {
      tally.listPagesMs.push(performance.now() - started);
    }
    const text = textOf(result);
    if (result.isError) {
      tally.errors.push(`${name}: ${text.split('\n')[0] ?? ''}`);
      return {text, ok: false};
    }
    return {text, ok: true};
  } catch (error) {
    tally.errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return {text: '', ok: false};
  } finally {
    clearTimeout(timer);
  }
}

/** One agent's run; any call that lands on another client's page counts as an error. */
async function agent(
  client: AgentClient,
  index: number,
  options: Required<Pick<AgentsLoadOptions, 'listPages' | 'evaluations' | 'hangMs'>> &
    AgentsLoadOptions,
  tally: Tally,
): Promise<void> {
  const call = (name: string, args: Record<string, unknown> = {}) =>
    timedCall(client, tally, options.hangMs, name, args);
  const mine = `?client=${index}`;
  const opened = await call('new_page', {url: `${options.pageUrl}${mine}`});
  const pageId = selectedId(opened.text);
  const firstLine = Number(/^Opened page (\d+)\./.exec(opened.text)?.[1]);
  if (pageId === undefined || pageId !== firstLine) {
    tally.errors.push(`new_page: marked ${pageId} selected, first line says ${firstLine}`);
    return;
  }
  const selectedLine = opened.text.split('\n').find(line => line.startsWith(`${pageId}: `));
  if (!selectedLine?.includes(mine)) {
    tally.errors.push(`new_page: the page marked selected is not this client's (${selectedLine})`);
  }
  for (let round = 0; round < options.listPages; round++) {
    const listed = await call('list_pages');
    if (listed.ok && selectedId(listed.text) !== pageId) {
      tally.errors.push(`list_pages: marked ${selectedId(listed.text)}, not ${pageId}`);
    }
  }
  for (let round = 0; round < options.evaluations; round++) {
    const evaluated = await call('evaluate_script', {
      pageId,
      function: '() => location.search',
    });
    if (evaluated.ok && !evaluated.text.includes(`"${mine}"`)) {
      tally.errors.push(`evaluate_script: ran on another page (${evaluated.text.slice(-40)})`);
    }
  }
  await call('close_page', {pageId});
}

export async function runAgentsLoad(options: AgentsLoadOptions): Promise<AgentsLoadResult> {
  const settings = {listPages: 20, evaluations: 5, hangMs: 60_000, ...options};
  const checker = await connect(options, 'load-checker');
  // The browser runs and its pages are known before the load (and before the RSS baseline).
  const before = new Set(
    pageIds(textOf(await checker.callTool({name: 'list_pages', arguments: {}}))),
  );
  const baseline = options.serverPid === undefined ? 0 : rssMb(options.serverPid);
  let peak = baseline;
  const sampler =
    options.serverPid === undefined
      ? undefined
      : setInterval(() => (peak = Math.max(peak, rssMb(options.serverPid ?? 0))), 250);
  const tally: Tally = {errors: [], hangs: 0, calls: 0, listPagesMs: []};
  const serverCpu = options.serverPid === undefined ? 0 : cpuMs(options.serverPid);
  const clientsCpu = process.cpuUsage();
  const started = performance.now();
  const clients = await Promise.all(
    Array.from({length: options.clients}, (_, index) => connect(options, `agent-${index}`)),
  );
  await Promise.all(clients.map((client, index) => agent(client, index, settings, tally)));
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const clientsCpuUsed = process.cpuUsage(clientsCpu);
  const cpu =
    options.serverPid === undefined
      ? undefined
      : {
          server: cpuMs(options.serverPid) - serverCpu,
          clients: Math.round((clientsCpuUsed.user + clientsCpuUsed.system) / 1000),
        };
  await Promise.all(clients.map(client => client.leave()));
  clearInterval(sampler);
  const after = textOf(await checker.callTool({name: 'list_pages', arguments: {}}));
  const pagesLeft = pageIds(after).filter(id => !before.has(id)).length;
  await checker.leave();
  const rss = options.serverPid === undefined ? undefined : rssMb(options.serverPid);
  return {
    clients: options.clients,
    calls: tally.calls,
    errors: tally.errors.length,
    hangs: tally.hangs,
    firstErrors: tally.errors.slice(0, 5),
    pagesLeft,
    listPagesMs: {
      p50: percentile(tally.listPagesMs, 50),
      p95: percentile(tally.listPagesMs, 95),
      max: percentile(tally.listPagesMs, 100),
    },
    seconds,
    ...(rss === undefined
      ? {}
      : {rssMb: {baseline, peak, after: rss, growth: Math.round((rss - baseline) * 10) / 10}}),
    ...(cpu === undefined ? {} : {cpuMs: cpu}),
    loadAverage: os.loadavg().map(value => Math.round(value * 100) / 100),
  };
}
