/**
 * The incremental snapshot checked against a full read: seeded random changes are made in a page's
 * documents, as the page's own scripts would, and after each change set the snapshot from the kept
 * trees must equal, line for line, one read whole. Shared by the equivalence tests on our own
 * fixtures and on pages built from component libraries.
 */
import fs from 'node:fs';
import path from 'node:path';
import type {CDPSession} from 'puppeteer-core';
import {expect} from 'vitest';
import {frameTargetsFeature} from '../../src/core/browser/pages/frames.js';
import {readProbe} from '../../src/core/browser/snapshot/pageProbe.js';
import type {PageState} from '../../src/core/browser/pages/PageState.js';
import {takeSnapshot} from '../../src/core/browser/snapshot/snapshot.js';
import {waitFor} from './engine.js';

export type Where = 'main' | 'same' | 'cross';

export interface Subject {
  state: PageState;
  /** Runs `mutate(seed, count)` in one of the page's documents; returns what it did. */
  mutate(where: Where, seed: number, count: number): Promise<string>;
  /** Which documents to change, by step (the main one only on a page without frames). */
  places: readonly Where[];
}

/** The random change maker (also injected into library pages, which do not load it). */
export const MUTATE_SOURCE = fs.readFileSync(
  path.resolve(import.meta.dirname, '../fixtures/pages/incremental/mutate.js'),
  'utf8',
);

/** `timeoutMs` stops the script in the page when it runs longer. */
export async function evaluate(
  cdp: CDPSession,
  expression: string,
  timeoutMs?: number,
): Promise<string> {
  const reply = await cdp.send('Runtime.evaluate', {
    expression,
    returnByValue: true,
    awaitPromise: true,
    ...(timeoutMs === undefined ? {} : {timeout: timeoutMs}),
  });
  if (reply.exceptionDetails) {
    throw new Error(`${expression}: ${reply.exceptionDetails.exception?.description ?? ''}`);
  }
  return String(reply.result.value);
}

/** A page whose documents all load mutate.js themselves: the main one and, if any, its frames. */
export async function subjectWithFrames(state: PageState): Promise<Subject> {
  const frames = frameTargetsFeature.get(state);
  const cross = await waitFor(
    async () => {
      const docs = await frames.documents();
      const doc = docs.find(candidate => candidate.url.includes('?cross'));
      const ready =
        doc &&
        (await evaluate(doc.cdp, 'typeof mutate === "function" && !!document.body').catch(
          () => 'false',
        ));
      return ready === 'true' ? doc : undefined;
    },
    15_000,
    'the cross-site frame',
  );
  await waitFor(
    async () =>
      (await evaluate(
        state.cdp,
        'typeof document.getElementById("same").contentWindow.mutate === "function"',
      )) === 'true',
    10_000,
    'the same-site frame',
  );
  return {
    state,
    places: ['main', 'main', 'main', 'same', 'cross'],
    mutate: (where, seed, count) =>
      where === 'cross'
        ? evaluate(cross.cdp, `mutate(${seed}, ${count})`)
        : evaluate(
            state.cdp,
            where === 'same'
              ? `document.getElementById("same").contentWindow.mutate(${seed}, ${count})`
              : `mutate(${seed}, ${count})`,
          ),
  };
}

/**
 * A page of one document; mutate.js is injected when the page does not load it, with the
 * flattening changes on when asked.
 */
export async function singleDocumentSubject(
  state: PageState,
  options: {flatten: boolean},
): Promise<Subject> {
  await evaluate(
    state.cdp,
    `${MUTATE_SOURCE}; window.mutate.flatten = ${String(options.flatten)}; typeof window.mutate`,
  );
  return {
    state,
    places: ['main'],
    mutate: async (_where, seed, count) => {
      try {
        return await evaluate(state.cdp, `mutate(${seed}, ${count})`, 10_000);
      } catch (error) {
        const doing = await evaluate(state.cdp, 'String(window.mutate.doing)').catch(() => '?');
        throw new Error(`mutate(${seed}, ${count}) did not finish (${doing}): ${String(error)}`, {
          cause: error,
        });
      }
    },
  };
}

/** Probe readings of every document: equal before and after means nothing changed in between. */
async function readings(state: PageState): Promise<string> {
  const docs = await frameTargetsFeature.get(state).documents();
  return (await Promise.all(docs.map(doc => readProbe(state, doc)))).join('|');
}

export function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const b = expected.split('\n');
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    if (a[index] !== b[index]) {
      return `line ${index + 1}:\n  incremental: ${a[index]}\n  full read:   ${b[index]}`;
    }
  }
  return 'no difference';
}

export interface Compared {
  incremental: string;
  full: string;
  read: string;
  why: string | undefined;
}

/**
 * The snapshot from the kept trees and one read whole, taken while the page stood still (a page
 * that moved in between is asked again).
 */
export async function compare(state: PageState, verbose: boolean): Promise<Compared> {
  for (let attempt = 0; ; attempt++) {
    const before = await readings(state);
    const incremental = await takeSnapshot(state, {verbose});
    const full = await takeSnapshot(state, {verbose, fresh: true});
    const still = (await readings(state)) === before;
    if (incremental.text === full.text || (still && attempt > 0) || attempt >= 3) {
      return {
        incremental: incremental.text,
        full: full.text,
        read: incremental.read,
        why: incremental.why,
      };
    }
  }
}

/** Asserts the two snapshots equal; on a difference, dumps both when SNAPSHOT_DUMP names a path. */
export function expectSame(result: Compared, context: string): void {
  if (result.incremental !== result.full && process.env.SNAPSHOT_DUMP) {
    fs.writeFileSync(`${process.env.SNAPSHOT_DUMP}.incremental.txt`, result.incremental);
    fs.writeFileSync(`${process.env.SNAPSHOT_DUMP}.full.txt`, result.full);
  }
  expect(
    result.incremental,
    `${context}\n${firstDifference(result.incremental, result.full)}`,
  ).toBe(result.full);
}

export interface RunCounts {
  /** Change sets answered from the kept trees. */
  incremental: number;
  /** Why the others were read whole, with how often. */
  whole: Map<string, number>;
}

/**
 * `steps` change sets of 1–3 changes each, every one compared; returns how many came from the
 * kept trees. The seed and step of a difference are in the failure message.
 */
export async function runSeed(
  subject: Subject,
  options: {seed: number; steps: number; verbose: boolean; label?: string},
): Promise<RunCounts> {
  const {seed, steps, verbose} = options;
  await takeSnapshot(subject.state, {verbose});
  const counts: RunCounts = {incremental: 0, whole: new Map()};
  for (let step = 0; step < steps; step++) {
    const stepSeed = seed * 1000 + step;
    const where = subject.places[stepSeed % subject.places.length] ?? 'main';
    const did = await subject.mutate(where, stepSeed, 1 + (stepSeed % 3));
    const result = await compare(subject.state, verbose);
    const context = `${options.label ?? ''} seed ${seed} step ${step} (${where}: ${did})`;
    expectSame(result, context);
    if (result.read === 'incremental') {
      counts.incremental++;
    } else {
      const why = result.why ?? result.read;
      counts.whole.set(why, (counts.whole.get(why) ?? 0) + 1);
      if (process.env.SNAPSHOT_WHY) {
        console.log(`${context}: read whole: ${why}`);
      }
    }
  }
  return counts;
}
