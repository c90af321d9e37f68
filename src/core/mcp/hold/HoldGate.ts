/**
 * Hold rules at work: an agent's call that matches a rule waits here — before any lock is taken,
 * so a held call on one page delays nobody else — until a person in the inspector allows, edits or
 * denies it, the hold times out (denied, saying so), or the client cancels (it leaves the queue at
 * once). Calls from the inspector itself are never held. With no rules, `gate` returns at its first
 * line.
 */
import {
  parseHoldRules,
  type HeldCall,
  type HoldDecision,
  type HoldRule,
  type HoldState,
} from '../../../shared/hold.js';
import type {ClientRef} from '../../../shared/protocol.js';
import type {PageState} from '../../browser/PageState.js';
import type {InspectorHub} from '../../inspector/InspectorHub.js';
import type {Tool, ValidationResult} from '../../tools/definition.js';
import {locateTarget, targetUidOf} from './heldTarget.js';
import {
  compileRules,
  isWebMcpCall,
  matchSyncRule,
  type CompiledRule,
  type RuleMatch,
} from './holdMatch.js';
import {deniedText, editedNote, timedOutText} from './holdTexts.js';
import {matchWebMcpRule, type WebMcpLookup} from './webmcpHold.js';

type ValidCall = Extract<ValidationResult, {ok: true}>;

export interface HoldRequest {
  callId: string;
  tool: Tool;
  params: Record<string, unknown>;
  client: ClientRef;
  /** The page the call names (pageId routing); undefined means the selected page. */
  pageId: number | undefined;
  signal: AbortSignal;
  progress: {report(status: string): void};
}

export type HoldOutcome =
  {kind: 'run'} | {kind: 'edited'; valid: ValidCall; note: string} | {kind: 'denied'; text: string};

export interface HoldGateDeps {
  hub: InspectorHub;
  rules: readonly string[];
  timeoutMs: number;
  pages: () => {list(): PageState[]; readonly selected: PageState | undefined};
  webmcp: WebMcpLookup;
  /** Every tool name the server has (enabled or not), to catch a misspelled tool rule. */
  toolNames: () => readonly string[];
  /** The tool's own argument check (the same as for a call from a client). */
  validate: (tool: Tool, args: Record<string, unknown>) => ValidationResult;
}

interface HeldEntry {
  view: HeldCall;
  tool: Tool;
  /** Leaves the queue with a decision: resolves the wait with the outcome, or rejects (cancel). */
  settle: (decision: HoldDecision, outcome: HoldOutcome | Error, extra?: {reason?: string}) => void;
}

const RUN: HoldOutcome = {kind: 'run'};

export const HOLD_WAITING_STATUS = 'Waiting for approval in the inspector…';

/** How often, and how far apart, the held call's target box is looked for. */
const OUTLINE_ATTEMPTS = 5;
const OUTLINE_RETRY_MS = 300;

export class HoldGate {
  #rules: CompiledRule[] = [];
  #hasWebMcpRule = false;
  readonly #queue: HeldEntry[] = [];

  constructor(private readonly deps: HoldGateDeps) {
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
      this.#publish();
    }
  }

  state(): HoldState {
    return {
      rules: this.#rules.map(rule => rule.text),
      timeoutMs: this.deps.timeoutMs,
      queue: this.#queue.map(entry => entry.view),
    };
  }

  /**
   * Undefined when the call runs at once (no rule matches: the common path, kept cheap); else the
   * decision to come.
   */
  gate(request: HoldRequest): Promise<HoldOutcome> | undefined {
    if (this.#rules.length === 0 || request.client.transport === 'inspector') {
      return undefined;
    }
    const page = request.tool.pageScoped ? this.#pageOf(request.pageId) : undefined;
    const {tool, params} = request;
    const match = matchSyncRule(this.#rules, {tool, args: params, pageUrl: page?.url});
    if (match) {
      return this.#hold(request, page, match);
    }
    if (!this.#hasWebMcpRule || !isWebMcpCall(tool)) {
      return undefined;
    }
    return matchWebMcpRule(this.#rules, tool, params, page, this.deps.webmcp).then(found =>
      found ? this.#hold(request, page, found) : RUN,
    );
  }

  #pageOf(pageId: number | undefined): PageState | undefined {
    const pages = this.deps.pages();
    return pageId === undefined ? pages.selected : pages.list().find(page => page.id === pageId);
  }

  #hold(request: HoldRequest, page: PageState | undefined, match: RuleMatch): Promise<HoldOutcome> {
    const {signal, tool, params} = request;
    if (match.rule.rule.kind === 'step') {
      // A step holds one call: the rule is used up.
      this.#setCompiled(this.#rules.filter(rule => rule !== match.rule));
    }
    signal.throwIfAborted();
    const heldAt = Date.now();
    const target = targetUidOf(params);
    const view: HeldCall = {
      callId: request.callId,
      tool: tool.name,
      args: params,
      client: request.client,
      ...(page ? {pageId: page.id, pageUrl: page.url} : {}),
      rule: match.rule.text,
      reason: match.reason,
      heldAt,
      deadline: heldAt + this.deps.timeoutMs,
      ...(target ? {target} : {}),
    };
    return new Promise<HoldOutcome>((resolve, reject) => {
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
      const entry: HeldEntry = {
        view,
        tool,
        settle: (decision, outcome, extra = {}) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          const index = this.#queue.indexOf(entry);
          if (index === -1) {
            return;
          }
          this.#queue.splice(index, 1);
          this.deps.hub.publish({
            type: 'callHoldEnded',
            callId: view.callId,
            decision,
            heldMs: Date.now() - heldAt,
            ...(extra.reason === undefined ? {} : {reason: extra.reason}),
            ...(!(outcome instanceof Error) && outcome.kind === 'edited'
              ? {args: outcome.valid.params}
              : {}),
          });
          this.#publish();
          if (outcome instanceof Error) {
            reject(outcome);
          } else {
            resolve(outcome);
          }
        },
      };
      signal.addEventListener('abort', onAbort, {once: true});
      this.#queue.push(entry);
      this.#publish();
      request.progress.report(HOLD_WAITING_STATUS);
      if (page && target) {
        void this.#outline(entry, page, target);
      }
    });
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
        entry.view = {...entry.view, target: located};
        this.#publish();
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
    const entry = this.#queue.find(candidate => candidate.view.callId === callId);
    if (!entry) {
      throw new Error(
        `No held call ${callId}: it was already decided, timed out or cancelled. Pick one from the held queue.`,
      );
    }
    if (decision === 'allow') {
      entry.settle('allowed', RUN);
    } else if (decision === 'deny') {
      entry.settle(
        'denied',
        {kind: 'denied', text: deniedText(options.reason)},
        {
          ...(options.reason?.trim() ? {reason: options.reason.trim()} : {}),
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
      entry.settle('edited', {
        kind: 'edited',
        valid,
        note: editedNote(entry.view.args, valid.params),
      });
    }
    return this.state();
  }

  /** Releases every held call, oldest first. */
  allowAll(): HoldState {
    for (const entry of [...this.#queue]) {
      entry.settle('allowed', RUN);
    }
    return this.state();
  }

  #publish(): void {
    this.deps.hub.publish({type: 'holdChanged', state: this.state()});
  }
}
