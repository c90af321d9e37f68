/**
 * One agent call's way through the hold rules. It is checked before any lock (HoldGate's queue
 * keeps no other call waiting); checked again once it holds its page, when that page is not the
 * one, or no longer at the URL, it was checked on (a page that navigated itself, or a selection
 * that moved, while the call waited); and while it runs, each navigation it makes its page do is
 * checked against the URL rules before it commits (navigationCheck). A person's approval covers
 * what they saw: the page's URL and the URL the call navigates to, nothing a redirect adds.
 */
import type {ClientRef} from '../../../shared/protocol.js';
import type {Navigation, NavigationCheck} from '../../browser/navigation/navigationGuard.js';
import type {PageState} from '../../browser/pages/PageState.js';
import type {Tool, ValidationResult} from '../../tools/base/definition.js';
import {
  isWebMcpCall,
  matchSyncRule,
  shortUrl,
  urlRuleReason,
  type CompiledRule,
  type RuleMatch,
} from './holdMatch.js';
import type {AskClient} from './askClient.js';
import {keptChangingText, stoppedNavigationText} from './holdTexts.js';

type ValidCall = Extract<ValidationResult, {ok: true}>;

export type HoldOutcome =
  /** `note`: said to the agent first (where the call was decided, when it was asked too). */
  | {kind: 'run'; note?: string}
  | {kind: 'edited'; valid: ValidCall; note: string}
  | {kind: 'denied'; text: string};

export const RUN: HoldOutcome = {kind: 'run'};

/** A call is held at most this often (its page may keep changing); then it is refused. */
export const MAX_HOLDS_PER_CALL = 3;

/** What the pipeline knows of a call before its arguments are settled. */
export interface HoldCallInfo {
  callId: string;
  tool: Tool;
  client: ClientRef;
  /** The caller's pages: a call without pageId is matched on its caller's selection. */
  pages: {list(): PageState[]; readonly selected: PageState | undefined};
  signal: AbortSignal;
  progress: {report(status: string): void};
  /** Asks the client's person too (it supports MCP elicitation); undefined: it cannot be asked. */
  ask?: AskClient | undefined;
  /** The client asked for progress (it is kept waiting by heartbeats). */
  progressRequested?: boolean;
}

/** One call to put in the queue. */
export interface HeldCallRequest extends HoldCallInfo {
  params: Record<string, unknown>;
  page: PageState | undefined;
  match: RuleMatch;
}

/** The queue and rules as one call sees them (HoldGate). */
export interface HoldQueue {
  readonly rules: readonly CompiledRule[];
  readonly hasWebMcpRule: boolean;
  pageOf(
    pageId: number | undefined,
    pages: {list(): PageState[]; readonly selected: PageState | undefined},
  ): PageState | undefined;
  /** A step rule holds one call: it is used up. */
  consumeStep(rule: CompiledRule): void;
  matchWebMcp(
    tool: Tool,
    params: Record<string, unknown>,
    page: PageState | undefined,
  ): Promise<RuleMatch | undefined>;
  enqueue(request: HeldCallRequest): Promise<HoldOutcome>;
}

interface PageFacts {
  pageId: number;
  pageUrl: string;
}

/** A URL as navigations compare it: parsed (so `http://a.test` is `http://a.test/`), no fragment. */
function comparable(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}

export class CallHold {
  /** The page the last check looked at. */
  #seen: PageFacts | undefined;
  /** URLs a person saw when they let this call run. */
  readonly #approved = new Set<string>();
  #holds = 0;

  constructor(
    private readonly queue: HoldQueue,
    private readonly info: HoldCallInfo,
  ) {}

  /** Before any lock: undefined when the call runs at once (the common path, kept cheap). */
  before(
    params: Record<string, unknown>,
    pageId: number | undefined,
  ): Promise<HoldOutcome> | undefined {
    const {rules} = this.queue;
    if (rules.length === 0) {
      return undefined;
    }
    const {tool} = this.info;
    const page = tool.pageScoped ? this.queue.pageOf(pageId, this.info.pages) : undefined;
    this.#seen = page ? {pageId: page.id, pageUrl: page.url} : undefined;
    const match = matchSyncRule(rules, {tool, args: params, pageUrl: page?.url});
    if (match) {
      if (match.rule.rule.kind === 'step') {
        this.queue.consumeStep(match.rule);
      }
      return this.hold(params, page, match);
    }
    if (!this.queue.hasWebMcpRule || !isWebMcpCall(tool)) {
      return undefined;
    }
    return this.queue
      .matchWebMcp(tool, params, page)
      .then(found => (found ? this.hold(params, page, found) : RUN));
  }

  /**
   * Under the call's locks: the rule it matches now that its page is not the one it was checked
   * on (or has moved to another URL), or undefined to run. Cheap when the page is unchanged.
   */
  async recheck(params: Record<string, unknown>, page: PageState): Promise<RuleMatch | undefined> {
    const seen = this.#seen;
    const {rules} = this.queue;
    if (rules.length === 0 || (seen?.pageId === page.id && seen.pageUrl === page.url)) {
      return undefined;
    }
    this.#seen = {pageId: page.id, pageUrl: page.url};
    const {tool} = this.info;
    const match =
      matchSyncRule(rules, {tool, args: params, pageUrl: page.url, again: true}) ??
      (this.queue.hasWebMcpRule && isWebMcpCall(tool)
        ? await this.queue.matchWebMcp(tool, params, page)
        : undefined);
    if (!match) {
      return undefined;
    }
    const moved =
      seen !== undefined && seen.pageId !== page.id
        ? `the selected page changed while the call waited: it now acts on page ${page.id}`
        : `page ${page.id} went to ${shortUrl(page.url)} while the call waited for it`;
    return {rule: match.rule, reason: `${moved}; ${match.reason}`};
  }

  /** Puts the call in the queue (or refuses it once it was held too often). */
  async hold(
    params: Record<string, unknown>,
    page: PageState | undefined,
    match: RuleMatch,
  ): Promise<HoldOutcome> {
    if (this.#holds >= MAX_HOLDS_PER_CALL) {
      return {kind: 'denied', text: keptChangingText(match.reason)};
    }
    this.#holds++;
    const pageUrl = page?.url;
    const outcome = await this.queue.enqueue({...this.info, params, page, match});
    if (outcome.kind !== 'denied') {
      const ran = outcome.kind === 'edited' ? outcome.valid.params : params;
      for (const url of [pageUrl, ran.url]) {
        if (typeof url === 'string') {
          this.#approved.add(comparable(url));
        }
      }
    }
    return outcome;
  }

  /** Whether any URL rule is on, so navigations need watching. */
  get watchesNavigations(): boolean {
    return this.queue.rules.some(rule => rule.url !== undefined);
  }

  /** The check of each navigation this call makes `page` do: a held URL nobody approved stops. */
  navigationCheck(page: PageState): NavigationCheck {
    return (navigation: Navigation) => {
      for (const compiled of this.queue.rules) {
        const reason = compiled.url ? urlRuleReason(compiled, navigation.url) : undefined;
        if (reason === undefined) {
          continue;
        }
        if (this.#approved.has(comparable(navigation.url))) {
          return undefined;
        }
        return stoppedNavigationText({...navigation, rule: compiled.text, page});
      }
      return undefined;
    };
  }
}
