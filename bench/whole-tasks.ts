/**
 * `npx tsx bench/whole-tasks.ts [--rounds=N] [--only=TEXT] [--diffs]`: whole scripted-agent tasks
 * on the fixture corpus (pages built from npm component libraries, and the action mechanism pages),
 * timed on this server and chrome-devtools-mcp interleaved (every task on each server in turn, the
 * order flipped every round). Prints per task the passes, the median wall time (without the
 * harness's readiness polls and state checks) and characters read, and ours / peer; the medians
 * of those ratios over the tasks; the load average. `--diffs` adds this server with
 * --snapshotDiffs. Writes bench/results/whole-tasks.json (a filtered run: whole-tasks.local.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import {FixtureServer} from '../test/helpers/fixtureServer.js';
import {ROOT} from './lib.js';
import {buildLibraryFixtures, runWholeTasks} from './wholeTasks.js';

const argument = (name: string): string | undefined =>
  process.argv.find(arg => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const rounds = Number(argument('rounds') ?? '5');
const only = argument('only');

buildLibraryFixtures();
const fixtures = await new FixtureServer().start();
try {
  const summary = await runWholeTasks({
    fixtures,
    rounds,
    ...(only === undefined ? {} : {only}),
    diffs: process.argv.includes('--diffs'),
    log: line => console.log(line),
  });
  const {totals, medianRatios: ratios, load} = summary;
  const attempts = summary.tasks * rounds;
  console.log(
    `\n${summary.tasks} tasks × ${rounds} rounds, load ${load.start} → ${load.end}. Finished: ours ${totals.ours?.passed}/${attempts}, peer ${totals.peer?.passed}/${attempts}${totals.oursDiffs ? `, ours with --snapshotDiffs ${totals.oursDiffs.passed}/${attempts}` : ''}.`,
  );
  console.log(
    `Median over tasks of ours / peer: wall time ${ratios.ms.toFixed(2)}× (target ≤ 0.5×), characters ${ratios.chars.toFixed(2)}× (target ≤ 0.6×)${ratios.diffsChars === undefined ? '' : `; with --snapshotDiffs ${ratios.diffsMs?.toFixed(2)}× time, ${ratios.diffsChars.toFixed(2)}× characters (target ≤ 0.3×)`}.`,
  );
  const out = path.join(
    ROOT,
    `bench/results/${only === undefined ? 'whole-tasks.json' : 'whole-tasks.local.json'}`,
  );
  fs.writeFileSync(
    out,
    `${JSON.stringify({date: new Date().toISOString(), ...summary}, null, 2)}\n`,
  );
} finally {
  await fixtures.stop();
}
