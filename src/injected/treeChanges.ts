/**
 * In-page side of the change log's take (src/core/browser/snapshot/pageProbe.ts): what changed in
 * one document since the tree the engine keeps of it, as the roots of the subtrees to read again,
 * or why it cannot be scoped (then the whole document is read again). It runs in the isolated
 * world, on the tree probe (common/treeProbe.ts), installing it if needed.
 *
 * A change is scoped when it provably stays inside known subtrees:
 * - DOM mutations: the added nodes, the changed text, the element whose attribute changed (its
 *   subtree), and the child list of the node that gained or lost children. Names computed from
 *   content reach up the ancestors, which the engine reads again on the way (changeRoots.ts).
 * - Relations: an element that names a changed element by id (aria-labelledby, for…) or a
 *   <label> around a changed node with its control is read again too.
 * - State without mutations: the focused element before and after, form values and checkedness,
 *   running animations of properties the tree reflects.
 * - Style: only when no style rule that sets a property the tree reflects (display, visibility,
 *   content…) depends on state (:hover, :focus, :checked…) or on siblings (+, ~, :nth-child…) in
 *   a way the change could reach; :has(), :dir(), container queries and unreadable (cross-origin)
 *   style sheets are never scoped. Any style sheet change, a new URL, a resize, a modal dialog,
 *   aria-owns or custom elements (closed shadow roots, element internals the log cannot see) make
 *   the whole document read again.
 */
import {scopeChanges, unscoped, type ScopedChange} from './common/changeScope.js';
import {
  deepActive,
  eachField,
  fieldState,
  markDirty,
  markFocus,
  type TreeProbe,
} from './common/probeState.js';
import {TREE_PROPERTIES, readStyleRules, type StyleDependence} from './common/styleRules.js';
import {flushProbe, readProbe, treeProbe} from './common/treeProbe.js';

/** The log starts again: the next take sees only what changes after this one. */
function resetLog(probe: TreeProbe): void {
  probe.dirty.clear();
  probe.removed.length = 0;
  probe.removedMany = false;
  probe.removedIds = undefined;
  probe.full = '';
  probe.dynamic = false;
}

function kebabCase(property: string): string {
  return property.replace(/[A-Z]/g, letter => '-' + letter.toLowerCase());
}

/** Running animations of a property the tree reflects: their targets' subtrees. */
function markAnimated(probe: TreeProbe): void {
  for (const animation of document.getAnimations()) {
    const effect = animation.effect;
    const target = effect instanceof KeyframeEffect ? effect.target : null;
    if (!target) {
      continue;
    }
    let reflected =
      animation instanceof CSSTransition && TREE_PROPERTIES.has(animation.transitionProperty);
    if (!reflected && effect instanceof KeyframeEffect) {
      for (const frame of effect.getKeyframes()) {
        for (const key in frame) {
          if (TREE_PROPERTIES.has(kebabCase(key))) {
            reflected = true;
          }
        }
      }
    }
    if (reflected) {
      markDirty(probe, target, 'tree');
    }
  }
}

/**
 * State that changes without a mutation: focus, form values, animations. Whether it may reach
 * style rules that follow such state.
 */
function markStateChanges(probe: TreeProbe): boolean {
  const active = deepActive();
  const focusMoved = active !== probe.focus;
  if (focusMoved) {
    if (probe.focus?.isConnected) {
      markFocus(probe, probe.focus);
    }
    if (active) {
      markFocus(probe, active);
    }
  }
  probe.focus = active;
  let valuesChanged = false;
  eachField(probe, field => {
    const state = fieldState(probe, field);
    const before = probe.fieldStates.get(field);
    if (before !== undefined && before !== state) {
      markDirty(probe, field, 'tree');
      valuesChanged = true;
    }
    probe.fieldStates.set(field, state);
  });
  markAnimated(probe);
  return probe.dynamic || focusMoved || valuesChanged;
}

/**
 * Why the whole document is read again, or '' (the log's own reason comes last); and what the
 * style rules that set a tree property depend on.
 */
function wholeReason(
  probe: TreeProbe,
  expectedEpoch: number,
): {full: string; css: StyleDependence} {
  let full = expectedEpoch !== probe.epoch ? 'no earlier tree' : probe.full;
  const href = location.href;
  const viewport = `${innerWidth}x${innerHeight}`;
  if (!full && href !== probe.href) {
    full = 'the address changed';
  }
  if (!full && viewport !== probe.viewport) {
    full = 'the viewport changed';
  }
  probe.href = href;
  probe.viewport = viewport;
  const sheets = readStyleRules(probe);
  if (!full && sheets.key !== probe.sheetsKey) {
    full = 'style sheets changed';
  }
  probe.sheetsKey = sheets.key;
  const css = sheets.css;
  if (!full && css.never) {
    full = css.never;
  }
  if (!full && probe.custom) {
    full = 'custom elements';
  }
  if (!full && probe.owns) {
    full = 'aria-owns';
  }
  const stateMoved = markStateChanges(probe);
  if (!full && css.dynamic && stateMoved) {
    full = 'style rules that follow hover, focus or form state';
  }
  if (!full && probe.full) {
    full = probe.full;
  }
  return {full, css};
}

/**
 * Takes the change log: `[info, root, anchor, root, anchor…]`, info being JSON
 * `{epoch, reading, full, frames, kinds, elements}` (elements: the document's element count;
 * kinds: one letter per root, `t` subtree, `c` child list, `s` the node itself; an anchor, or
 * null, is a small child of a `c` or `s` root whose ancestors are the root's); `full` is why
 * nothing could be scoped, or ''. A document of more than `wholeReadLimit` elements is answered
 * at once, unscoped (it is not read whole either).
 */
export function takeTreeChanges(
  expectedEpoch: number,
  wholeReadLimit: number,
): (string | Node | null)[] {
  const probe = treeProbe();
  flushProbe(probe);
  const reading = readProbe(probe);
  const elements = document.getElementsByTagName('*').length;
  const answer = ({full, roots, kinds, frames}: ScopedChange): (string | Node | null)[] => {
    resetLog(probe);
    probe.epoch++;
    const info = {epoch: probe.epoch, reading, full, frames, kinds, elements};
    return [JSON.stringify(info), ...roots];
  };
  // Too large to read whole (wholeRead.ts): answer at once, without the style work below.
  if (elements > wholeReadLimit) {
    return answer(unscoped('a very large document'));
  }
  const {full, css} = wholeReason(probe, expectedEpoch);
  return answer(full ? unscoped(full) : scopeChanges(probe, css));
}
