/**
 * The browser's matched styles (CSS domain) as style blocks: declarations as written, the rule's
 * source line, its @media/@container/@layer/@scope/@supports wrappers and its cascade layer.
 */
import type {Protocol} from 'puppeteer-core';
import type {Declaration, StyleBlock} from './cascade.js';

type CSSStyle = Protocol.CSS.CSSStyle;
type CSSProperty = Protocol.CSS.CSSProperty;
type CSSRule = Protocol.CSS.CSSRule;
type RuleMatch = Protocol.CSS.RuleMatch;
type StyleSheetHeader = Protocol.CSS.CSSStyleSheetHeader;

const MAX_VALUE_CHARS = 300;
const MAX_URL_CHARS = 100;

export function cleanText(text: string, limit = MAX_VALUE_CHARS): string {
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
export function declarationsOf(style: CSSStyle): Declaration[] {
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

export interface SourceContext {
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

export function sourceOf(
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

export function containerKey(query: Protocol.CSS.CSSContainerQuery): string {
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
export function elementBlocks(
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
