/**
 * The hold queue as the UI keeps it: the state holdGetState answers, with the stream's hold
 * events (a call held, its target found, its end, the rules, the choice to open the Hold tab)
 * applied on top, each only if it is newer than the state (its sequence id). The engine never sends the whole queue again, so while
 * the answer to holdGetState is awaited (after every connect) the events wait here, and the ones
 * the answer already includes are dropped. Log rows follow: held while queued, running once out.
 */
import type {HeldCall, HoldDecision, HoldState} from '../../../shared/hold.js';
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
/** Decisions this UI saw, kept to show who decided (newest first). */
const DECIDED_KEPT = 10;

/** A held call that left the queue while this UI watched: how, and where it was decided. */
export interface DecidedCall {
  callId: string;
  tool: string;
  client: HeldCall['client'];
  decision: HoldDecision;
  /** In the inspector, or in the client that was asked too (none: timed out or cancelled). */
  decidedIn?: 'inspector' | 'client';
  reason?: string;
  at: number;
}

/** The hold state, and the decisions this UI saw. */
export type HoldSlice = HoldState & {decided: readonly DecidedCall[]};

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
  #decided: readonly DecidedCall[] = [];

  constructor(private readonly log: CallLog) {}

  get state(): HoldSlice | undefined {
    return this.#state === undefined ? undefined : {...this.#state, decided: this.#decided};
  }

  /** The state was asked for (a connect): events wait for the answer. */
  expectState(): void {
    this.#pending = [];
  }

  /** The answer to holdGetState, with the events that came after it; the state now. */
  applyState(answer: HoldState): HoldSlice {
    let state = answer;
    for (const {seq, event} of this.#pending ?? []) {
      state = applyHoldEvent(state, seq, event);
    }
    this.#pending = undefined;
    this.#state = state;
    this.#markHeld(state.queue);
    return {...state, decided: this.#decided};
  }

  /**
   * One event of the stream (at server time `time`); the state after it, or undefined while the
   * state is awaited.
   */
  applyEvent(seq: number, event: HoldEvent, time = 0): HoldSlice | undefined {
    if (this.#pending) {
      if (this.#pending.length >= PENDING_LIMIT) {
        this.#pending.shift();
      }
      this.#pending.push({seq, event});
      return undefined;
    }
    const before = this.#state ?? EMPTY;
    const state = applyHoldEvent(before, seq, event);
    this.#state = state;
    if (event.type === 'callHoldEnded' && state !== before) {
      this.#noteDecided(before, event, time);
    }
    if (event.type === 'callHeld' || event.type === 'callHoldEnded') {
      this.#markHeld(state.queue);
    }
    return {...state, decided: this.#decided};
  }

  #noteDecided(
    before: HoldState,
    event: Extract<HoldEvent, {type: 'callHoldEnded'}>,
    time: number,
  ): void {
    const call = before.queue.find(candidate => candidate.callId === event.callId);
    if (!call) {
      return;
    }
    const decided: DecidedCall = {
      callId: call.callId,
      tool: call.tool,
      client: call.client,
      decision: event.decision,
      at: time,
      ...(event.decidedIn === undefined ? {} : {decidedIn: event.decidedIn}),
      ...(event.reason === undefined ? {} : {reason: event.reason}),
    };
    this.#decided = [decided, ...this.#decided].slice(0, DECIDED_KEPT);
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
