/**
 * Which hold rule, if any, a call matches. Cheap on purpose: it runs on every agent call while
 * rules are on, so it reads only what the call already has (the tool record, its arguments, the
 * page's URL); the WebMCP rules, which need the page's tool annotations, are answered apart
 * (webmcpHold.ts) and only for calls that can match them.
 */
import {formatHoldRule, globToRegExp, type HoldRule} from '../../../shared/hold.js';
import type {Tool} from '../../tools/definition.js';

/** A rule, parsed once, with its glob compiled. */
export interface CompiledRule {
  rule: HoldRule;
  text: string;
  url?: RegExp;
}

export function compileRules(rules: readonly HoldRule[]): CompiledRule[] {
  return rules.map(rule => ({
    rule,
    text: formatHoldRule(rule),
    ...(rule.kind === 'url' ? {url: globToRegExp(rule.glob)} : {}),
  }));
}

export interface CallFacts {
  tool: Tool;
  args: Record<string, unknown>;
  /** The URL of the page the call acts on, when it acts on one. */
  pageUrl: string | undefined;
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
        return {rule: compiled, reason: 'stepping: the next call is held'};
      case 'notReadOnly':
        if (!tool.readOnly) {
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
        const url = urlMatch(compiled, pageUrl, args);
        if (url !== undefined) {
          return {rule: compiled, reason: `${url} matches ${rule.glob}`};
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

/** The page's URL, or the URL a navigation goes to, when it matches the rule's glob. */
function urlMatch(
  compiled: CompiledRule,
  pageUrl: string | undefined,
  args: Record<string, unknown>,
): string | undefined {
  const pattern = compiled.url;
  if (!pattern) {
    return undefined;
  }
  if (pageUrl !== undefined && pattern.test(pageUrl)) {
    return pageUrl;
  }
  const target = args.url;
  return typeof target === 'string' && pattern.test(target) ? target : undefined;
}
