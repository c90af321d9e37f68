/**
 * get_css_styles: the CSS cascade of one element, read from the browser's CSS domain — matched
 * rules from highest to lowest precedence with their source lines, the inline style, inherited
 * styles, pseudo-elements, custom properties and the @layer/@media/@container/@scope/@supports
 * wrappers, with every declaration that loses the cascade marked [overloaded].
 *
 * The winner of each property is computed here from the browser's rule order, including what
 * DevTools' own panel gets wrong: `!important` reverses the order of cascade layers and origins.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {callFunctionInPage, PROBE_TIMEOUT_MS} from '../browser/evaluation.js';
import {releaseObject, resolveUid} from '../browser/elements.js';
import type {PageState} from '../browser/PageState.js';
import {actionTimeout, slowdownFeature} from '../browser/timeouts.js';
import {paginate, paginationLines} from './response/pagination.js';
import {definePageTool, type Tool} from './definition.js';

type CSSStyle = Protocol.CSS.CSSStyle;
type CSSProperty = Protocol.CSS.CSSProperty;
type CSSRule = Protocol.CSS.CSSRule;
type RuleMatch = Protocol.CSS.RuleMatch;
type StyleSheetHeader = Protocol.CSS.CSSStyleSheetHeader;

// Inherited properties (CSS specs; Blink's `inherited: true`). Custom properties inherit unless
// registered with `inherits: false`.
const INHERITED_PROPERTIES = new Set([
  'accent-color',
  'border-collapse',
  'border-spacing',
  'caption-side',
  'caret-color',
  'clip-rule',
  'color',
  'color-interpolation',
  'color-interpolation-filters',
  'color-rendering',
  'color-scheme',
  'cursor',
  'direction',
  'dominant-baseline',
  'dynamic-range-limit',
  'empty-cells',
  'fill',
  'fill-opacity',
  'fill-rule',
  'font',
  'font-family',
  'font-feature-settings',
  'font-kerning',
  'font-language-override',
  'font-optical-sizing',
  'font-palette',
  'font-size',
  'font-size-adjust',
  'font-stretch',
  'font-style',
  'font-synthesis',
  'font-synthesis-small-caps',
  'font-synthesis-style',
  'font-synthesis-weight',
  'font-variant',
  'font-variant-alternates',
  'font-variant-caps',
  'font-variant-east-asian',
  'font-variant-emoji',
  'font-variant-ligatures',
  'font-variant-numeric',
  'font-variant-position',
  'font-variation-settings',
  'font-weight',
  'forced-color-adjust',
  'hyphenate-character',
  'hyphenate-limit-chars',
  'hyphens',
  'image-orientation',
  'image-rendering',
  'interactivity',
  'letter-spacing',
  'line-break',
  'line-height',
  'list-style',
  'list-style-image',
  'list-style-position',
  'list-style-type',
  'marker',
  'marker-end',
  'marker-mid',
  'marker-start',
  'math-depth',
  'math-shift',
  'math-style',
  'orphans',
  'overflow-wrap',
  'paint-order',
  'pointer-events',
  'print-color-adjust',
  'quotes',
  'ruby-align',
  'ruby-position',
  'shape-rendering',
  'speak',
  'stroke',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-opacity',
  'stroke-width',
  'tab-size',
  'text-align',
  'text-align-last',
  'text-anchor',
  'text-autospace',
  'text-combine-upright',
  'text-decoration-skip-ink',
  'text-emphasis',
  'text-emphasis-color',
  'text-emphasis-position',
  'text-emphasis-style',
  'text-indent',
  'text-justify',
  'text-orientation',
  'text-rendering',
  'text-shadow',
  'text-size-adjust',
  'text-spacing-trim',
  'text-transform',
  'text-underline-offset',
  'text-underline-position',
  'text-wrap',
  'text-wrap-mode',
  'text-wrap-style',
  'visibility',
  'white-space',
  'white-space-collapse',
  'widows',
  'word-break',
  'word-spacing',
  'word-wrap',
  'writing-mode',
  '-webkit-border-horizontal-spacing',
  '-webkit-border-vertical-spacing',
  '-webkit-font-smoothing',
  '-webkit-hyphenate-character',
  '-webkit-line-break',
  '-webkit-locale',
  '-webkit-print-color-adjust',
  '-webkit-rtl-ordering',
  '-webkit-tap-highlight-color',
  '-webkit-text-combine',
  '-webkit-text-emphasis',
  '-webkit-text-emphasis-color',
  '-webkit-text-emphasis-position',
  '-webkit-text-emphasis-style',
  '-webkit-text-fill-color',
  '-webkit-text-orientation',
  '-webkit-text-security',
  '-webkit-text-stroke',
  '-webkit-text-stroke-color',
  '-webkit-text-stroke-width',
  '-webkit-user-modify',
  '-webkit-writing-mode',
]);

/** Values that let the parent's value through, so they do not hide inherited declarations. */
const PASS_THROUGH = new Set(['inherit', 'unset']);
const MAX_VALUE_CHARS = 300;
const MAX_URL_CHARS = 100;

