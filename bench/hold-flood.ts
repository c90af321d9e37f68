/**
 * A flood of held calls: one agent (its own process: hold-flood-agent.ts) sends N calls with 4 KB
 * of arguments each, all held by a rule,
 * while an inspector WebSocket is subscribed (it acknowledges every batch, as the UI does) and
 * another agent calls list_pages in a loop. Reports the recording's growth while held and after
 * Allow all, the server's RSS growth, the other agent's worst and median list_pages latency, and
 * how many of the flood's calls were refused (the per-client cap).
 *
 *   npx tsx bench/hold-flood.ts [--calls 150] [--argBytes 4096] [--ui]
 *
 * With --ui the inspector UI itself is open (headless Chromium) on its Hold tab, as a person
 * watching would have it, instead of a bare WebSocket subscriber. The build must be current.
 *
 * Writes bench/results/hold-flood.json. The machine is shared: numbers are indicative.
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {CallToolResultSchema} from '@modelcontextprotocol/sdk/types.js';
import {WebSocket} from 'ws';
import {median, ROOT, selectedPageId} from './lib.js';
import {launchUiBrowser, openProbedInspector, startInProcessEngine} from './inProcessEngine.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const CALLS = option('calls', 150);
const ARG_BYTES = option('argBytes', 4096);
const WITH_UI = args.includes('--ui');

function folderBytes(dir: string): number {
  if (!fs.existsSync(dir)) {
    return 0;
  }
  let total = 0;
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}

async function connect(mcpUrl: string, token: string, name: string): Promise<Client> {
  const client = new Client({name, version: '1.0.0'});
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: {headers: {Authorization: `Bearer ${token}`}},
    }),
  );
  return client;
}

/** An inspector UI's event stream: subscribes from the start and acknowledges every batch. */
async function subscribeInspector(mcpUrl: string, token: string): Promise<WebSocket> {
  const origin = new URL(mcpUrl).origin;
  const socket = new WebSocket(
    `${origin.replace('http', 'ws')}/inspector`,
    ['mcp-browser-inspector.v1', `bearer.${token}`],
    {headers: {Origin: origin}},
  );
  await new Promise(resolve => socket.once('open', resolve));
  socket.on('message', data => {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : '';
    if (text.includes('"kind":"batch"')) {
      socket.send(JSON.stringify({kind: 'batchAck', id: 1}));
    }
  });
  socket.send(JSON.stringify({kind: 'subscribe', id: 1, fromSeq: 0}));
  return socket;
}

/** Calls list_pages until `done` says stop; the latency of each. */
async function probeLatency(client: Client, done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!done()) {
    const start = performance.now();
    await client.callTool({name: 'list_pages', arguments: {}});
    latencies.push(performance.now() - start);
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return latencies;
}

const MB = 1024 * 1024;
const round = (value: number): number => Math.round(value * 10) / 10;

async function main(): Promise<void> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-flood-'));
  const {engine, http} = await startInProcessEngine(configDir);
  const token = engine.token.token;
  const recordingsDir = path.join(configDir, 'sessions');
  try {
    const other = await connect(http.mcpUrl, token, 'other');
    const socket = WITH_UI ? undefined : await subscribeInspector(http.mcpUrl, token);
    const browser = WITH_UI ? await launchUiBrowser() : undefined;
    if (browser) {
      const ui = await openProbedInspector(browser, http.inspectorUrl, token);
      await ui.evaluate(() => {
        const tab = [...document.querySelectorAll<HTMLElement>('[role=tab]')].find(element =>
          element.textContent.startsWith('Hold'),
        );
        tab?.click();
      });
    }
    const listed = CallToolResultSchema.parse(
      await other.callTool({name: 'list_pages', arguments: {}}),
    );
    const pageId = selectedPageId(
      listed.content.map(item => (item.type === 'text' ? item.text : '')).join('\n'),
    );
    engine.hold.setRules(['tool:evaluate_script']);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const bytesBefore = folderBytes(recordingsDir);

    const run: {phase: 'flood' | 'release' | 'done'} = {phase: 'flood'};
    const latencies = {flood: [] as number[], release: [] as number[]};
    const probing = (async () => {
      for (let current = run.phase; current !== 'done'; current = run.phase) {
        const batch = await probeLatency(other, () => run.phase !== current);
        latencies[current].push(...batch);
      }
    })();
    const outcomes: string[] = [];
    const agent = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'bench/hold-flood-agent.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          MCP_URL: http.mcpUrl,
          TOKEN: token,
          PAGE_ID: String(pageId),
          CALLS: String(CALLS),
          ARG_BYTES: String(ARG_BYTES),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    agent.stdout.setEncoding('utf8');
    agent.stdout.on('data', (chunk: string) =>
      outcomes.push(...chunk.split('\n').filter(line => line !== '')),
    );
    const agentExited = new Promise(resolve => agent.once('exit', resolve));
    // Every call is either held or already answered (refused by the cap).
    const deadline = Date.now() + 120_000;
    while (engine.hold.state().queue.length + outcomes.length < CALLS && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 100));
    }
    await new Promise(resolve => setTimeout(resolve, 1_000));
    const heldCount = engine.hold.state().queue.length;
    const bytesHeld = folderBytes(recordingsDir);
    const rssHeld = process.memoryUsage().rss;

    run.phase = 'release';
    engine.hold.allowAll();
    await agentExited;
    await new Promise(resolve => setTimeout(resolve, 1_500));
    run.phase = 'done';
    await probing;
    const bytesAfter = folderBytes(recordingsDir);
    const rssAfter = process.memoryUsage().rss;
    socket?.close();
    await browser?.close();
    await other.close();

    const summary = (values: number[]) => ({
      samples: values.length,
      medianMs: round(median(values)),
      maxMs: round(Math.max(0, ...values)),
    });
    const result = {
      ui: WITH_UI,
      calls: CALLS,
      argBytes: ARG_BYTES,
      held: heldCount,
      refused: outcomes.filter(outcome => outcome === 'refused').length,
      ran: outcomes.filter(outcome => outcome === 'ran').length,
      recordingGrowthMB: {
        whileHeld: round((bytesHeld - bytesBefore) / MB),
        afterAllowAll: round((bytesAfter - bytesBefore) / MB),
      },
      rssGrowthMB: {
        whileHeld: round((rssHeld - rssBefore) / MB),
        after: round((rssAfter - rssBefore) / MB),
      },
      otherClientListPages: {
        whileFlooding: summary(latencies.flood),
        whileReleasing: summary(latencies.release),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    const out = path.join(ROOT, 'bench/results/hold-flood.json');
    fs.mkdirSync(path.dirname(out), {recursive: true});
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await engine.stop();
    fs.rmSync(configDir, {recursive: true, force: true});
  }
}

await main();
