/**
 * One pass over every style rule of a document and its observed shadow roots: a key that changes
 * with any rule text (CSSOM edits included), and what the rules that set a property the tree
 * reflects depend on (state, siblings), which decides whether a change can be scoped.
 */
import {fnvHash, type FnvHash} from './fnvHash.js';
import {isLiveRoot, type TreeProbe} from './probeState.js';

/** Style properties whose value the accessibility tree reflects. */
export const TREE_PROPERTIES = new Set([
  'display',
  'visibility',
  'content',
  'content-visibility',
  'inert',
  'interactivity',
  'text-transform',
  'white-space',
  'white-space-collapse',
  'text-wrap-mode',
  'list-style-type',
  'list-style-image',
  'list-style-position',
  'counter-reset',
  'counter-increment',
  'counter-set',
  'overflow',
  'overflow-x',
  'overflow-y',
  'overflow-block',
  'overflow-inline',
  'appearance',
  '-webkit-user-modify',
  '-webkit-text-security',
]);

/** Selectors that follow state the DOM does not show (hover, focus, form state…). */
const DYNAMIC =
  /:(hover|active|focus|target|checked|indeterminate|placeholder-shown|valid|invalid|user-valid|user-invalid|in-range|out-of-range|default|autofill|-webkit-autofill|popover-open|open|closed|modal|fullscreen|picture-in-picture|playing|paused|seeking|buffering|stalled|muted|volume-locked|state\(|current|past|future|blank|has-slotted)/;
/** Selectors that match by siblings. */
const STRUCTURAL =
  /[+~]|:(nth-|first-child|last-child|only-child|first-of-type|last-of-type|only-of-type)/;
/** Selectors whose reach no change can be scoped to. */
const NEVER = /:(has|dir)\(/;
/** Most style rules read before a document counts as too large to analyse. */
const RULE_LIMIT = 20_000;
/** How deep @import is followed, and rules nested. */
const IMPORT_DEPTH = 8;
const NESTING_DEPTH = 16;

/** What the rules that set a tree property depend on. */
export interface StyleDependence {
  /** On state only style shows (hover, focus, form state). */
  dynamic: boolean;
  /** On siblings (+ ~ :nth-child…). */
  structural: boolean;
  /** Why no change can be scoped, or ''. */
  never: string;
  rules: number;
}

interface SheetVisit {
  hash: FnvHash;
  css: StyleDependence;
}

/** A rule with a selector and declarations (a style rule, a page rule). */
function selectorRule(rule: CSSRule): {style: CSSStyleDeclaration; selector: string} | undefined {
  if (!('style' in rule) || !('selectorText' in rule)) {
    return undefined;
  }
  const {style, selectorText} = rule;
  return style instanceof CSSStyleDeclaration && typeof selectorText === 'string'
    ? {style, selector: selectorText}
    : undefined;
}

function nestedRules(rule: CSSRule): CSSRuleList | undefined {
  return 'cssRules' in rule && rule.cssRules instanceof CSSRuleList ? rule.cssRules : undefined;
}

function reflectsTree(style: CSSStyleDeclaration): boolean {
  for (let i = 0; i < style.length; i++) {
    if (TREE_PROPERTIES.has(style.item(i))) {
      return true;
    }
  }
  return false;
}

function noteSelectorRule(
  css: StyleDependence,
  rule: {style: CSSStyleDeclaration; selector: string},
  container: boolean,
): void {
  if (!reflectsTree(rule.style)) {
    return;
  }
  if (NEVER.test(rule.selector)) {
    css.never = 'style rules with :has() or :dir()';
  }
  if (container) {
    css.never = 'container queries';
  }
  if (rule.style.getPropertyValue('content-visibility')) {
    css.never = 'content-visibility';
  }
  if (DYNAMIC.test(rule.selector)) {
    css.dynamic = true;
  }
  if (STRUCTURAL.test(rule.selector)) {
    css.structural = true;
  }
}

function visitRules(
  visit: SheetVisit,
  rules: CSSRuleList,
  depth: number,
  inContainer: boolean,
): void {
  const css = visit.css;
  for (const rule of rules) {
    if (++css.rules > RULE_LIMIT) {
      css.never = 'too many style rules';
      return;
    }
    visit.hash.mix(rule.cssText);
    if (rule instanceof CSSImportRule && rule.styleSheet && depth < IMPORT_DEPTH) {
      visitSheet(visit, rule.styleSheet, depth + 1);
    }
    const container = inContainer || rule.constructor.name === 'CSSContainerRule';
    const withSelector = selectorRule(rule);
    if (withSelector) {
      noteSelectorRule(css, withSelector, container);
    }
    const nested = nestedRules(rule);
    if (nested && depth < NESTING_DEPTH) {
      visitRules(visit, nested, depth + 1, container);
    }
  }
}

function visitSheet(visit: SheetVisit, sheet: CSSStyleSheet, depth: number): void {
  visit.hash.mix((sheet.disabled ? 'off ' : 'on ') + sheet.media.mediaText);
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    visit.css.never = 'a cross-origin style sheet';
    visit.hash.mix(sheet.href);
    return;
  }
  visitRules(visit, rules, depth, false);
}

function sheetsOf(probe: TreeProbe): CSSStyleSheet[] {
  const sheets = [...document.adoptedStyleSheets];
  for (const root of probe.roots) {
    if (isLiveRoot(root)) {
      sheets.push(...root.styleSheets, ...root.adoptedStyleSheets);
    }
  }
  return sheets;
}

/** The style sheets' key (it changes with any rule) and what the tree's rules depend on. */
export function readStyleRules(probe: TreeProbe): {key: string; css: StyleDependence} {
  const visit: SheetVisit = {
    hash: fnvHash(),
    css: {dynamic: false, structural: false, never: '', rules: 0},
  };
  for (const sheet of sheetsOf(probe)) {
    visitSheet(visit, sheet, 0);
  }
  return {key: `${visit.hash.value()}:${visit.css.rules}`, css: visit.css};
}