// --- Collected data -------------------------------------------------------------------------------

type DeclarationStatus = 'active' | 'overloaded' | 'invalid' | 'disabled';

interface Declaration {
  name: string;
  value: string;
  important: boolean;
  /** The longhands it sets, with their values (itself when not a shorthand). */
  longhands: {name: string; value: string}[];
  status: DeclarationStatus;
  /** Longhands of a shorthand that lose while others win. */
  overriddenParts: string[];
  /** Computed value, for winning declarations that use var(). */
  resolved?: string;
}

interface StyleBlock {
  /** Heading of the group the block belongs to ("Inherited from body:"), if any. */
  group?: string;
  selector: string;
  source?: string;
  /** Enclosing at-rules and nesting parents, outermost first. */
  wrappers: string[];
  declarations: Declaration[];
  /** Nested blocks (keyframe steps). */
  children?: {selector: string; declarations: Declaration[]}[];
  /** Cascade facts. */
  userAgent: boolean;
  inline: boolean;
  /** Position of its cascade layer (earlier layers lose normal and win !important); Infinity = unlayered. */
  layerRank: number;
}

interface Candidate {
  block: number;
  index: number;
  declaration: Declaration;
  value: string;
  important: boolean;
}

// --- Cascade ------------------------------------------------------------------------------------

/** True when `a` beats `b` in the cascade of one element (blocks in ascending normal precedence). */
function beats(a: Candidate, b: Candidate, blocks: readonly StyleBlock[]): boolean {
  if (a.important !== b.important) {
    return a.important;
  }
  const blockA = blocks[a.block];
  const blockB = blocks[b.block];
  if (a.important && blockA && blockB && a.block !== b.block) {
    // Important declarations: user-agent beats author, the style attribute beats rules, and
    // earlier layers beat later ones (unlayered last).
    if (blockA.userAgent !== blockB.userAgent) {
      return blockA.userAgent;
    }
    if (blockA.inline !== blockB.inline) {
      return blockA.inline;
    }
    if (blockA.layerRank !== blockB.layerRank) {
      return blockA.layerRank < blockB.layerRank;
    }
  }
  return a.block !== b.block ? a.block > b.block : a.index > b.index;
}

/** Marks each declaration of one element's blocks active or overloaded; returns the winners. */
function resolveCascade(blocks: readonly StyleBlock[]): Map<string, Candidate> {
  const winners = new Map<string, Candidate>();
  blocks.forEach((block, blockIndex) => {
    block.declarations.forEach((declaration, index) => {
      if (declaration.status === 'invalid' || declaration.status === 'disabled') {
        return;
      }
      for (const longhand of declaration.longhands) {
        const candidate: Candidate = {
          block: blockIndex,
          index,
          declaration,
          value: longhand.value,
          important: declaration.important,
        };
        const current = winners.get(longhand.name);
        if (!current || beats(candidate, current, blocks)) {
          winners.set(longhand.name, candidate);
        }
      }
    });
  });
  for (const block of blocks) {
    for (const declaration of block.declarations) {
      markStatus(declaration, name => winners.get(name)?.declaration === declaration);
    }
  }
  return winners;
}

function markStatus(declaration: Declaration, wins: (longhand: string) => boolean): void {
  if (declaration.status === 'invalid' || declaration.status === 'disabled') {
    return;
  }
  const lost = declaration.longhands.filter(longhand => !wins(longhand.name));
  declaration.status = lost.length === declaration.longhands.length ? 'overloaded' : 'active';
  declaration.overriddenParts =
    declaration.status === 'active' ? lost.map(longhand => longhand.name) : [];
}

