/**
 * The get_css_styles report of one element: its own blocks highest precedence first, then what it
 * inherits from each ancestor, its pseudo-elements, @keyframes and @property rules, each
 * declaration marked active or overloaded.
 */
import type {Protocol} from 'puppeteer-core';
import {
  isInherited,
  markStatus,
  PASS_THROUGH,
  resolveCascade,
  type Candidate,
  type StyleBlock,
} from './cascade.js';
import {
  cleanText,
  declarationsOf,
  elementBlocks,
  sourceOf,
  type SourceContext,
} from './styleBlocks.js';

export interface ElementInfo {
  selector: string;
  ancestors: string[];
}

export interface CssReport {
  element: string;
  blocks: StyleBlock[];
}

type MatchedStyles = Protocol.CSS.GetMatchedStylesForNodeResponse;

/** What reading one element's blocks needs besides the rules: sources and @container labels. */
interface BlockContext {
  source: SourceContext;
  containers: ReadonlyMap<string, string>;
}

/** Not a block of the cascade: its declarations are shown as written, never overloaded. */
const OUTSIDE_CASCADE = {userAgent: false, inline: false, layerRank: Number.POSITIVE_INFINITY};

export function buildReport(
  matched: MatchedStyles,
  element: ElementInfo,
  context: SourceContext,
  containers: ReadonlyMap<string, string>,
  computed: ReadonlyMap<string, string> | undefined,
): CssReport {
  const blockContext: BlockContext = {source: context, containers};
  const tagName = element.selector.split(/[#.[]/)[0] ?? '';
  const own = elementBlocks(
    matched.matchedCSSRules ?? [],
    matched.inlineStyle,
    matched.attributesStyle,
    tagName,
    context,
    containers,
  );
  const ownWinners = resolveCascade(own);
  const output: StyleBlock[] = [
    ...[...own].reverse(),
    ...inheritedBlocks(matched, element, blockContext, ownWinners),
  ];
  if (computed) {
    resolveVariables(output, computed);
  }
  output.push(
    ...pseudoElementBlocks(matched, blockContext),
    ...keyframesBlocks(matched, context),
    ...propertyBlocks(matched, context),
  );
  return {element: element.selector, blocks: mergeUserAgentRuns(output)};
}

/** Custom properties registered with `inherits: false` (@property or CSS.registerProperty). */
function nonInheritingCustomProperties(matched: MatchedStyles): Set<string> {
  const names = new Set<string>();
  for (const registration of matched.cssPropertyRegistrations ?? []) {
    if (!registration.inherits) {
      names.add(registration.propertyName);
    }
  }
  for (const rule of matched.cssPropertyRules ?? []) {
    const inherits = rule.style.cssProperties.find(property => property.name === 'inherits');
    if (inherits?.value.trim() === 'false') {
      names.add(rule.propertyName.text);
    }
  }
  return names;
}

/**
 * What the element inherits, nearest ancestor first: an ancestor's winning declaration of an
 * inherited property is active only if no nearer element sets that property.
 */
function inheritedBlocks(
  matched: MatchedStyles,
  element: ElementInfo,
  context: BlockContext,
  ownWinners: ReadonlyMap<string, Candidate>,
): StyleBlock[] {
  const nonInheriting = nonInheritingCustomProperties(matched);
  const inherited = (name: string): boolean => isInherited(name, nonInheriting);
  const setCloser = new Set<string>();
  const addWinners = (winners: ReadonlyMap<string, Candidate>): void => {
    for (const [name, candidate] of winners) {
      if (!PASS_THROUGH.has(candidate.value.trim())) {
        setCloser.add(name);
      }
    }
  };
  addWinners(ownWinners);
  const output: StyleBlock[] = [];
  (matched.inherited ?? []).forEach((entry, level) => {
    const blocks = elementBlocks(
      entry.matchedCSSRules,
      entry.inlineStyle,
      undefined,
      '',
      context.source,
      context.containers,
    );
    const winners = resolveCascade(blocks);
    const group = `Inherited from ${element.ancestors[level] ?? `ancestor ${level + 1}`}:`;
    for (const block of [...blocks].reverse()) {
      const inheritable = block.declarations.filter(declaration =>
        declaration.longhands.some(longhand => inherited(longhand.name)),
      );
      for (const declaration of inheritable) {
        declaration.longhands = declaration.longhands.filter(longhand => inherited(longhand.name));
        markStatus(
          declaration,
          name => winners.get(name)?.declaration === declaration && !setCloser.has(name),
        );
      }
      if (inheritable.length > 0) {
        output.push({...block, group, declarations: inheritable});
      }
    }
    addWinners(new Map([...winners].filter(([name]) => inherited(name))));
  });
  return output;
}

/** Winning declarations that use var() show their computed value. */
function resolveVariables(
  blocks: readonly StyleBlock[],
  computed: ReadonlyMap<string, string>,
): void {
  for (const block of blocks) {
    for (const declaration of block.declarations) {
      const value = computed.get(declaration.name);
      if (declaration.status === 'active' && declaration.value.includes('var(') && value) {
        declaration.resolved = value;
      }
    }
  }
}

/** Pseudo-elements: each has its own cascade. */
function pseudoElementBlocks(matched: MatchedStyles, context: BlockContext): StyleBlock[] {
  const output: StyleBlock[] = [];
  for (const pseudo of matched.pseudoElements ?? []) {
    const name = `::${pseudo.pseudoType}${pseudo.pseudoIdentifier ? `(${pseudo.pseudoIdentifier})` : ''}`;
    const blocks = elementBlocks(
      pseudo.matches,
      undefined,
      undefined,
      '',
      context.source,
      context.containers,
    );
    resolveCascade(blocks);
    for (const block of [...blocks].reverse()) {
      output.push({...block, group: `Pseudo-element ${name}:`});
    }
  }
  return output;
}

function keyframesBlocks(matched: MatchedStyles, context: SourceContext): StyleBlock[] {
  return (matched.cssKeyframesRules ?? []).map(keyframes => {
    const first = keyframes.keyframes[0];
    const source = first
      ? sourceOf(first.origin, first.styleSheetId, first.keyText.range?.startLine, context)
      : undefined;
    return {
      selector: `@keyframes ${cleanText(keyframes.animationName.text)}`,
      ...(source === undefined ? {} : {source}),
      wrappers: [],
      declarations: [],
      children: keyframes.keyframes.map(step => ({
        selector: cleanText(step.keyText.text),
        declarations: declarationsOf(step.style),
      })),
      ...OUTSIDE_CASCADE,
    };
  });
}

/** @property rules as written, then properties registered from script (CSS.registerProperty). */
function propertyBlocks(matched: MatchedStyles, context: SourceContext): StyleBlock[] {
  const rules = (matched.cssPropertyRules ?? []).map((rule): StyleBlock => {
    const source = sourceOf(
      rule.origin,
      rule.styleSheetId,
      rule.propertyName.range?.startLine,
      context,
    );
    return {
      selector: `@property ${cleanText(rule.propertyName.text)}`,
      ...(source === undefined ? {} : {source}),
      wrappers: [],
      declarations: declarationsOf(rule.style),
      ...OUTSIDE_CASCADE,
    };
  });
  const registrations = (matched.cssPropertyRegistrations ?? []).map((registration): StyleBlock => {
    const fields: [string, string][] = [
      ['syntax', JSON.stringify(registration.syntax)],
      ['inherits', String(registration.inherits)],
      ...(registration.initialValue
        ? [['initial-value', registration.initialValue.text] satisfies [string, string]]
        : []),
    ];
    return {
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
      ...OUTSIDE_CASCADE,
    };
  });
  return [...rules, ...registrations];
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
