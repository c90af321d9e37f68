/**
 * `npm run bench`: the same calls against this server and chrome-devtools-mcp, on the same local
 * pages and the same Chromium, both over stdio. The servers run interleaved (each step on each
 * server in turn, the order flipped every round), so a busy moment of a shared machine hits both
 * alike. Prints medians, the median of the per-round ratios (ours / peer) with their spread and the
 * load average, and writes bench/results/latest.json. `BENCH_RUNS=N` sets the rounds (default 15).
 *
 *   npm run bench                 # everything
 *   npm run bench -- navigate     # only sections whose name contains "navigate"
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {FixtureServer} from '../test/helpers/fixtureServer.js';
import {runAgentsLoad} from './agentsLoad.js';
import {buildLibraryFixtures, runWholeTasks} from './wholeTasks.js';
import {startHttpServer} from './httpServer.js';
import {measureInspectorLoad} from './inspector-load.js';
import {
  describePaired,
  interleave,
  interleaveServers,
  paired,
  type Interleaved,
} from './interleave.js';
import {measureReplayOverhead} from './replay.js';
import {
  firstSnapshotTimes,
  HEADING_CHANGE,
  keptTreeMemory,
  ROW_CHANGE,
  snapshotTimes,
} from './snapshots.js';
import {
  callTool,
  CHROMIUM,
  RawHttpClient,
  median,
  ROOT,
  selectedPageId,
  startServer,
  timed,
  uidOf,
  type Server,
  type ServerKind,
} from './lib.js';

interface Row {
  metric: string;
  unit: string;
  ours: number;
  peer: number | null;
  /** ours / peer: the median of per-round ratios where the servers ran interleaved. */
  ratio: number | null;
  target: string;
  note?: string;
}

const rows: Row[] = [];
const filter = process.argv.slice(2).find(arg => !arg.startsWith('-'));

function record(
  metric: string,
  unit: string,
  ours: number,
  peer: number | null,
  target: string,
  note?: string,
  pairedRatio?: number,
): void {
  const ratio = pairedRatio ?? (peer === null || peer === 0 ? null : ours / peer);
  rows.push({metric, unit, ours, peer, ratio, target, ...(note ? {note} : {})});
  const fmt = (value: number | null): string =>
    value === null ? '—' : value >= 100 ? value.toFixed(0) : value.toFixed(2);
  console.log(
    `${metric.padEnd(44)} ours ${fmt(ours).padStart(9)} ${unit.padEnd(5)} peer ${fmt(peer).padStart(9)}  ratio ${ratio === null ? '—' : ratio.toFixed(2)}  (target ${target})`,
  );
}

const fixtures = await new FixtureServer().start();
fixtures.html(
  '/bench/a.html',
  '<!doctype html><title>A</title><h1>Page A</h1><a href="/bench/b.html">to B</a><button onclick="window.n=(window.n||0)+1">Noop</button><input aria-label="Field"><p>Hover me</p>',
);
fixtures.html(
  '/bench/b.html',
  '<!doctype html><title>B</title><h1>Page B</h1><a href="/bench/a.html">to A</a><button onclick="window.n=(window.n||0)+1">Noop</button><input aria-label="Field">',
);
fixtures.html(
  '/bench/title.html',
  '<!doctype html><title>Clicks 0</title><h1>Counter</h1><button onclick="document.title = \'Clicks \' + (window.n = (window.n || 0) + 1); document.getElementById(\'out\').textContent = document.title" id="count">Count</button><p id="out"></p>',
);
fixtures.route('/bench/ping', (_request, response) => {
  response
    .writeHead(200, {'Content-Type': 'application/json', 'Cache-Control': 'no-store'})
    .end('{"ok":true}');
});
fixtures.html(
  '/bench/requests.html',
  '<!doctype html><title>Requests</title><script>for (let i = 0; i < 999; i++) fetch("/bench/ping?i=" + i);</script>',
);
fixtures.html(
  '/bench/console.html',
  '<!doctype html><title>Console</title><script>for (let i = 0; i < 1000; i++) console.log("message " + i);</script>',
);

const RUNS = Number(process.env.BENCH_RUNS ?? '15');

