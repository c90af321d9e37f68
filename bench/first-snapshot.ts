/**
 * The first snapshot of the 2,000-row table beside chrome-devtools-mcp (issue 38.2), the servers
 * in turns, and the memory kept trees cost with 20 tabs of it. `BENCH_OURS_BIN` measures another
 * build of this server (an older commit's, for before/after numbers).
 *
 *   npx tsx bench/first-snapshot.ts [runs]
 */
import os from 'node:os';
import {FixtureServer} from '../test/helpers/fixtureServer.js';
import {median} from './lib.js';
import {firstSnapshotSamples, keptTreeMemory} from './snapshots.js';

const runs = Number(process.argv[2] ?? 7);
const fixtures = await new FixtureServer().start();
try {
  const loadBefore = os.loadavg()[0] ?? Number.NaN;
  const samples = await firstSnapshotSamples(
    ['peer', 'ours'],
    fixtures.url('/big-table.html'),
    runs,
  );
  const loadAfter = os.loadavg()[0] ?? Number.NaN;
  const ours = median(samples.ours ?? []);
  const peer = median(samples.peer ?? []);
  const round = (list: number[] | undefined): string =>
    (list ?? []).map(ms => ms.toFixed(0)).join(', ');
  console.log(`ours ms: ${round(samples.ours)} (median ${ours.toFixed(0)})`);
  console.log(`peer ms: ${round(samples.peer)} (median ${peer.toFixed(0)})`);
  console.log(
    `ratio ${(ours / peer).toFixed(2)}; 1-min load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
  );
  const memory = await keptTreeMemory(fixtures, '/big-table.html', 20);
  console.log(
    `server RSS: ${memory.before.toFixed(0)} MB with one blank tab, ${memory.after.toFixed(0)} MB with 20 tabs of the table`,
  );
} finally {
  await fixtures.stop();
}
