/**
 * Hold rules at work: an agent's call that matches a rule waits here — holding no lock, so a held
 * call on one page delays nobody else — until a person in the inspector allows, edits or denies
 * it, the hold times out (denied, saying so), or the client cancels (it leaves the queue at once).
 * A client that supports MCP elicitation is asked too, and the first answer wins (askClient.ts).
 * Calls from the inspector itself are never held. One client has at most MAX_HELD_PER_CLIENT calls
 * held; more are refused with a text that says why. Each change is published as what changed (a
 * call held, a call's target found, a call's end, the rules), never the whole queue again. Each
 * call goes through its own CallHold (CallHold.ts); with no rules, its first check returns at once.
 */
import {cutText, SHOWN_URL_CHARS} from '../../../shared/boundedValue.js';
import {
  parseHoldRules,
  type HeldCall,
  type HoldDecision,
  type HoldRule,
  type HoldState,
} from '../../../shared/hold.js';
import type {PageState} from '../../browser/pages/PageState.js';
import type {InspectorHub} from '../../inspector/InspectorHub.js';
import type {Tool, ValidationResult} from '../../tools/base/definition.js';
import {
  CallHold,
  RUN,
  type HeldCallRequest,
  type HoldCallInfo,
  type HoldOutcome,
  type HoldQueue,
} from './CallHold.js';
import {locateTarget, targetUidOf} from './heldTarget.js';
import {compileRules, type CompiledRule, type RuleMatch} from './holdMatch.js';
import {deniedText, editedNote, timedOutText, tooManyHeldText} from './holdTexts.js';
import {matchWebMcpRule, type WebMcpLookup} from './webmcpHold.js';
import {holdQuestion, type AskClient} from './askClient.js';

export type {HoldOutcome} from './CallHold.js';

/**
 * One client has at most this many calls held at once: a person decides on a handful, and a
 * flood of held calls must not cost the server (or the UI) more than that.
 */
export const MAX_HELD_PER_CLIENT = 20;

export interface HoldGateDeps {
  hub: InspectorHub;
  rules: readonly string[];
  timeoutMs: number;
  /** Whether UIs open their Hold tab when a call is held (default: no). */
  openOnHeld?: boolean;
  webmcp: WebMcpLookup;
  /** Every tool name the server has (enabled or not), to catch a misspelled tool rule. */
  toolNames: () => readonly string[];
  /** The tool's own argument check (the same as for a call from a client). */
  validate: (tool: Tool, args: Record<string, unknown>) => ValidationResult;
}

/** Where a decision was made (none: timed out, or cancelled by the client). */
type DecidedIn = 'inspector' | 'client';

interface HeldEntry {
  held: HeldCall;
  tool: Tool;
  /** Leaves the queue with a decision: resolves the wait with the outcome, or rejects (cancel). */
  settle: (
    decision: HoldDecision,
    outcome: HoldOutcome | Error,
    extra?: {reason?: string; decidedIn?: DecidedIn},
  ) => void;
}

export const HOLD_WAITING_STATUS = 'Waiting for approval in the inspector…';

/** How often, and how far apart, the held call's target box is looked for. */
const OUTLINE_ATTEMPTS = 5;
const OUTLINE_RETRY_MS = 300;

export class HoldGate implements HoldQueue {
  #rules: CompiledRule[] = [];
  #hasWebMcpRule = false;
  #openOnHeld: boolean;
  readonly #queue: HeldEntry[] = [];
  /** Withdraws the question still open in the client of a held call (it was asked too). */
  readonly #withdraw = new Map<HeldEntry, () => void>();

  constructor(private readonly deps: HoldGateDeps) {
    this.#openOnHeld = deps.openOnHeld ?? false;
    const parsed = parseHoldRules(deps.rules);
    if ('error' in parsed) {
      throw new Error(parsed.error);
    }
    // No event at start: a UI asks for the state (holdGetState) when it connects.
    this.#setCompiled(compileRules(parsed.rules), false);
  }