/** Records the medians and the paired ratio (ours / `other`, round by round) of an interleaved run. */
function recordPaired(
  metric: string,
  unit: string,
  result: Interleaved,
  target: string,
  other: ServerKind = 'peer',
): void {
  const summary = paired(result, other);
  const note = describePaired(summary, result);
  record(metric, unit, summary.ours, summary.other, target, note, summary.ratio);
  console.log(`${''.padEnd(44)} ${note}`);
}

/** Sets each server up once, then times `step` on each in turn, the order flipped every round. */
function bothInterleaved<S>(
  setup: (server: Server) => Promise<S>,
  step: (server: Server, state: S, round: number) => Promise<number>,
  rounds = RUNS,
  warmup = 1,
): Promise<Interleaved> {
  return interleaveServers(['ours', 'peer'], rounds, setup, step, warmup);
}

async function openPage(server: Server, url: string): Promise<number> {
  const {text} = await callTool(server.client, 'new_page', {url});
  return selectedPageId(text);
}

/** Times one tool call; a call that fails stops the measurement (it would time an error path). */
async function timedCall(
  server: Server,
  tool: string,
  args: Record<string, unknown>,
): Promise<number> {
  const {ms, value} = await timed(() => callTool(server.client, tool, args));
  if (value.isError) {
    throw new Error(`${server.kind} ${tool}: ${value.text.slice(0, 300)}`);
  }
  return ms;
}

async function section(name: string, run: () => Promise<void>): Promise<void> {
  if (filter && !name.includes(filter)) {
    return;
  }
  console.log(`\n# ${name}`);
  try {
    await run();
  } catch (error) {
    console.log(`  (failed: ${error instanceof Error ? error.message : String(error)})`);
  }
}

// --- Speed of the basic calls --------------------------------------------------------------------

await section('cold start', async () => {
  // Process spawn → initialize → the first navigate_page answered; closing is not timed.
  const result = await interleave(['ours', 'peer'], RUNS, async kind => {
    const started = performance.now();
    const server = await startServer(kind);
    try {
      await timedCall(server, 'navigate_page', {pageId: 1, url: fixtures.url('/bench/a.html')});
      return performance.now() - started;
    } finally {
      await server.close();
    }
  });
  recordPaired('cold start → first finished navigation', 'ms', result, '≤ 0.5×');
});

await section('navigate_page', async () => {
  const small = await bothInterleaved(
    server => openPage(server, fixtures.url('/bench/a.html')),
    (server, pageId, round) =>
      timedCall(server, 'navigate_page', {
        pageId,
        url: fixtures.url(round % 2 ? '/bench/a.html' : '/bench/b.html'),
      }),
  );
  recordPaired('navigate_page (small page)', 'ms', small, '≤ 0.5×');
  // A new URL every round (the query), so each call is a full load of the 6,000-node page.
  const big = await bothInterleaved(
    server => openPage(server, fixtures.url('/bench/a.html')),
    (server, pageId, round) =>
      timedCall(server, 'navigate_page', {pageId, url: fixtures.url(`/big.html?round=${round}`)}),
  );
  recordPaired('navigate_page (~6,000-node page)', 'ms', big, '≤ 0.5×');
});

await section('evaluate_script', async () => {
  const result = await bothInterleaved(
    server => openPage(server, fixtures.url('/bench/a.html')),
    (server, pageId) =>
      timedCall(server, 'evaluate_script', {pageId, function: '() => document.title'}),
    RUNS * 2,
  );
  recordPaired('evaluate_script', 'ms', result, '≤ 0.25×');
});

// --- Snapshots, input and tool definitions -------------------------------------------------------

