/**
 * The hold queue as the UI keeps it: the state holdGetState answers, with the stream's hold
 * events (a call held, its target found, its end, the rules, the choice to open the Hold tab)
 * applied on top, each only if it is newer than the state (its sequence id). The engine never sends the whole queue again, so while
 * the answer to holdGetState is awaited (after every connect) the events wait here, and the ones
 * the answer already includes are dropped. Log rows follow: held while queued, running once out.
 */
import type {HeldCall, HoldState} from '../../../shared/hold.js';
import type {InspectorEvent} from '../../../shared/protocol.js';
import type {CallLog} from './CallLog.js';

export type HoldEvent = Extract<
  InspectorEvent,
  {
    type:
      | 'holdRulesChanged'
      | 'holdOpenOnHeldChanged'
      | 'callHeld'
      | 'callHoldTarget'
      | 'callHoldEnded';
  }
>;

/** Events waiting for the state are bounded: the wait is one round trip. */
const PENDING_LIMIT = 10_000;

const EMPTY: HoldState = {rules: [], timeoutMs: 0, queue: [], openOnHeld: false, seq: 0};

/** The state after one event, unchanged when the state already includes it. */
export function applyHoldEvent(state: HoldState, seq: number, event: HoldEvent): HoldState {
  if (seq <= state.seq) {
    return state;
  }
  const others = (callId: string): HeldCall[] => state.queue.filter(call => call.callId !== callId);
  switch (event.type) {
    case 'holdRulesChanged':
      return {...state, rules: event.rules, timeoutMs: event.timeoutMs, seq};
    case 'holdOpenOnHeldChanged':
      return {...state, openOnHeld: event.openOnHeld, seq};
    case 'callHeld':
      return {...state, queue: [...others(event.call.callId), event.call], seq};
    case 'callHoldTarget':
      return {
        ...state,
        queue: state.queue.map(call =>
          call.callId === event.callId ? {...call, target: event.target} : call,
        ),
        seq,
      };
    case 'callHoldEnded':
      return {...state, queue: others(event.callId), seq};
  }
}

export class HoldTracker {
  #state: HoldState | undefined;
  #pending: {seq: number; event: HoldEvent}[] | undefined;
  #heldIds = new Set<string>();

  constructor(private readonly log: CallLog) {}

  get state(): HoldState | undefined {
    return this.#state;
  }

  /** The state was asked for (a connect): events wait for the answer. */
  expectState(): void {
    this.#pending = [];
  }

  /** The answer to holdGetState, with the events that came after it; the state now. */
  applyState(answer: HoldState): HoldState {
    let state = answer;
    for (const {seq, event} of this.#pending ?? []) {
      state = applyHoldEvent(state, seq, event);
    }
    this.#pending = undefined;
    this.#state = state;
    this.#markHeld(state.queue);
    return state;
  }

  /** One event of the stream; the state after it, or undefined while the state is awaited. */
  applyEvent(seq: number, event: HoldEvent): HoldState | undefined {
    if (this.#pending) {
      if (this.#pending.length >= PENDING_LIMIT) {
        this.#pending.shift();
      }
      this.#pending.push({seq, event});
      return undefined;
    }
    const state = applyHoldEvent(this.#state ?? EMPTY, seq, event);
    this.#state = state;
    if (event.type === 'callHeld' || event.type === 'callHoldEnded') {
      this.#markHeld(state.queue);
    }
    return state;
  }

  #markHeld(queue: readonly HeldCall[]): void {
    const now = new Set(queue.map(call => call.callId));
    for (const callId of this.#heldIds) {
      if (!now.has(callId)) {
        this.log.setHeld(callId, false);
      }
    }
    for (const callId of now) {
      this.log.setHeld(callId, true);
    }
    this.#heldIds = now;
  }
}
