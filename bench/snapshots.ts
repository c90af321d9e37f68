/**
 * Snapshot timing beside chrome-devtools-mcp and Playwright MCP: every server gets the same page
 * and the same change, and the servers take their snapshots in turns, so a busy moment of the
 * shared machine hits them all alike. Also the memory the kept trees cost (this server only).
 */
import fs from 'node:fs';
import os from 'node:os';
import type {FixtureServer} from '../test/helpers/fixtureServer.js';
import {
  callTool,
  median,
  selectedPageId,
  startServer,
  timed,
  type Server,
  type ServerKind,
} from './lib.js';

/** A change to the 6,000-node page the snapshot must show: its heading. */
export const HEADING_CHANGE =
  '() => { document.querySelector("h1").textContent = "Big page " + Math.random(); return 1; }';

/** A one-row change to the 2,000-row table: a checkbox ticked (a click) and a button renamed. */
export const ROW_CHANGE =
  '() => { const rows = document.querySelectorAll("#rows tr"); const row = rows[Math.floor(Math.random() * rows.length)]; row.querySelector("input").click(); row.querySelector("button").textContent = "Opened " + Math.random(); return 1; }';

interface Subject {
  server: Server;
  pageId: number | undefined;
  snapshot: () => Promise<{text: string; isError: boolean}>;
  mutate: () => Promise<unknown>;
  close: () => Promise<unknown>;
}

async function openSubject(server: Server, url: string, change: string): Promise<Subject> {
  if (server.kind === 'playwright') {
    await callTool(server.client, 'browser_navigate', {url});
    return {
      server,
      pageId: undefined,
      snapshot: () => callTool(server.client, 'browser_snapshot', {}),
      mutate: () => callTool(server.client, 'browser_evaluate', {function: change}),
      close: () => callTool(server.client, 'browser_navigate', {url: 'about:blank'}),
    };
  }
  const {text} = await callTool(server.client, 'new_page', {url});
  const pageId = selectedPageId(text);
  return {
    server,
    pageId,
    snapshot: () => callTool(server.client, 'take_snapshot', {pageId}),
    mutate: () => callTool(server.client, 'evaluate_script', {pageId, function: change}),
    close: () => callTool(server.client, 'close_page', {pageId}),
  };
}

export interface SnapshotTimes {
  ms: number;
  chars: number;
  /** One-minute load average while the servers took their turns. */
  load: number;
}

/**
 * Medians of snapshots taken in turns on every server, each after `change` (or with the page
 * unchanged when it is undefined).
 */
export async function snapshotTimes(
  kinds: readonly ServerKind[],
  options: {url: string; change: string | undefined; rounds: number},
): Promise<Partial<Record<ServerKind, SnapshotTimes>>> {
  const servers: Server[] = [];
  try {
    const subjects: Subject[] = [];
    for (const kind of kinds) {
      const server = await startServer(kind);
      servers.push(server);
      subjects.push(await openSubject(server, options.url, options.change ?? '() => 0'));
    }
    for (const subject of subjects) {
      await subject.snapshot();
    }
    const times = new Map<Subject, number[]>(subjects.map(subject => [subject, []]));
    const chars = new Map<Subject, number>();
    const loads: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      for (const subject of subjects) {
        if (options.change !== undefined) {
          await subject.mutate();
        }
        const result = await timed(subject.snapshot);
        if (result.value.isError) {
          throw new Error(`${subject.server.kind}: ${result.value.text.slice(0, 200)}`);
        }
        times.get(subject)?.push(result.ms);
        chars.set(subject, result.value.text.length);
        loads.push(os.loadavg()[0] ?? 0);
      }
    }
    const out: Partial<Record<ServerKind, SnapshotTimes>> = {};
    for (const subject of subjects) {
      out[subject.server.kind] = {
        ms: median(times.get(subject) ?? []),
        chars: chars.get(subject) ?? Number.NaN,
        load: median(loads),
      };
    }
    return out;
  } finally {
    for (const server of servers) {
      await server.close();
    }
  }
}

/** Medians of the first snapshot of a freshly opened page, the servers in turns. */
export async function firstSnapshotTimes(
  kinds: readonly ServerKind[],
  url: string,
  runs: number,
): Promise<Partial<Record<ServerKind, number>>> {
  const samples = await firstSnapshotSamples(kinds, url, runs);
  const out: Partial<Record<ServerKind, number>> = {};
  for (const kind of kinds) {
    out[kind] = median(samples[kind] ?? []);
  }
  return out;
}

/**
 * Every first snapshot's time (ms), the servers in turns, each on a freshly opened page; a
 * snapshot that answers with an error throws (a fast error is no result).
 */
export async function firstSnapshotSamples(
  kinds: readonly ServerKind[],
  url: string,
  runs: number,
): Promise<Partial<Record<ServerKind, number[]>>> {
  const servers: Server[] = [];
  try {
    for (const kind of kinds) {
      servers.push(await startServer(kind));
    }
    const out: Partial<Record<ServerKind, number[]>> = {};
    for (let run = 0; run < runs; run++) {
      for (const server of servers) {
        let subject: Subject;
        try {
          subject = await openSubject(server, url, '() => 0');
        } catch (error) {
          // The page did not open (a navigation timeout on a saturated machine): no sample.
          console.error(`${server.kind}: run ${run} skipped: ${String(error).slice(0, 120)}`);
          continue;
        }
        // A read that outlasts one call goes on for the next: an agent calls again, as told.
        const result = await timed(async () => {
          let reply = await subject.snapshot();
          for (
            let again = 0;
            again < 3 && reply.isError && reply.text.includes('read goes on');
            again++
          ) {
            reply = await subject.snapshot();
          }
          return reply;
        });
        if (result.value.isError) {
          throw new Error(`${server.kind}: ${result.value.text.slice(0, 200)}`);
        }
        (out[server.kind] ??= []).push(result.ms);
        await subject.close();
      }
    }
    return out;
  } finally {
    for (const server of servers) {
      await server.close();
    }
  }
}

function rssMb(pid: number | undefined): number {
  if (pid === undefined) {
    return Number.NaN;
  }
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/**
 * This server's resident memory with `tabs` tabs of the page, each snapshotted, changed and
 * snapshotted again (so each has a kept tree), against the same server with one blank tab.
 */
export async function keptTreeMemory(
  fixtures: FixtureServer,
  path: string,
  tabs: number,
): Promise<{before: number; after: number}> {
  const server = await startServer('ours');
  try {
    await callTool(server.client, 'list_pages', {});
    const before = rssMb(server.client.pid);
    for (let tab = 0; tab < tabs; tab++) {
      const subject = await openSubject(server, fixtures.url(path), ROW_CHANGE);
      await subject.snapshot();
      await subject.mutate();
      await subject.snapshot();
    }
    // Settled memory, not a moment of garbage: the server is idle here.
    return {before, after: rssMb(server.client.pid)};
  } finally {
    await server.close();
  }
}