await section('take_snapshot', async () => {
  // Each snapshot after a change to the page (so none is answered from a cache), servers in turns.
  const results = await snapshotTimes(['peer', 'playwright', 'ours'], {
    url: fixtures.url('/big.html'),
    change: HEADING_CHANGE,
    rounds: 11,
  });
  const missing = {ms: Number.NaN, chars: Number.NaN, load: Number.NaN};
  const ours = results.ours ?? missing;
  const peer = results.peer ?? missing;
  const playwright = results.playwright ?? missing;
  const load = `load ${ours.load.toFixed(1)}`;
  record('take_snapshot (~6,000 AX nodes, changed) time', 'ms', ours.ms, peer.ms, '≤ 0.5×', load);
  record('… time vs Playwright MCP', 'ms', ours.ms, playwright.ms, '≤ 1.0×', load);
  record('take_snapshot (~6,000 AX nodes) size', 'chars', ours.chars, peer.chars, '≤ 0.7×');
  record('… size vs Playwright MCP', 'chars', ours.chars, playwright.chars, 'report');
  // One server at a time: a few-millisecond answer would otherwise measure the other server's
  // snapshot still winding down on the shared cores.
  const unchanged = {url: fixtures.url('/big.html'), change: undefined, rounds: 11};
  const unchangedPeer = await snapshotTimes(['peer'], unchanged);
  const unchangedOurs = await snapshotTimes(['ours'], unchanged);
  record(
    'take_snapshot, page unchanged',
    'ms',
    unchangedOurs.ours?.ms ?? Number.NaN,
    unchangedPeer.peer?.ms ?? Number.NaN,
    '≤ 0.02×',
  );
});

await section('take_snapshot, 2,000-row table', async () => {
  const url = fixtures.url('/big-table.html');
  const rows = await snapshotTimes(['peer', 'playwright', 'ours'], {
    url,
    change: ROW_CHANGE,
    rounds: 5,
  });
  const missing = {ms: Number.NaN, chars: Number.NaN, load: Number.NaN};
  const ours = rows.ours ?? missing;
  const load = `load ${ours.load.toFixed(1)}`;
  record(
    'take_snapshot (2,000-row table, one row changed)',
    'ms',
    ours.ms,
    (rows.peer ?? missing).ms,
    '≤ 0.25×',
    load,
  );
  record('… vs Playwright MCP', 'ms', ours.ms, (rows.playwright ?? missing).ms, 'report', load);
  record('… size', 'chars', ours.chars, (rows.peer ?? missing).chars, 'report');
  const first = await firstSnapshotTimes(['peer', 'playwright', 'ours'], url, 3);
  record(
    'take_snapshot (2,000-row table, first)',
    'ms',
    first.ours ?? Number.NaN,
    first.peer ?? Number.NaN,
    '≤ today',
    `Playwright MCP ${(first.playwright ?? Number.NaN).toFixed(0)} ms; load ${os.loadavg()[0]?.toFixed(1) ?? '?'}`,
  );
  const memory = await keptTreeMemory(fixtures, '/big-table.html', 20);
  record(
    'server RSS, 20 tabs of the 2,000-row table',
    'MB',
    memory.after,
    memory.before,
    'bounded',
    'peer column: the same server with one blank tab',
  );
});

await section('fill 20 characters', async () => {
  const value = 'abcdefghij0123456789';
  const result = await bothInterleaved(
    async server => {
      const pageId = await openPage(server, fixtures.url('/bench/a.html'));
      const snapshot = (await callTool(server.client, 'take_snapshot', {pageId})).text;
      return {pageId, field: uidOf(snapshot, 'textbox "Field"')};
    },
    // A different value each round, so every call types all 20 characters.
    (server, {pageId, field}, round) =>
      timedCall(server, 'fill', {
        pageId,
        uid: field,
        value: `${value.slice(round % 20)}${value.slice(0, round % 20)}`,
      }),
  );
  recordPaired('fill (20 characters, typed)', 'ms', result, '≤ 0.5×');
});

await section('tool definitions', async () => {
  const lists: Partial<Record<ServerKind, {name: string}[]>> = {};
  for (const kind of ['ours', 'peer'] as const) {
    const server = await startServer(kind);
    try {
      lists[kind] = (await server.client.listTools()).tools;
    } finally {
      await server.close();
    }
  }
  const peerNames = new Set((lists.peer ?? []).map(tool => tool.name));
  const oursNames = new Set((lists.ours ?? []).map(tool => tool.name));
  const common = (list: {name: string}[] | undefined): {name: string}[] =>
    (list ?? []).filter(tool => peerNames.has(tool.name) && oursNames.has(tool.name));
  const oursSize = JSON.stringify(common(lists.ours)).length;
  const peerSize = JSON.stringify(common(lists.peer)).length;
  record(
    `tools/list JSON (${common(lists.ours).length} common tools)`,
    'chars',
    oursSize,
    peerSize,
    '≤ 0.8×',
  );
});

