/**
 * The CSS cascade of one element, computed from the browser's rule order: which declaration wins
 * each longhand, including what DevTools' own panel gets wrong — `!important` reverses the order
 * of cascade layers and origins. The data model of get_css_styles lives here too.
 */

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
export const PASS_THROUGH = new Set(['inherit', 'unset']);

export type DeclarationStatus = 'active' | 'overloaded' | 'invalid' | 'disabled';

export interface Declaration {
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

export interface StyleBlock {
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

export interface Candidate {
  block: number;
  index: number;
  declaration: Declaration;
  value: string;
  important: boolean;
}

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
export function resolveCascade(blocks: readonly StyleBlock[]): Map<string, Candidate> {
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

export function markStatus(declaration: Declaration, wins: (longhand: string) => boolean): void {
  if (declaration.status === 'invalid' || declaration.status === 'disabled') {
    return;
  }
  const lost = declaration.longhands.filter(longhand => !wins(longhand.name));
  declaration.status = lost.length === declaration.longhands.length ? 'overloaded' : 'active';
  declaration.overriddenParts =
    declaration.status === 'active' ? lost.map(longhand => longhand.name) : [];
}

export function isInherited(name: string, nonInheritingCustom: ReadonlySet<string>): boolean {
  return name.startsWith('--') ? !nonInheritingCustom.has(name) : INHERITED_PROPERTIES.has(name);
}