function isInherited(name: string, nonInheritingCustom: ReadonlySet<string>): boolean {
  return name.startsWith('--') ? !nonInheritingCustom.has(name) : INHERITED_PROPERTIES.has(name);
}

// --- Reading the protocol's styles ----------------------------------------------------------------

function cleanText(text: string, limit = MAX_VALUE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…(${flat.length} chars)` : flat;
}

function toDeclaration(property: CSSProperty): Declaration {
  const important = property.important === true;
  const value = important ? property.value.replace(/\s*!\s*important\s*$/i, '') : property.value;
  const longhands = property.longhandProperties?.length
    ? property.longhandProperties.map(longhand => ({
        name: longhand.name,
        value: longhand.value,
      }))
    : [{name: property.name, value}];
  return {
    name: property.name,
    value,
    important,
    longhands,
    status: property.disabled ? 'disabled' : property.parsedOk === false ? 'invalid' : 'active',
    overriddenParts: [],
  };
}

/**
 * Declarations as written. Styles with source text list what was written; user-agent and
 * attribute styles only have parsed longhands, regrouped under their shorthands for brevity.
 */
function declarationsOf(style: CSSStyle): Declaration[] {
  const written = style.cssProperties.filter(property => property.range !== undefined);
  if (written.length > 0) {
    return written.map(toDeclaration);
  }
  const parsed = style.cssProperties.filter(property => property.implicit !== true);
  const declarations: Declaration[] = [];
  const grouped = new Set<CSSProperty>();
  for (const shorthand of style.shorthandEntries) {
    const parts = parsed.filter(
      property => !grouped.has(property) && property.name.startsWith(`${shorthand.name}-`),
    );
    if (parts.length === 0) {
      continue;
    }
    for (const part of parts) {
      grouped.add(part);
    }
    declarations.push({
      name: shorthand.name,
      value: shorthand.value,
      important: shorthand.important === true,
      longhands: parts.map(part => ({name: part.name, value: part.value})),
      status: 'active',
      overriddenParts: [],
    });
  }
  for (const property of parsed) {
    if (!grouped.has(property)) {
      declarations.push(toDeclaration(property));
    }
  }
  return declarations;
}

interface SourceContext {
  headers: ReadonlyMap<string, StyleSheetHeader>;
  /** Origin of the inspected page: same-origin URLs print as paths. */
  pageOrigin: string;
}

function displayUrl(url: string, context: SourceContext): string {
  if (url.startsWith('data:')) {
    return 'data-uri';
  }
  if (url.startsWith('blob:')) {
    return 'blob';
  }
  let shown = url;
  try {
    const parsed = new URL(url);
    if (parsed.origin === context.pageOrigin && parsed.origin !== 'null') {
      shown = `${parsed.pathname}${parsed.search}`;
    }
  } catch {
    // Not a URL (e.g. a sourceURL comment): shown as given.
  }
  return cleanText(shown, MAX_URL_CHARS);
}

function sourceOf(
  origin: Protocol.CSS.StyleSheetOrigin,
  styleSheetId: string | undefined,
  startLine: number | undefined,
  context: SourceContext,
): string | undefined {
  switch (origin) {
    case 'user-agent':
      return 'user agent stylesheet';
    case 'injected':
      return 'injected stylesheet';
    case 'inspector':
      return 'via inspector';
    case 'regular':
      break;
  }
  const header = styleSheetId === undefined ? undefined : context.headers.get(styleSheetId);
  if (!header) {
    return undefined;
  }
  const line = startLine === undefined ? '' : `:${header.startLine + startLine + 1}`;
  if (header.isConstructed && !header.sourceURL) {
    return 'constructed stylesheet';
  }
  return header.sourceURL ? `${displayUrl(header.sourceURL, context)}${line}` : `<style>${line}`;
}

interface LayerOrder {
  rankOf(rule: CSSRule): number;
}

/** Layer order as the browser sorted the rules: layered author rules come first, in layer order. */
function layerOrder(matches: readonly RuleMatch[]): LayerOrder {
  const ranks = new Map<string, number>();
  const keyOf = (rule: CSSRule): string | undefined => {
    const layers = rule.layers ?? [];
    if (layers.length === 0) {
      return undefined;
    }
    return [...layers]
      .reverse()
      .map(layer =>
        layer.text
          ? layer.text
          : `#anonymous@${layer.styleSheetId ?? ''}:${layer.range?.startLine ?? 0}:${layer.range?.startColumn ?? 0}`,
      )
      .join('.');
  };
  for (const match of matches) {
    const key = keyOf(match.rule);
    if (key !== undefined && !ranks.has(key)) {
      ranks.set(key, ranks.size);
    }
  }
  return {
    rankOf: rule => {
      const key = keyOf(rule);
      return key === undefined ? Number.POSITIVE_INFINITY : (ranks.get(key) ?? 0);
    },
  };
}

