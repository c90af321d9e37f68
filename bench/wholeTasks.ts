/**
 * Whole scripted-agent tasks (snapshot, act, check) on the fixture corpus (the pages built from
 * npm component libraries and the action mechanism pages), timed on this server and
 * chrome-devtools-mcp interleaved: all servers are up at once and each round runs every task on
 * each server in turn, the order of the servers flipped every round, so load changes on a shared
 * machine fall on all alike. Used by bench/whole-tasks.ts and by `npm run bench -- whole tasks`.
 */
import os from 'node:os';
import path from 'node:path';
import {execFileSync} from 'node:child_process';
import type {FixtureServer} from '../test/helpers/fixtureServer.js';
import {LIBRARY_TASKS, MECHANISM_TASKS} from './corpusTasks.js';
import {median, ROOT, startServer, type Server} from './lib.js';
import {runTask, type Task, type TaskResult} from './taskAgent.js';

/** The runs: the peer, this server, and with `diffs` this server with --snapshotDiffs. */
export type Column = 'peer' | 'ours' | 'oursDiffs';

export interface WholeTaskRow {
  task: string;
  /** Per server: passes, median ms and median characters over the rounds, first failure. */
  cells: Partial<Record<Column, {passed: number; ms: number; chars: number; note: string}>>;
}

export interface WholeTaskSummary {
  rounds: number;
  tasks: number;
  /** `uptime`'s load averages when the run started and ended. */
  load: {start: string; end: string};
  rows: WholeTaskRow[];
  /** Per server: passes, the sum of the per-task median times and characters. */
  totals: Partial<Record<Column, {passed: number; ms: number; chars: number}>>;
  /** Medians over the tasks of the per-task ratios ours / peer. */
  medianRatios: {ms: number; chars: number; diffsMs?: number; diffsChars?: number};
}

export interface WholeTaskOptions {
  fixtures: FixtureServer;
  rounds: number;
  /** Keeps the tasks whose name contains this text. */
  only?: string;
  diffs?: boolean;
  /** Called with each task's line once all its rounds ran. */
  log?: (line: string) => void;
}

/** The corpus tasks: library pages first, then the action mechanism pages. */
export const CORPUS_TASKS: Task[] = [...LIBRARY_TASKS, ...MECHANISM_TASKS];

const loadAverage = (): string =>
  os
    .loadavg()
    .map(value => value.toFixed(2))
    .join(', ');

/** The library pages' bundles (cached; built as the tests build them). */
export function buildLibraryFixtures(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-library-fixtures.mjs')], {
    stdio: 'inherit',
  });
}

async function startColumns(columns: Column[]): Promise<Map<Column, Server>> {
  const servers = new Map<Column, Server>();
  for (const column of columns) {
    servers.set(
      column,
      await startServer(
        column === 'peer' ? 'peer' : 'ours',
        column === 'oursDiffs' ? ['--snapshotDiffs'] : [],
      ),
    );
  }
  return servers;
}

/** Every task, `rounds` times, on every server in turn (order flipped each round). */
export async function runWholeTasks(options: WholeTaskOptions): Promise<WholeTaskSummary> {
  const {fixtures, rounds, only, diffs = false, log = () => undefined} = options;
  const tasks = CORPUS_TASKS.filter(task => only === undefined || task.name.includes(only));
  const columns: Column[] = diffs ? ['peer', 'ours', 'oursDiffs'] : ['peer', 'ours'];
  const start = loadAverage();
  const servers = await startColumns(columns);
  const results = tasks.map(() => new Map<Column, TaskResult[]>(columns.map(c => [c, []])));
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? columns : [...columns].reverse();
      log(`round ${round + 1}/${rounds}, load ${loadAverage()}`);
      for (const [index, task] of tasks.entries()) {
        for (const column of order) {
          const server = servers.get(column);
          if (server !== undefined) {
            const result = await runTask(server, task, fixtures.url(task.path));
            results[index]?.get(column)?.push(result);
            const outcome = result.ok ? 'ok' : `FAILED: ${result.note || 'check'}`;
            log(
              `  r${round + 1} ${column} ${Math.round(result.ms)} ms ${result.chars} ch ${task.name} ${outcome}`,
            );
          }
        }
      }
    }
  } finally {
    await Promise.all([...servers.values()].map(server => server.close()));
  }
  const rows: WholeTaskRow[] = tasks.map((task, index) => {
    const cells: WholeTaskRow['cells'] = {};
    for (const column of columns) {
      const runs = results[index]?.get(column) ?? [];
      cells[column] = {
        passed: runs.filter(run => run.ok).length,
        ms: median(runs.map(run => run.ms)),
        chars: median(runs.map(run => run.chars)),
        note: firstFailure(runs),
      };
    }
    const row = {task: task.name, cells};
    log(rowLine(row, rounds));
    return row;
  });
  return {
    rounds,
    tasks: tasks.length,
    load: {start, end: loadAverage()},
    rows,
    totals: totalsOf(rows, columns),
    medianRatios: medianRatiosOf(rows),
  };
}

/** The note of the first failed run ('check failed' when it failed its check without an error). */
function firstFailure(runs: TaskResult[]): string {
  const failed = runs.find(run => !run.ok);
  return failed === undefined ? '' : failed.note === '' ? 'check failed' : failed.note;
}

function totalsOf(rows: WholeTaskRow[], columns: Column[]): WholeTaskSummary['totals'] {
  const totals: WholeTaskSummary['totals'] = {};
  for (const column of columns) {
    const cells = rows.flatMap(row => (row.cells[column] ? [row.cells[column]] : []));
    totals[column] = {
      passed: cells.reduce((sum, cell) => sum + cell.passed, 0),
      ms: cells.reduce((sum, cell) => sum + cell.ms, 0),
      chars: cells.reduce((sum, cell) => sum + cell.chars, 0),
    };
  }
  return totals;
}

function medianRatiosOf(rows: WholeTaskRow[]): WholeTaskSummary['medianRatios'] {
  const ratios = (column: Column, key: 'ms' | 'chars'): number =>
    median(
      rows.flatMap(row => {
        const ours = row.cells[column]?.[key];
        const peer = row.cells.peer?.[key];
        return ours === undefined || peer === undefined || peer === 0 ? [] : [ours / peer];
      }),
    );
  const withDiffs = rows.some(row => row.cells.oursDiffs !== undefined);
  return {
    ms: ratios('ours', 'ms'),
    chars: ratios('ours', 'chars'),
    ...(withDiffs
      ? {diffsMs: ratios('oursDiffs', 'ms'), diffsChars: ratios('oursDiffs', 'chars')}
      : {}),
  };
}

/** One task's line: passes, median ms and characters per server, and ours / peer. */
export function rowLine(row: WholeTaskRow, rounds: number): string {
  const cell = (column: Column): string => {
    const value = row.cells[column];
    if (value === undefined) {
      return '';
    }
    const note = value.note ? ` (${value.note.slice(0, 50)})` : '';
    return `${column} ${value.passed}/${rounds} ${Math.round(value.ms)} ms ${Math.round(value.chars)} ch${note}`;
  };
  const {peer, ours} = row.cells;
  const ratio =
    peer && ours
      ? ` | ${(ours.ms / peer.ms).toFixed(2)}× time ${(ours.chars / peer.chars).toFixed(2)}× chars`
      : '';
  return `${row.task.padEnd(58)} ${[cell('ours'), cell('oursDiffs'), cell('peer')].filter(Boolean).join(' | ')}${ratio}`;
}