await section('list_pages over HTTP', async () => {
  const ready = await startHttpServer(ROOT, CHROMIUM);
  try {
    const client = new Client({name: 'bench-http', version: '1'});
    await client.connect(
      new StreamableHTTPClientTransport(new URL(ready.mcpUrl), {
        requestInit: {headers: {Authorization: `Bearer ${ready.token}`}},
      }),
    );
    await client.callTool({name: 'list_pages', arguments: {}});
    const sdkTimes: number[] = [];
    for (let i = 0; i < 500; i++) {
      sdkTimes.push((await timed(() => client.callTool({name: 'list_pages', arguments: {}}))).ms);
    }
    record('list_pages over HTTP (SDK client)', 'ms', median(sdkTimes), null, '≤ 1 ms');
    // The server's own share, without the SDK client's fetch/SSE parsing: a keep-alive raw request.
    const raw = await RawHttpClient.connect(ready.mcpUrl, ready.token);
    // Steady state: the first few hundred calls warm the JIT on both ends.
    for (let i = 0; i < 500; i++) {
      await raw.callTool('list_pages', {});
    }
    const rawTimes: number[] = [];
    for (let i = 0; i < 1000; i++) {
      rawTimes.push((await timed(() => raw.callTool('list_pages', {}))).ms);
    }
    record('list_pages over HTTP (keep-alive raw client)', 'ms', median(rawTimes), null, '≤ 1 ms');
    raw.close();
    await client.close();
  } finally {
    await ready.stop();
  }
});

// --- The inspector's first rows ------------------------------------------------------------------

await section('inspector first rows', async () => {
  const load = await measureInspectorLoad(path.join(ROOT, 'out/node/cli/index.js'), 9);
  record('inspector: first paint after load start (cold)', 'ms', load.firstPaint, null, '—');
  record(
    'inspector: first log rows after load start (cold)',
    'ms',
    load.firstRows,
    null,
    '≤ 300 ms',
  );
});

// --- Input actions -------------------------------------------------------------------------------

/**
 * One action on /bench/<page>, timed on both servers in turn (interleaved, the order flipped each
 * round). `snapshotEach` takes a snapshot before every call (not timed).
 */
function actionBench(
  tool: string,
  args: (uidOfLine: (fragment: string) => string) => Record<string, unknown>,
  page = '/bench/a.html',
  snapshotEach = false,
): Promise<Interleaved> {
  return bothInterleaved(
    async server => {
      const pageId = await openPage(server, fixtures.url(page));
      const snapshot = (await callTool(server.client, 'take_snapshot', {pageId})).text;
      return {pageId, snapshot};
    },
    async (server, state) => {
      const current = snapshotEach
        ? (await callTool(server.client, 'take_snapshot', {pageId: state.pageId})).text
        : state.snapshot;
      return timedCall(server, tool, {pageId: state.pageId, ...args(f => uidOf(current, f))});
    },
  );
}

await section('input actions that change nothing', async () => {
  const click = await actionBench('click', uid => ({uid: uid('button "Noop"')}));
  recordPaired('click (no change)', 'ms', click, '≤ 0.25×');
  // Each click sets the title and a status line after the button: nothing that moves it.
  const titled = await actionBench(
    'click',
    uid => ({uid: uid('button "Count"')}),
    '/bench/title.html',
  );
  recordPaired('click (page sets its title)', 'ms', titled, '≤ 0.25×');
  const looked = await actionBench(
    'click',
    uid => ({uid: uid('button "Count"')}),
    '/bench/title.html',
    true,
  );
  recordPaired('click after a snapshot (sets its title)', 'ms', looked, '≤ 0.25×');
  const fill = await actionBench('fill', uid => ({uid: uid('textbox "Field"'), value: 'hello'}));
  recordPaired('fill (no DOM change)', 'ms', fill, '≤ 0.5×');
  const hover = await actionBench('hover', uid => ({uid: uid('heading "Page A"')}));
  recordPaired('hover (no change)', 'ms', hover, '≤ 0.5×');
  const press = await actionBench('press_key', () => ({key: 'Shift'}));
  recordPaired('press_key (no change)', 'ms', press, '≤ 0.5×');
});