/** Enclosing at-rules, outermost first, from the rule's innermost-first type list. */
function wrappersOf(rule: CSSRule, containers: ReadonlyMap<string, string>): string[] {
  const counters = new Map<string, number>();
  const next = <T>(type: string, list: readonly T[] | undefined): T | undefined => {
    const position = counters.get(type) ?? 0;
    counters.set(type, position + 1);
    return list?.[position];
  };
  const wrappers: string[] = [];
  for (const type of rule.ruleTypes ?? []) {
    switch (type) {
      case 'MediaRule': {
        const media = next(type, rule.media);
        if (media) {
          wrappers.push(`@media ${cleanText(media.text)}`);
        }
        break;
      }
      case 'ContainerRule': {
        const query = next(type, rule.containerQueries);
        if (query) {
          const name = query.name && !query.text.startsWith(query.name) ? `${query.name} ` : '';
          const container = containers.get(containerKey(query));
          wrappers.push(
            `@container ${cleanText(`${name}${query.text}`)}${container ? ` /* container: ${container} */` : ''}`,
          );
        }
        break;
      }
      case 'SupportsRule': {
        const supports = next(type, rule.supports);
        if (supports) {
          wrappers.push(`@supports ${cleanText(supports.text)}`);
        }
        break;
      }
      case 'LayerRule': {
        const layer = next(type, rule.layers);
        if (layer) {
          wrappers.push(layer.text ? `@layer ${cleanText(layer.text)}` : '@layer');
        }
        break;
      }
      case 'ScopeRule': {
        const scope = next(type, rule.scopes);
        if (scope) {
          wrappers.push(scope.text ? `@scope ${cleanText(scope.text)}` : '@scope');
        }
        break;
      }
      case 'StyleRule': {
        const selector = next(type, rule.nestingSelectors);
        if (selector) {
          wrappers.push(cleanText(selector));
        }
        break;
      }
      case 'StartingStyleRule':
        wrappers.push('@starting-style');
        break;
      case 'NavigationRule': {
        const navigation = next(type, rule.navigations);
        if (navigation) {
          wrappers.push(`@navigation ${cleanText(navigation.text)}`);
        }
        break;
      }
    }
  }
  return wrappers.reverse();
}

function containerKey(query: Protocol.CSS.CSSContainerQuery): string {
  return `${query.styleSheetId ?? ''}:${query.range?.startLine ?? -1}:${query.range?.startColumn ?? -1}:${query.text}`;
}

/** Only the selectors of a list that matched (a UA rule lists dozens). */
function matchedSelector(match: RuleMatch): string {
  const selectors = match.rule.selectorList.selectors;
  const matching = match.matchingSelectors
    .map(index => selectors[index]?.text)
    .filter((text): text is string => text !== undefined);
  return cleanText(matching.length > 0 ? matching.join(', ') : match.rule.selectorList.text);
}

function ruleBlock(
  match: RuleMatch,
  layers: LayerOrder,
  context: SourceContext,
  containers: ReadonlyMap<string, string>,
): StyleBlock {
  const rule = match.rule;
  const firstSelector = rule.selectorList.selectors[0];
  const startLine = firstSelector?.range?.startLine ?? rule.style.range?.startLine;
  const source = sourceOf(rule.origin, rule.styleSheetId, startLine, context);
  const userAgent = rule.origin === 'user-agent' || rule.origin === 'injected';
  return {
    selector: matchedSelector(match),
    ...(source === undefined ? {} : {source}),
    wrappers: wrappersOf(rule, containers),
    declarations: declarationsOf(rule.style),
    userAgent,
    inline: false,
    layerRank: userAgent ? 0 : layers.rankOf(rule),
  };
}

function plainBlock(selector: string, style: CSSStyle, inline: boolean): StyleBlock {
  return {
    selector,
    wrappers: [],
    declarations: declarationsOf(style),
    userAgent: false,
    inline,
    layerRank: Number.POSITIVE_INFINITY,
  };
}