  /**
   * Replaces the rules (same grammar as --hold); throws the parser's error text, and (when asked)
   * for a tool rule that names no tool of this server.
   */
  setRules(texts: readonly string[], options: {checkToolNames?: boolean} = {}): HoldState {
    const parsed = parseHoldRules(texts);
    if ('error' in parsed) {
      throw new Error(parsed.error);
    }
    const unknown = options.checkToolNames === true ? this.unknownTools(parsed.rules) : [];
    if (unknown.length > 0) {
      throw new Error(
        `No tool named ${unknown.join(', ')}. Tools: ${this.deps.toolNames().join(', ')} (webmcp_<name> tools are matched once they exist).`,
      );
    }
    this.#setCompiled(compileRules(parsed.rules));
    return this.state();
  }

  /** The tool names of tool rules that name no tool of this server (a typo, most likely). */
  unknownTools(rules: readonly HoldRule[] = this.#rules.map(compiled => compiled.rule)): string[] {
    const known = new Set(this.deps.toolNames());
    return rules.flatMap(rule =>
      rule.kind === 'tool' && !known.has(rule.name) && !rule.name.startsWith('webmcp_')
        ? [rule.name]
        : [],
    );
  }

  #setCompiled(rules: CompiledRule[], publish = true): void {
    this.#rules = rules;
    this.#hasWebMcpRule = rules.some(
      ({rule}) => rule.kind === 'webmcpConsequential' || rule.kind === 'webmcpNotReadOnly',
    );
    if (publish) {
      this.deps.hub.publish({
        type: 'holdRulesChanged',
        rules: rules.map(rule => rule.text),
        timeoutMs: this.deps.timeoutMs,
      });
    }
  }

  get rules(): readonly CompiledRule[] {
    return this.#rules;
  }

  get hasWebMcpRule(): boolean {
    return this.#hasWebMcpRule;
  }

  state(): HoldState {
    return {
      rules: this.#rules.map(rule => rule.text),
      timeoutMs: this.deps.timeoutMs,
      queue: this.#queue.map(entry => entry.held),
      openOnHeld: this.#openOnHeld,
      // Every event published so far is in this state (publishing is synchronous).
      seq: this.deps.hub.nextSeq - 1,
    };
  }

  /** The hold of one agent call; undefined for the inspector's own calls (never held). */
  forCall(info: HoldCallInfo): CallHold | undefined {
    return info.client.transport === 'inspector' ? undefined : new CallHold(this, info);
  }

  pageOf(
    pageId: number | undefined,
    pages: {list(): PageState[]; readonly selected: PageState | undefined},
  ): PageState | undefined {
    return pageId === undefined ? pages.selected : pages.list().find(page => page.id === pageId);
  }

  consumeStep(rule: CompiledRule): void {
    this.#setCompiled(this.#rules.filter(candidate => candidate !== rule));
  }

  matchWebMcp(
    tool: Tool,
    params: Record<string, unknown>,
    page: PageState | undefined,
  ): Promise<RuleMatch | undefined> {
    return matchWebMcpRule(this.#rules, tool, params, page, this.deps.webmcp);
  }

  enqueue(request: HeldCallRequest): Promise<HoldOutcome> {
    const {signal, client} = request;
    signal.throwIfAborted();
    const mine = this.#queue.filter(entry => entry.held.client.id === client.id).length;
    if (mine >= MAX_HELD_PER_CLIENT) {
      return Promise.resolve({
        kind: 'denied',
        text: tooManyHeldText(client.name, MAX_HELD_PER_CLIENT),
      });
    }
    return new Promise<HoldOutcome>((resolve, reject) => {
      const entry = this.#entry(request, (outcome: HoldOutcome | Error) =>
        outcome instanceof Error ? reject(outcome) : resolve(outcome),
      );
      this.#queue.push(entry);
      this.deps.hub.publish({type: 'callHeld', call: entry.held});
      request.progress.report(HOLD_WAITING_STATUS);
      if (request.ask) {
        this.#askClient(entry, request.ask);
      }
      const {page} = request;
      const target = entry.held.target;
      if (page && target) {
        void this.#outline(entry, page, target);
      }
    });
  }

  /** A queue entry: the held call as shown, its timeout and how it leaves the queue (once). */
  #entry(request: HeldCallRequest, done: (outcome: HoldOutcome | Error) => void): HeldEntry {
    const {signal, tool, params, page, match} = request;
    const heldAt = Date.now();
    const target = targetUidOf(tool, params);
    const held: HeldCall = {
      callId: request.callId,
      tool: tool.name,
      args: params,
      client: request.client,
      ...(page ? {pageId: page.id, pageUrl: cutText(page.url, SHOWN_URL_CHARS)} : {}),
      rule: match.rule.text,
      reason: match.reason,
      heldAt,
      deadline: heldAt + this.deps.timeoutMs,
      ...(target ? {target} : {}),
      ...(request.ask
        ? {askedInClient: true}
        : request.progressRequested === true
          ? {}
          : {clientMayGiveUp: true}),
    };
    const timer = setTimeout(
      () => entry.settle('timedOut', {kind: 'denied', text: timedOutText(this.deps.timeoutMs)}),
      this.deps.timeoutMs,
    );
    timer.unref();
    const onAbort = (): void =>
      entry.settle(
        'cancelled',
        new Error('The call was cancelled by the client while it was held for approval.'),
      );
    signal.addEventListener('abort', onAbort, {once: true});
    const entry: HeldEntry = {
      held,
      tool,
      settle: (decision, outcome, extra = {}) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const index = this.#queue.indexOf(entry);
        if (index === -1) {
          return;
        }
        this.#queue.splice(index, 1);
        // A question still open in the client is withdrawn: the first answer won.
        this.#withdraw.get(entry)?.();
        this.#withdraw.delete(entry);
        this.deps.hub.publish({
          type: 'callHoldEnded',
          callId: held.callId,
          decision,
          heldMs: Date.now() - heldAt,
          ...(extra.reason === undefined ? {} : {reason: extra.reason}),
          ...(extra.decidedIn === undefined ? {} : {decidedIn: extra.decidedIn}),
          ...(!(outcome instanceof Error) && outcome.kind === 'edited'
            ? {args: outcome.valid.params}
            : {}),
        });
        done(outcome);
      },
    };
    return entry;
  }

  /**
   * Asks the client's person too. Their Allow or Deny decides the call unless the inspector
   * decided first (then the question is withdrawn); "Edit in the inspector", a dismissed question
   * or no answer leaves it to the inspector. Bounded by the hold's own timeout.
   */
  #askClient(entry: HeldEntry, ask: AskClient): void {
    const withdrawn = new AbortController();
    this.#withdraw.set(entry, () => withdrawn.abort());
    const client = entry.held.client.name;
    void ask(
      holdQuestion(entry.held),
      withdrawn.signal,
      Math.max(1, entry.held.deadline - Date.now()),
    )
      .then(answer => {
        this.#withdraw.delete(entry);
        if (answer === 'allow') {
          entry.settle('allowed', RUN, {decidedIn: 'client'});
        } else if (answer === 'deny') {
          entry.settle(
            'denied',
            {kind: 'denied', text: deniedText(`answered in ${client}'s own prompt`)},
            {reason: `answered in ${client}'s own prompt`, decidedIn: 'client'},
          );
        }
      })
      .catch(() => {
        // The client could not be asked (an error, no answer in time, or withdrawn): the
        // inspector still decides.
        this.#withdraw.delete(entry);
      });
  }

  /** What the agent reads first when it was asked too and the inspector decided. */
  #decidedHereNote(entry: HeldEntry, what: string): string | undefined {
    return this.#withdraw.has(entry)
      ? `Note: the user ${what} this call in the inspector; the question shown in your client was withdrawn.`
      : undefined;
  }

  /** Adds the target's box once found (the hold is shown at once, without waiting for it). */
  async #outline(
    entry: HeldEntry,
    page: PageState,
    target: NonNullable<HeldCall['target']>,
  ): Promise<void> {
    // A busy page (or machine) can miss one bounded read; try a few times while the call waits.
    for (let attempt = 0; attempt < OUTLINE_ATTEMPTS && this.#queue.includes(entry); attempt++) {
      const located = await locateTarget(page, target).catch(() => target);
      if (located.rect && this.#queue.includes(entry)) {
        entry.held = {...entry.held, target: located};
        this.deps.hub.publish({type: 'callHoldTarget', callId: entry.held.callId, target: located});
        return;
      }
      await new Promise(resolve => setTimeout(resolve, OUTLINE_RETRY_MS).unref());
    }
  }

  /** A person's decision on one held call. Edited arguments must pass the tool's own check. */
  decide(
    callId: string,
    decision: 'allow' | 'edit' | 'deny',
    options: {args?: Record<string, unknown> | undefined; reason?: string | undefined} = {},
  ): HoldState {
    const entry = this.#queue.find(candidate => candidate.held.callId === callId);
    if (!entry) {
      throw new Error(
        `No held call ${callId}: it was already decided, timed out or cancelled. Pick one from the held queue.`,
      );
    }
    if (decision === 'allow') {
      const note = this.#decidedHereNote(entry, 'allowed');
      entry.settle('allowed', note === undefined ? RUN : {kind: 'run', note}, {
        decidedIn: 'inspector',
      });
    } else if (decision === 'deny') {
      const note = this.#decidedHereNote(entry, 'denied');
      entry.settle(
        'denied',
        {kind: 'denied', text: [deniedText(options.reason), note].filter(Boolean).join('\n')},
        {
          ...(options.reason?.trim() ? {reason: options.reason.trim()} : {}),
          decidedIn: 'inspector',
        },
      );
    } else {
      const args = options.args;
      if (!args) {
        throw new Error('Edit needs the arguments to run. Fill in the form, then run it.');
      }
      const valid = this.deps.validate(entry.tool, args);
      if (!valid.ok) {
        throw new Error(`The edited arguments do not fit ${entry.tool.name}: ${valid.message}`);
      }
      const note = this.#decidedHereNote(entry, 'edited');
      entry.settle(
        'edited',
        {
          kind: 'edited',
          valid,
          note: [editedNote(entry.held.args, valid.params), note].filter(Boolean).join('\n'),
        },
        {decidedIn: 'inspector'},
      );
    }
    return this.state();
  }

  /** Releases every held call, oldest first. */
  allowAll(): HoldState {
    for (const entry of [...this.#queue]) {
      const note = this.#decidedHereNote(entry, 'allowed');
      entry.settle('allowed', note === undefined ? RUN : {kind: 'run', note}, {
        decidedIn: 'inspector',
      });
    }
    return this.state();
  }

  /** Denies every held call, oldest first, each agent told the same reason. */
  denyAll(reason?: string): HoldState {
    const given = reason?.trim() ?? '';
    for (const entry of [...this.#queue]) {
      const note = this.#decidedHereNote(entry, 'denied');
      entry.settle(
        'denied',
        {kind: 'denied', text: [deniedText(given), note].filter(Boolean).join('\n')},
        {...(given === '' ? {} : {reason: given}), decidedIn: 'inspector'},
      );
    }
    return this.state();
  }

  /** Whether UIs open their Hold tab when a call is held. */
  setOpenOnHeld(openOnHeld: boolean): HoldState {
    if (openOnHeld !== this.#openOnHeld) {
      this.#openOnHeld = openOnHeld;
      this.deps.hub.publish({type: 'holdOpenOnHeldChanged', openOnHeld});
    }
    return this.state();
  }
}
