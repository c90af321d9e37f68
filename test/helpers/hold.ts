/**
 * Hold tests' common steps: a command's reply value, and waiting for a call to show in the hold
 * queue.
 */
import type {Engine} from '../../src/core/Engine.js';
import type {HeldCall} from '../../src/shared/hold.js';
import {waitFor} from './engine.js';

/** A command's reply value, or its error thrown. */
export function valueOf<V>(result: {ok: true; value: V} | {ok: false; error: string}): V {
  if (!result.ok) {
    throw new Error(result.error);
  }
  return result.value;
}

/** The held call of `tool` (and `predicate`), once the queue has it. */
export function heldOf(
  engine: Engine,
  tool: string,
  predicate: (held: HeldCall) => boolean = () => true,
): Promise<HeldCall> {
  return waitFor(
    () =>
      engine.hold.state().queue.find(candidate => candidate.tool === tool && predicate(candidate)),
    10_000,
    `a held ${tool}`,
  );
}
