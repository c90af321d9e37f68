/**
 * `npx tsx bench/actions-ab.ts <other build's out/node/cli/index.js> [rounds]`: input actions on a
 * quiet page against two builds of this server at once (another commit's and this checkout's),
 * their calls interleaved one by one so that the load of a shared machine falls on both alike.
 * Prints the median of each build per action, their ratio (this checkout / the other), and the
 * median of the ratios of the calls made back to back (less sensitive to load that comes and goes).
 *
 * Build the other commit with `git archive <commit> | tar -x -C DIR`, a `node_modules` link and
 * `node scripts/build-node.mjs` in DIR.
 */
import {FixtureServer} from '../test/helpers/fixtureServer.js';
import {callTool, median, selectedPageId, startServer, timed, uidOf, type Server} from './lib.js';

const otherBin = process.argv[2];
if (otherBin === undefined) {
  throw new Error('Usage: npx tsx bench/actions-ab.ts <other out/node/cli/index.js> [rounds]');
}
const ROUNDS = Number(process.argv[3] ?? '40');

const fixtures = await new FixtureServer().start();
const url = fixtures.html(
  '/bench/quiet.html',
  '<!doctype html><title>Quiet</title><h1>Quiet page</h1><button onclick="window.n=(window.n||0)+1">Noop</button><input aria-label="Field"><p>Hover me</p>',
);

interface Side {
  server: Server;
  page: number;
  snapshot: string;
  times: Record<string, number[]>;
}

async function open(server: Server): Promise<Side> {
  const page = selectedPageId((await callTool(server.client, 'new_page', {url})).text);
  const snapshot = (await callTool(server.client, 'take_snapshot', {pageId: page})).text;
  return {server, page, snapshot, times: {}};
}

const ACTIONS: {name: string; tool: string; args: (snapshot: string) => Record<string, unknown>}[] =
  [
    {name: 'click (no change)', tool: 'click', args: s => ({uid: uidOf(s, 'button "Noop"')})},
    {name: 'hover (no change)', tool: 'hover', args: s => ({uid: uidOf(s, 'heading "Quiet')})},
    {
      name: 'fill (no DOM change)',
      tool: 'fill',
      args: s => ({uid: uidOf(s, 'textbox "Field"'), value: 'hello'}),
    },
  ];

const sides = [
  await open(await startServer('ours', [], otherBin)),
  await open(await startServer('ours')),
];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const action of ACTIONS) {
      // Alternate which build goes first, so neither always runs right after the other.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const {ms, value} = await timed(() =>
          callTool(side.server.client, action.tool, {
            pageId: side.page,
            ...action.args(side.snapshot),
          }),
        );
        if (value.isError) {
          throw new Error(`${action.tool}: ${value.text}`);
        }
        // The first rounds warm both up (JIT, lazy features).
        if (round >= 3) {
          (side.times[action.name] ??= []).push(ms);
        }
      }
    }
  }
} finally {
  for (const side of sides) {
    await side.server.close();
  }
  await fixtures.stop();
}
const [other, ours] = sides;
for (const action of ACTIONS) {
  const before = median(other?.times[action.name] ?? []);
  const afterTimes = ours?.times[action.name] ?? [];
  const after = median(afterTimes);
  const beforeTimes = other?.times[action.name] ?? [];
  const paired = median(afterTimes.map((ms, index) => ms / (beforeTimes[index] ?? Number.NaN)));
  console.log(
    `${action.name.padEnd(24)} other ${before.toFixed(2).padStart(7)} ms  this ${after.toFixed(2).padStart(7)} ms  ratio ${(after / before).toFixed(3)}  paired ${paired.toFixed(3)}`,
  );
}
