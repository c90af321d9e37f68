/**
 * Which hold rule, if any, a call matches. Cheap on purpose: it runs on every agent call while
 * rules are on, so it reads only what the call already has (the tool record, its arguments, the
 * page's URL); the WebMCP rules, which need the page's tool annotations, are answered apart
 * (webmcpHold.ts) and only for calls that can match them.
 */
import {formatHoldRule, type HoldRule} from '../../../shared/hold.js';
import {compileUrlGlob, LONG_URL_CHARS, type UrlGlob} from '../../../shared/urlGlob.js';
import type {Tool} from '../../tools/base/definition.js';

/** A rule, parsed once, with its glob compiled. */
export interface CompiledRule {
  rule: HoldRule;
  text: string;
  url?: UrlGlob;
}

export function compileRules(rules: readonly HoldRule[]): CompiledRule[] {
  return rules.map(rule => ({
    rule,
    text: formatHoldRule(rule),
    ...(rule.kind === 'url' ? {url: compileUrlGlob(rule.glob)} : {}),
  }));
}

/** A URL as a reason shows it: a page can make its URL megabytes long. */
export function shortUrl(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}… (${url.length} characters)` : url;
}

/**
 * Why `url` matches the glob, or undefined when it does not. A URL too long to compare whole
 * that may match is held (see urlGlob.ts), and the reason says so.
 */
export function urlRuleReason(compiled: CompiledRule, url: string): string | undefined {
  const answer = compiled.url?.match(url);
  if (answer === 'yes') {
    return `${shortUrl(url)} matches ${compiled.url?.glob ?? ''}`;
  }
  if (answer === 'maybe') {
    return `${shortUrl(url)} may match ${compiled.url?.glob ?? ''} (URLs over ${LONG_URL_CHARS / 1024} KiB are compared on their start and end only, so it is held)`;
  }
  return undefined;
}

export interface CallFacts {
  tool: Tool;
  args: Record<string, unknown>;
  /** The URL of the page the call acts on, when it acts on one. */
  pageUrl: string | undefined;
  /** Checked again under its lock: a step is for the next call to arrive, not this one. */
  again?: boolean;
}

export interface RuleMatch {
  rule: CompiledRule;
  reason: string;
}

/** Whether a call can match a WebMCP rule at all (the ones that look at a page's tools). */
export function isWebMcpCall(tool: Tool): boolean {
  return tool.name === 'execute_webmcp_tool' || tool.name.startsWith('webmcp_');
}

/** The first rule (in the order given) the call matches without asking the page anything. */
export function matchSyncRule(
  rules: readonly CompiledRule[],
  facts: CallFacts,
): RuleMatch | undefined {
  const {tool, args, pageUrl} = facts;
  for (const compiled of rules) {
    const {rule} = compiled;
    switch (rule.kind) {
      case 'all':
        return {rule: compiled, reason: 'every call is held'};
      case 'step':
        if (facts.again !== true) {
          return {rule: compiled, reason: 'stepping: the next call is held'};
        }
        break;
      case 'notReadOnly':
        // By what this call does: take_snapshot without a filePath only reads.
        if (!tool.readsOnly(args)) {
          return {rule: compiled, reason: `${tool.name} is not read-only`};
        }
        break;
      case 'tool':
        if (tool.name === rule.name) {
          return {rule: compiled, reason: `the tool is ${tool.name}`};
        }
        break;
      case 'category':
        if (tool.category === rule.category) {
          return {rule: compiled, reason: `${tool.name} is in the ${rule.category} category`};
        }
        break;
      case 'url': {
        const reason = urlMatch(compiled, pageUrl, args);
        if (reason !== undefined) {
          return {rule: compiled, reason};
        }
        break;
      }
      case 'webmcpConsequential':
      case 'webmcpNotReadOnly':
        break;
    }
  }
  return undefined;
}

/** Why the page's URL, or the URL a navigation goes to, matches the rule's glob. */
function urlMatch(
  compiled: CompiledRule,
  pageUrl: string | undefined,
  args: Record<string, unknown>,
): string | undefined {
  const onPage = pageUrl === undefined ? undefined : urlRuleReason(compiled, pageUrl);
  if (onPage !== undefined) {
    return onPage;
  }
  const target = args.url;
  return typeof target === 'string' ? urlRuleReason(compiled, target) : undefined;
}
