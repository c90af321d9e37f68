/**
 * What a big result leaves behind in the server: each server (this one and chrome-devtools-mcp)
 * runs as its own process over stdio, an evaluate_script returns a RESULT_MB string (default 50),
 * and the server's RSS is sampled before the call, during it (the peak) and after it, with the
 * server idle (no forced GC: what stays is what an agent's machine keeps until the next major GC).
 * Rounds alternate the servers.
 *
 *   npx tsx bench/bigResultMemory.ts [rounds]      # needs `npm run build`
 *
 * Prints one JSON line per round and the medians.
 */
import fs from 'node:fs';
import os from 'node:os';
import {toolResult} from './leanHttpClient.js';
import {median, selectedPageId, startServer, type Server, type ServerKind} from './lib.js';

const MB = 1024 * 1024;
const RESULT_MB = Number(process.env.RESULT_MB ?? 50);
/** How long the server stays idle after the answer before its RSS is read. */
const IDLE_MS = Number(process.env.IDLE_MS ?? 3_000);

function rssMb(pid: number | undefined): number {
  if (pid === undefined) {
    return Number.NaN;
  }
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

interface Round {
  kind: ServerKind;
  beforeMB: number;
  peakMB: number;
  idleMB: number;
  heldMB: number;
  resultMB: number;
}

async function idle(ms: number): Promise<void> {
  await new Promise(resolve => setTimeout(resolve, ms));
}

async function measure(server: Server): Promise<Round> {
  const {client} = server;
  const pid = client.pid;
  // Settle what the page load allocated, then take the baseline.
  const listed = await client.callTool({name: 'list_pages', arguments: {}});
  const listing = listed.content
    .flatMap(item => (item.type === 'text' ? [item.text] : []))
    .join('\n');
  // This server stops a script after 30 s unless told otherwise; a loaded machine needs longer.
  const pageArgs = {
    pageId: selectedPageId(listing),
    ...(server.kind === 'ours' ? {timeout: 40_000} : {}),
  };
  await idle(IDLE_MS);
  const beforeMB = rssMb(pid);
  let peakMB = beforeMB;
  const sampler = setInterval(() => {
    peakMB = Math.max(peakMB, rssMb(pid));
  }, 50);
  const reply = await client.request(
    'tools/call',
    {
      name: 'evaluate_script',
      arguments: {...pageArgs, function: `() => "x".repeat(${RESULT_MB} * ${MB})`},
    },
    600_000,
  );
  const result = toolResult(reply.result);
  const resultChars = result.content.reduce(
    (sum, item) => sum + (item.type === 'text' ? item.text.length : 0),
    0,
  );
  if (resultChars < RESULT_MB * MB) {
    clearInterval(sampler);
    throw new Error(
      `${server.kind}: the result is not ${RESULT_MB} MB: ${JSON.stringify(result).slice(0, 400)}`,
    );
  }
  await idle(IDLE_MS);
  clearInterval(sampler);
  const idleMB = rssMb(pid);
  return {
    kind: server.kind,
    beforeMB: Math.round(beforeMB),
    peakMB: Math.round(peakMB),
    idleMB: Math.round(idleMB),
    heldMB: Math.round(idleMB - beforeMB),
    resultMB: Math.round(resultChars / MB),
  };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const kinds: ServerKind[] = (process.env.KINDS ?? 'ours,peer').split(',') as ServerKind[];
  const results: Round[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      const server = await startServer(kind);
      try {
        const measured = await measure(server);
        results.push(measured);
        console.log(JSON.stringify({...measured, load: os.loadavg()[0]}));
      } finally {
        await server.close();
      }
    }
  }
  for (const kind of kinds) {
    const mine = results.filter(result => result.kind === kind);
    console.log(
      JSON.stringify({
        kind,
        resultMB: RESULT_MB,
        medianHeldMB: median(mine.map(result => result.heldMB)),
        medianPeakGrowthMB: median(mine.map(result => result.peakMB - result.beforeMB)),
        load: os.loadavg()[0],
      }),
    );
  }
}

await main();
