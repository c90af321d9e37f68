/**
 * The call's locks, taken with the hold rules checked again under them: the page a call gets may
 * not be the one it was checked on (it navigated itself, or the selection moved, while the call
 * waited). If a rule matches now, the call is held without its locks, so other calls go on, and
 * the locks are taken again once a person let it run; bounded by CallHold's MAX_HOLDS_PER_CALL.
 */
import type {ValidationResult} from '../../tools/base/definition.js';
import type {HeldLocks} from '../callLocks.js';
import type {CallHold, HoldOutcome} from './CallHold.js';

type ValidCall = Extract<ValidationResult, {ok: true}>;

export type CheckedLocks = {locks: HeldLocks; valid: ValidCall} | {denied: string};

export async function lockChecked(
  hold: CallHold | undefined,
  given: ValidCall,
  lock: (valid: ValidCall) => Promise<HeldLocks>,
  notes: string[],
): Promise<CheckedLocks> {
  let valid = given;
  for (;;) {
    const locks = await lock(valid);
    const {page} = locks;
    if (!hold || !page) {
      return {locks, valid};
    }
    let held: Promise<HoldOutcome>;
    try {
      const match = await hold.recheck(valid.params, page);
      if (!match) {
        return {locks, valid};
      }
      // In the queue before the locks go, so nothing runs in between unseen.
      held = hold.hold(valid.params, page, match);
    } catch (error) {
      locks.release();
      throw error;
    }
    locks.release();
    const decided = await held;
    if (decided.kind === 'denied') {
      return {denied: decided.text};
    }
    if (decided.note !== undefined) {
      notes.push(decided.note);
    }
    if (decided.kind === 'edited') {
      valid = decided.valid;
    }
  }
}