/** One element's blocks in ascending precedence: UA rules, presentational attributes, author rules, inline. */
function elementBlocks(
  matches: readonly RuleMatch[],
  inlineStyle: CSSStyle | undefined,
  attributesStyle: CSSStyle | undefined,
  tagName: string,
  context: SourceContext,
  containers: ReadonlyMap<string, string>,
): StyleBlock[] {
  const layers = layerOrder(matches);
  const blocks = matches.map(match => ruleBlock(match, layers, context, containers));
  const firstAuthor = blocks.findIndex(block => !block.userAgent);
  if (attributesStyle && attributesStyle.cssProperties.length > 0) {
    blocks.splice(
      firstAuthor === -1 ? blocks.length : firstAuthor,
      0,
      plainBlock(`${tagName}[attributes style]`, attributesStyle, false),
    );
  }
  if (inlineStyle && inlineStyle.cssProperties.length > 0) {
    blocks.push(plainBlock('element.style', inlineStyle, true));
  }
  return blocks.filter(block => block.declarations.length > 0);
}

// --- Building the report --------------------------------------------------------------------------

interface ElementInfo {
  selector: string;
  ancestors: string[];
}

export interface CssReport {
  element: string;
  blocks: StyleBlock[];
}

function buildReport(
  matched: Protocol.CSS.GetMatchedStylesForNodeResponse,
  element: ElementInfo,
  context: SourceContext,
  containers: ReadonlyMap<string, string>,
  computed: ReadonlyMap<string, string> | undefined,
): CssReport {
  const tagName = element.selector.split(/[#.[]/)[0] ?? '';
  const nonInheritingCustom = new Set<string>();
  for (const registration of matched.cssPropertyRegistrations ?? []) {
    if (!registration.inherits) {
      nonInheritingCustom.add(registration.propertyName);
    }
  }
  for (const rule of matched.cssPropertyRules ?? []) {
    const inherits = rule.style.cssProperties.find(property => property.name === 'inherits');
    if (inherits?.value.trim() === 'false') {
      nonInheritingCustom.add(rule.propertyName.text);
    }
  }

  // The element itself.
  const own = elementBlocks(
    matched.matchedCSSRules ?? [],
    matched.inlineStyle,
    matched.attributesStyle,
    tagName,
    context,
    containers,
  );
  const ownWinners = resolveCascade(own);
  const output: StyleBlock[] = [...own].reverse();

  // Inherited: an ancestor's winning declaration of an inherited property is active only if no
  // nearer element sets that property.
  const setCloser = new Set<string>();
  const addWinners = (winners: ReadonlyMap<string, Candidate>): void => {
    for (const [name, candidate] of winners) {
      if (!PASS_THROUGH.has(candidate.value.trim())) {
        setCloser.add(name);
      }
    }
  };
  addWinners(ownWinners);
  (matched.inherited ?? []).forEach((entry, level) => {
    const blocks = elementBlocks(
      entry.matchedCSSRules,
      entry.inlineStyle,
      undefined,
      '',
      context,
      containers,
    );
    const winners = resolveCascade(blocks);
    const group = `Inherited from ${element.ancestors[level] ?? `ancestor ${level + 1}`}:`;
    for (const block of [...blocks].reverse()) {
      const inheritable = block.declarations.filter(declaration =>
        declaration.longhands.some(longhand => isInherited(longhand.name, nonInheritingCustom)),
      );
      if (inheritable.length === 0) {
        continue;
      }
      for (const declaration of inheritable) {
        declaration.longhands = declaration.longhands.filter(longhand =>
          isInherited(longhand.name, nonInheritingCustom),
        );
        markStatus(
          declaration,
          name => winners.get(name)?.declaration === declaration && !setCloser.has(name),
        );
      }
      output.push({...block, group, declarations: inheritable});
    }
    addWinners(new Map([...winners].filter(([name]) => isInherited(name, nonInheritingCustom))));
  });

  if (computed) {
    for (const block of output) {
      for (const declaration of block.declarations) {
        const value = computed.get(declaration.name);
        if (declaration.status === 'active' && declaration.value.includes('var(') && value) {
          declaration.resolved = value;
        }
      }
    }
  }

  // Pseudo-elements: each has its own cascade.
  for (const pseudo of matched.pseudoElements ?? []) {
    const name = `::${pseudo.pseudoType}${pseudo.pseudoIdentifier ? `(${pseudo.pseudoIdentifier})` : ''}`;
    const blocks = elementBlocks(pseudo.matches, undefined, undefined, '', context, containers);
    resolveCascade(blocks);
    for (const block of [...blocks].reverse()) {
      output.push({...block, group: `Pseudo-element ${name}:`});
    }
  }

  for (const keyframes of matched.cssKeyframesRules ?? []) {
    const first = keyframes.keyframes[0];
    const source = first
      ? sourceOf(first.origin, first.styleSheetId, first.keyText.range?.startLine, context)
      : undefined;
    output.push({
      selector: `@keyframes ${cleanText(keyframes.animationName.text)}`,
      ...(source === undefined ? {} : {source}),
      wrappers: [],
      declarations: [],
      children: keyframes.keyframes.map(step => ({
        selector: cleanText(step.keyText.text),
        declarations: declarationsOf(step.style),
      })),
      userAgent: false,
      inline: false,
      layerRank: Number.POSITIVE_INFINITY,
    });
  }

  for (const rule of matched.cssPropertyRules ?? []) {
    const source = sourceOf(
      rule.origin,
      rule.styleSheetId,
      rule.propertyName.range?.startLine,
      context,
    );
    output.push({
      selector: `@property ${cleanText(rule.propertyName.text)}`,
      ...(source === undefined ? {} : {source}),
      wrappers: [],
      declarations: declarationsOf(rule.style),
      userAgent: false,
      inline: false,
      layerRank: Number.POSITIVE_INFINITY,
    });
  }
  for (const registration of matched.cssPropertyRegistrations ?? []) {
    const fields: [string, string][] = [
      ['syntax', JSON.stringify(registration.syntax)],
      ['inherits', String(registration.inherits)],
      ...(registration.initialValue
        ? [['initial-value', registration.initialValue.text] satisfies [string, string]]
        : []),
    ];
    output.push({
      selector: `@property ${cleanText(registration.propertyName)}`,
      source: 'CSS.registerProperty',
      wrappers: [],
      declarations: fields.map(([name, value]) => ({
        name,
        value,
        important: false,
        longhands: [],
        status: 'active',
        overriddenParts: [],
      })),
      userAgent: false,
      inline: false,
      layerRank: Number.POSITIVE_INFINITY,
    });
  }
  return {element: element.selector, blocks: mergeUserAgentRuns(output)};
}

/** User-agent rules have no line numbers, so neighbours with the same selector read as one rule. */
function mergeUserAgentRuns(blocks: readonly StyleBlock[]): StyleBlock[] {
  const merged: StyleBlock[] = [];
  for (const block of blocks) {
    const previous = merged.at(-1);
    if (
      previous?.userAgent &&
      block.userAgent &&
      previous.group === block.group &&
      previous.selector === block.selector &&
      previous.source === block.source &&
      previous.wrappers.join('\n') === block.wrappers.join('\n')
    ) {
      merged[merged.length - 1] = {
        ...previous,
        declarations: [...previous.declarations, ...block.declarations],
      };
    } else {
      merged.push(block);
    }
  }
  return merged;
}

// --- Rendering ------------------------------------------------------------------------------------

function declarationLine(declaration: Declaration): string {
  const tag =
    declaration.status === 'active'
      ? declaration.overriddenParts.length > 0
        ? `[partly overloaded: ${declaration.overriddenParts.join(', ')}] `
        : ''
      : `[${declaration.status}] `;
  const important = declaration.important ? ' !important' : '';
  const resolved =
    declaration.resolved === undefined ? '' : ` /* = ${cleanText(declaration.resolved)} */`;
  return `${tag}${declaration.name}: ${cleanText(declaration.value)}${important};${resolved}`;
}

function renderBlock(block: StyleBlock, lines: string[]): void {
  const pad = (depth: number): string => '  '.repeat(depth);
  block.wrappers.forEach((wrapper, depth) => lines.push(`${pad(depth)}${wrapper} {`));
  const depth = block.wrappers.length;
  const source = block.source === undefined ? '' : ` (${block.source})`;
  lines.push(`${pad(depth)}${block.selector}${source} {`);
  for (const declaration of block.declarations) {
    lines.push(`${pad(depth + 1)}${declarationLine(declaration)}`);
  }
  for (const child of block.children ?? []) {
    lines.push(`${pad(depth + 1)}${child.selector} {`);
    for (const declaration of child.declarations) {
      lines.push(`${pad(depth + 2)}${declarationLine(declaration)}`);
    }
    lines.push(`${pad(depth + 1)}}`);
  }
  for (let level = depth; level >= 0; level--) {
    lines.push(`${pad(level)}}`);
  }
}

/** The report, one page of rules at a time (chrome-devtools-mcp's paging lines). */
export function renderReport(
  report: CssReport,
  uid: string,
  pageSize: number,
  pageIdx: number,
): string {
  const lines = [`Styles for ${report.element} (uid: "${uid}"):`];
  if (report.blocks.length === 0) {
    lines.push('(no styles)');
    return lines.join('\n');
  }
  const page = paginate(report.blocks, {pageSize, pageIdx});
  lines.push(...paginationLines(page, report.blocks.length));
  let group: string | undefined;
  for (const block of page.items) {
    if (block.group !== group) {
      group = block.group;
      if (group !== undefined) {
        lines.push(group);
      }
    }
    renderBlock(block, lines);
  }
  return lines.join('\n');
}

// --- Talking to the browser -----------------------------------------------------------------------

const elementInfoSchema = z.object({selector: z.string(), ancestors: z.array(z.string())});

/** DevTools' short element label (tag#id, .classes, input[type]) for the element and its flat-tree ancestors. */
const DESCRIBE_ELEMENT = `function () {
  const label = el => {
    const tag = el.localName;
    const id = el.getAttribute('id');
    const classes = (el.getAttribute('class') || '').trim();
    const type = el.getAttribute('type');
    if (tag === 'input' && type && !id && !classes) return tag + '[type="' + CSS.escape(type) + '"]';
    if (id) return tag + '#' + CSS.escape(id);
    if (classes) return (tag === 'div' ? '' : tag) + '.' + classes.split(/\\s+/).map(c => CSS.escape(c)).join('.');
    return tag;
  };
  const parentOf = el => el.assignedSlot || el.parentElement ||
    (el.parentNode instanceof ShadowRoot ? el.parentNode.host : null);
  const ancestors = [];
  for (let node = parentOf(this); node; node = parentOf(node)) ancestors.push(label(node));
  return {selector: label(this), ancestors};
}`;

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(message)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Looks up the element each @container query of the matched rules resolves to. */
async function containerLabels(
  state: PageState,
  session: CDPSession,
  nodeId: number,
  matched: Protocol.CSS.GetMatchedStylesForNodeResponse,
): Promise<Map<string, string>> {
  const queries = new Map<string, Protocol.CSS.CSSContainerQuery>();
  const rules = [
    ...(matched.matchedCSSRules ?? []),
    ...(matched.pseudoElements ?? []).flatMap(pseudo => pseudo.matches),
  ];
  for (const {rule} of rules) {
    for (const query of rule.containerQueries ?? []) {
      queries.set(containerKey(query), query);
    }
  }
  const labels = new Map<string, string>();
  await Promise.all(
    [...queries].map(async ([key, query]) => {
      try {
        const {nodeId: containerId} = await session.send('DOM.getContainerForNode', {
          nodeId,
          ...(query.name ? {containerName: query.name} : {}),
          ...(query.physicalAxes ? {physicalAxes: query.physicalAxes} : {}),
          ...(query.logicalAxes ? {logicalAxes: query.logicalAxes} : {}),
          ...(query.queriesScrollState ? {queriesScrollState: true} : {}),
          ...(query.queriesAnchored ? {queriesAnchored: true} : {}),
        });
        if (containerId === undefined) {
          return;
        }
        const {object} = await session.send('DOM.resolveNode', {nodeId: containerId});
        if (!object.objectId) {
          return;
        }
        const objectId = object.objectId;
        const described = await callFunctionInPage(
          state,
          {objectId, functionDeclaration: DESCRIBE_ELEMENT, returnByValue: true},
          {session, timeoutMs: PROBE_TIMEOUT_MS},
        );
        const info = elementInfoSchema.safeParse(described.result.value);
        if (info.success) {
          labels.set(key, info.data.selector);
        }
      } catch {
        // The container is optional detail; the rule still prints.
      }
    }),
  );
  return labels;
}

async function collectReport(state: PageState, uid: string): Promise<CssReport> {
  const resolved = await resolveUid(state, uid);
  releaseObject(resolved);
  if (resolved.session !== state.session) {
    throw new Error(
      `Element with uid "${uid}" is inside a cross-site iframe, whose styles get_css_styles cannot read. Use evaluate_script with the uid as an argument and getComputedStyle instead.`,
    );
  }
  const gone = `Element with uid "${uid}" was detached or no longer exists on the page. Take a new snapshot with take_snapshot.`;
  // A session of our own: DOM and CSS agents are enabled only for this call and vanish with it,
  // so the page pays nothing for them afterwards and no other tool's session is disturbed.
  const session = await state.page.createCDPSession();
  try {
    const headers = new Map<string, StyleSheetHeader>();
    session.on('CSS.styleSheetAdded', event =>
      headers.set(event.header.styleSheetId, event.header),
    );
    await session.send('DOM.enable');
    await session.send('DOM.getDocument', {depth: 0});
    const node = await session
      .send('DOM.resolveNode', {backendNodeId: resolved.backendNodeId})
      .catch(() => {
        throw new Error(gone);
      });
    if (!node.object.objectId) {
      throw new Error(gone);
    }
    // Text nodes (what snapshots often point at) are styled through their parent element.
    const elementRef = await callFunctionInPage(
      state,
      {
        objectId: node.object.objectId,
        functionDeclaration:
          'function () { return this.nodeType === Node.ELEMENT_NODE ? this : this.parentElement; }',
      },
      {session, timeoutMs: PROBE_TIMEOUT_MS},
    );
    const elementId = elementRef.result.objectId;
    if (!elementId) {
      throw new Error(
        `Element with uid "${uid}" is not an element node and has no parent element.`,
      );
    }
    const described = await callFunctionInPage(
      state,
      {objectId: elementId, functionDeclaration: DESCRIBE_ELEMENT, returnByValue: true},
      {session, timeoutMs: PROBE_TIMEOUT_MS},
    );
    const element = elementInfoSchema.safeParse(described.result.value);
    if (!element.success) {
      throw new Error(`Could not describe the element with uid "${uid}".`);
    }
    const {nodeId} = await session.send('DOM.requestNode', {objectId: elementId});
    // CSS.enable waits for the page's stylesheets to finish loading: bounded.
    await withTimeout(
      session.send('CSS.enable'),
      actionTimeout(slowdownFeature.get(state)),
      'Timed out waiting for the page stylesheets to load. Retry once the page has finished loading.',
    );
    const matched = await session.send('CSS.getMatchedStylesForNode', {nodeId});
    const usesVariables = JSON.stringify(matched).includes('var(');
    const [containers, computed] = await Promise.all([
      containerLabels(state, session, nodeId, matched),
      usesVariables
        ? session
            .send('CSS.getComputedStyleForNode', {nodeId})
            .then(
              ({computedStyle}) => new Map(computedStyle.map(entry => [entry.name, entry.value])),
            )
        : Promise.resolve(undefined),
    ]);
    let pageOrigin = 'null';
    try {
      pageOrigin = new URL(state.page.url()).origin;
    } catch {
      // about:blank and the like: no origin, full URLs are printed.
    }
    return buildReport(matched, element.data, {headers, pageOrigin}, containers, computed);
  } finally {
    await session.detach().catch(() => undefined);
  }
}

export const getCssStyles = definePageTool({
  name: 'get_css_styles',
  description:
    'CSS rules applying to an element (uid from take_snapshot), highest precedence first, with source lines: inline, matched, inherited and pseudo-element styles, custom properties (var() values resolved), @layer/@media/@container/@scope wrappers. Losing declarations are marked [overloaded]. Paged by rule.',
  category: 'debugging',
  readOnly: true,
  blockedByDialog: true,
  schema: {
    uid: z.string().describe('Element uid from the latest snapshot.'),
    pageSize: z.number().int().positive().default(10).describe('Rules per page.'),
    pageIdx: z.number().int().min(0).default(0).describe('0-based page.'),
  },
  handler: async (call, response) => {
    const report = await collectReport(call.page, call.params.uid);
    response.appendLine(
      renderReport(report, call.params.uid, call.params.pageSize, call.params.pageIdx),
    );
  },
});

export const cssTools: Tool[] = [getCssStyles];