await section('click that navigates', async () => {
  const result = await bothInterleaved(
    server => openPage(server, fixtures.url('/bench/a.html')),
    async (server, pageId) => {
      // The link's uid from a fresh snapshot (untimed): the page changed with the last click.
      const snapshot = (await callTool(server.client, 'take_snapshot', {pageId})).text;
      return timedCall(server, 'click', {pageId, uid: uidOf(snapshot, 'link "to ')});
    },
  );
  recordPaired('click (navigates)', 'ms', result, '≤ 1×');
});

/**
 * Polls a tool until its full answer stops changing: the page has finished its requests or logging,
 * so the timed calls measure the server, not a page that is still busy.
 */
async function waitUntilStable(server: Server, tool: string, pageId: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  let previous = '';
  let stableRounds = 0;
  while (stableRounds < 3 && Date.now() < deadline) {
    const {text} = await callTool(server.client, tool, {pageId});
    // 1,000 entries (plus whatever the browser adds, e.g. a favicon 404), unchanged for 3 rounds.
    const total = Number(/ of (\d+) \(Page/.exec(text)?.[1] ?? 0);
    stableRounds = text === previous && total >= 1000 ? stableRounds + 1 : 0;
    previous = text;
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

function listBench(pagePath: string, tool: string): Promise<Interleaved> {
  return bothInterleaved(
    async server => {
      const pageId = await openPage(server, fixtures.url(pagePath));
      await waitUntilStable(server, tool, pageId);
      // Steady state for both servers: the first calls also pay for JIT warm-up.
      for (let i = 0; i < RUNS * 2; i++) {
        await callTool(server.client, tool, {pageId});
      }
      return pageId;
    },
    (server, pageId) => timedCall(server, tool, {pageId}),
    RUNS * 4,
  );
}

await section('lists with 1,000 entries', async () => {
  const network = await listBench('/bench/requests.html', 'list_network_requests');
  recordPaired('list_network_requests (1,000)', 'ms', network, '≤ 0.5×');
  const consoleList = await listBench('/bench/console.html', 'list_console_messages');
  recordPaired('list_console_messages (1,000)', 'ms', consoleList, '≤ 0.5×');
});

// --- Recording and replay ------------------------------------------------------------------------

await section('recording', async () => {
  // Ours twice: `--no-record` in the peer column, recording (the default) in ours; calls
  // interleaved (order flipped each round) so machine noise hits both alike.
  const servers = [await startServer('ours', ['--no-record']), await startServer('ours')];
  try {
    const ids: number[] = [];
    for (const server of servers) {
      ids.push(await openPage(server, fixtures.url('/bench/a.html')));
    }
    const times: number[][] = [[], []];
    for (let i = 0; i < RUNS * 4; i++) {
      for (const which of i % 2 ? [1, 0] : [0, 1]) {
        const server = servers[which];
        const pageId = ids[which];
        if (server && pageId !== undefined) {
          const {ms} = await timed(() =>
            callTool(server.client, 'evaluate_script', {pageId, function: '() => document.title'}),
          );
          times[which]?.push(ms);
        }
      }
    }
    record(
      'evaluate_script, recording vs --no-record',
      'ms',
      median(times[1] ?? []),
      median(times[0] ?? []),
      '≤ +0.5 ms',
      'peer column: the same server with --no-record',
    );
  } finally {
    for (const server of servers) {
      await server.close();
    }
  }
});

await section('replay overhead', async () => {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-replay-'));
  try {
    const overhead = await measureReplayOverhead(fixtures, configDir);
    record(
      `replay wall / recorded (${overhead.calls} calls, ${overhead.same} same)`,
      '×',
      overhead.ratio,
      null,
      '≤ 1.2×',
      `replay ${overhead.replayMs.toFixed(0)} ms vs recorded ${overhead.recordedMs.toFixed(0)} ms`,
    );
    record(
      'replay per call, median of wall / recorded',
      '×',
      overhead.medianCallRatio,
      null,
      '≤ 1.2×',
    );
  } finally {
    fs.rmSync(configDir, {recursive: true, force: true});
  }
});

// --- Whole tasks -----------------------------------------------------------------------------------

await section('whole tasks on the library corpus', async () => {
  // Scripted-agent tasks (snapshot, act, check) on pages built from npm component libraries and the
  // action mechanism pages, each task on each server in turn, order flipped every round.
  buildLibraryFixtures();
  const summary = await runWholeTasks({
    fixtures,
    rounds: Number(process.env.BENCH_TASK_ROUNDS ?? '3'),
    diffs: true,
    log: line => console.log(`  ${line}`),
  });
  const {totals, medianRatios, load, rounds, tasks} = summary;
  const note = `${tasks} tasks × ${rounds} rounds; passed ours ${totals.ours?.passed}, peer ${totals.peer?.passed}; median of per-task ratios ${medianRatios.ms.toFixed(2)}× time, ${medianRatios.chars.toFixed(2)}× chars; load ${load.start} → ${load.end}`;
  const ours = totals.ours;
  const peer = totals.peer;
  const diffs = totals.oursDiffs;
  if (ours && peer && diffs) {
    record('whole tasks: wall time (sum of medians)', 'ms', ours.ms, peer.ms, '≤ 0.5×', note);
    record('whole tasks: characters read', 'chars', ours.chars, peer.chars, '≤ 0.6×');
    record('whole tasks, --snapshotDiffs: characters', 'chars', diffs.chars, peer.chars, '≤ 0.3×');
  }
});

// --- Several agents on one server ----------------------------------------------------------------

await section('agents: 50 clients on one server', async () => {
  const clients = Number(process.env.BENCH_AGENTS ?? '50');
  // Lean clients time the server as agents in their own processes see it (the target); the SDK's
  // clients, all in this process, add their own CPU and queueing (shown for reference).
  for (const client of ['lean', 'sdk'] as const) {
    const label = client === 'lean' ? 'agents' : 'agents (SDK clients, one process)';
    const server = await startHttpServer(ROOT, CHROMIUM, ['--maxSessions', String(clients + 10)]);
    try {
      const result = await runAgentsLoad({
        mcpUrl: server.mcpUrl,
        token: server.token,
        pageUrl: fixtures.url('/bench/a.html'),
        clients,
        serverPid: server.pid,
        client,
      });
      const load = `load average ${result.loadAverage.join(' ')} on ${os.cpus().length} cores`;
      console.log(JSON.stringify({client, ...result}, null, 2));
      record(`${label}: errors of ${result.calls} calls`, 'calls', result.errors, null, '0', load);
      record(`${label}: hung calls`, 'calls', result.hangs, null, '0');
      record(`${label}: pages left open`, 'pages', result.pagesLeft, null, '0');
      const target = client === 'lean' ? '< 250' : '—';
      record(`${label}: list_pages p95`, 'ms', result.listPagesMs.p95, null, target, load);
      record(`${label}: list_pages p50`, 'ms', result.listPagesMs.p50, null, '—');
      if (result.rssMb) {
        record(
          `${label}: server RSS growth after the clients left`,
          'MB',
          result.rssMb.growth,
          null,
          '< 100',
          `baseline ${result.rssMb.baseline} MB, peak ${result.rssMb.peak} MB`,
        );
      }
    } finally {
      await server.stop();
    }
  }
});

await fixtures.stop();
const out = path.join(ROOT, 'bench/results/latest.json');
fs.mkdirSync(path.dirname(out), {recursive: true});
// A filtered run updates its own rows and keeps the others from the last full run.
const previousRows = ((): Row[] => {
  if (!filter || !fs.existsSync(out)) {
    return [];
  }
  const previous = JSON.parse(fs.readFileSync(out, 'utf8')) as {rows?: Row[]};
  return (previous.rows ?? []).filter(row => !rows.some(fresh => fresh.metric === row.metric));
})();
fs.writeFileSync(
  out,
  `${JSON.stringify({date: new Date().toISOString(), node: process.version, rows: [...previousRows, ...rows]}, null, 2)}\n`,
);
console.log(`\nWrote ${path.relative(ROOT, out)}`);
