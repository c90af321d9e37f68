/**
 * Interleaved measurement: each step runs on each server in turn, the order flipped every round,
 * so a busy moment of the shared machine hits every server alike. Results are medians per server
 * and paired ratios (ours / peer within one round, then their median and spread), with the load
 * average over the measurement.
 */
import os from 'node:os';
import {median, startServer, type Server, type ServerKind} from './lib.js';

export interface Interleaved {
  kinds: readonly ServerKind[];
  /** Milliseconds per round, by server. */
  times: Partial<Record<ServerKind, number[]>>;
  /** One-minute load average when the rounds started and when they ended. */
  load: {start: number; end: number};
}

/** The order of round `round`: as given on even rounds, reversed on odd ones. */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...items] : [...items].reverse();
}

/**
 * Runs `step` (which returns the milliseconds it measured) for every server in every round.
 * `warmup` leading rounds run the same way but are not kept.
 */
export async function interleave(
  kinds: readonly ServerKind[],
  rounds: number,
  step: (kind: ServerKind, round: number) => Promise<number>,
  warmup = 0,
): Promise<Interleaved> {
  const times: Partial<Record<ServerKind, number[]>> = {};
  for (let round = 0; round < warmup; round++) {
    for (const kind of roundOrder(kinds, round)) {
      await step(kind, round - warmup);
    }
  }
  const start = os.loadavg()[0] ?? Number.NaN;
  for (let round = 0; round < rounds; round++) {
    for (const kind of roundOrder(kinds, round)) {
      const ms = await step(kind, round);
      (times[kind] ??= []).push(ms);
    }
  }
  return {kinds, times, load: {start, end: os.loadavg()[0] ?? Number.NaN}};
}

/**
 * Starts one server of each kind (one after the other), prepares each with `setup`, then runs
 * `step` interleaved. Every server is closed at the end, also on failure.
 */
export async function interleaveServers<S>(
  kinds: readonly ServerKind[],
  rounds: number,
  setup: (server: Server) => Promise<S>,
  step: (server: Server, state: S, round: number) => Promise<number>,
  warmup = 0,
): Promise<Interleaved> {
  const started: Server[] = [];
  const prepared = new Map<ServerKind, {server: Server; state: S}>();
  try {
    for (const kind of kinds) {
      const server = await startServer(kind);
      started.push(server);
      prepared.set(kind, {server, state: await setup(server)});
    }
    return await interleave(
      kinds,
      rounds,
      async (kind, round) => {
        const entry = prepared.get(kind);
        if (!entry) {
          throw new Error(`No ${kind} server`);
        }
        return step(entry.server, entry.state, round);
      },
      warmup,
    );
  } finally {
    for (const server of started) {
      await server.close();
    }
  }
}

export interface PairedSummary {
  ours: number;
  other: number;
  /** Median over rounds of ours / other in the same round. */
  ratio: number;
  /** Quartiles and range of the per-round ratios. */
  q1: number;
  q3: number;
  min: number;
  max: number;
  rounds: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? Number.NaN;
  return lowValue + (highValue - lowValue) * (at - low);
}

/** Medians of `ours` and `other`, and the spread of their paired (same-round) ratios. */
export function paired(
  result: Interleaved,
  other: ServerKind = 'peer',
  ours: ServerKind = 'ours',
): PairedSummary {
  const mine = result.times[ours] ?? [];
  const theirs = result.times[other] ?? [];
  const ratios = mine
    .map((ms, round) => ms / (theirs[round] ?? Number.NaN))
    .filter(ratio => Number.isFinite(ratio))
    .sort((a, b) => a - b);
  return {
    ours: median(mine),
    other: median(theirs),
    ratio: median(ratios),
    q1: quantile(ratios, 0.25),
    q3: quantile(ratios, 0.75),
    min: ratios[0] ?? Number.NaN,
    max: ratios.at(-1) ?? Number.NaN,
    rounds: ratios.length,
  };
}

/** "paired ratio 0.42 (IQR 0.38–0.47, range 0.30–0.61, 15 rounds), load 21.3→23.0". */
export function describePaired(summary: PairedSummary, result: Interleaved): string {
  const f = (value: number): string => value.toFixed(2);
  return `paired ratio ${f(summary.ratio)} (IQR ${f(summary.q1)}–${f(summary.q3)}, range ${f(summary.min)}–${f(summary.max)}, ${summary.rounds} rounds), load ${result.load.start.toFixed(1)}→${result.load.end.toFixed(1)}`;
}
