/**
 * In-page source of the change log's take: what changed in one document since the tree the engine
 * keeps of it, as the roots of the subtrees to read again, or why it cannot be scoped (then the
 * whole document is read again). It runs in the isolated world, on the probe of probeScript.ts.
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
import {IDREF_ATTRIBUTES, PROBE} from './probeScript.js';

/** Style properties whose value the accessibility tree reflects. */
const TREE_PROPERTIES = [
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
];

/**
 * Elements above which a document is not read whole (wholeRead.ts; the default of a page's
 * snapshotBounds.ts): about two accessibility nodes of ~450 bytes of JSON each per element, so
 * ~100 MB of reply and minutes of the page's main thread.
 */
export const WHOLE_READ_ELEMENT_LIMIT = 120_000;
/** Most style rules read before a document counts as too large to analyse. */
const RULE_LIMIT = 20_000;
/** Most subtree roots a scoped change may have. */
const ROOT_LIMIT = 150;
/** Elements below the roots a scoped change may cover (or this share of the document). */
const ELEMENT_LIMIT = 600;
const ELEMENT_SHARE = 0.1;

/**
 * `take(expectedEpoch, elementLimit)` returns `[info, root, anchor, root, anchor…]`: info is JSON
 * `{epoch, reading, full, frames, kinds, elements}` (elements: the document's element count) (kinds: one letter per root, `t` subtree, `c` child list,
 * `s` the node itself; an anchor, or null, is a small child of a `c` or `s` root whose ancestors
 * are the root's); `full` is why nothing could be scoped, or ''.
 */
export function takeChangesExpression(expectedEpoch: number, elementLimit: number): string {
  return `(() => {
  const probe = ${PROBE};
  if (!probe.take) probe.take = (${TAKE})(probe);
  return probe.take(${expectedEpoch}, ${elementLimit});
})()`;
}

/** From the dirty nodes to the roots: relations, labels, siblings, deduplication, size. */
const SCOPE = `(probe, {css, parentOf, holdsFrame, IDREF, IDREF_SELECTOR, answer}) => {
  const dirty = probe.dirty;
  // Siblings may match rules through + ~ :nth-child: an attribute change reaches them.
  if (css.structural) {
    for (const [node, kind] of [...dirty]) {
      if (kind === 'attr' && node.parentNode) for (const sibling of node.parentNode.children) if (dirty.get(sibling) !== 'attr') probe.mark(sibling, 'tree');
    }
  }
  // Relations: labels around a changed node name their control; ids name other elements.
  const LABELABLE = 'button,input,meter,output,progress,select,textarea';
  const referrers = [];
  for (const root of probe.roots) {
    if (root !== document && !root.host.isConnected) continue;
    referrers.push(...root.querySelectorAll(IDREF_SELECTOR));
  }
  const ids = new Set(probe.removedIds || []);
  const collect = el => { if (el.id) ids.add(el.id); };
  if (referrers.length > 0) {
    if (probe.removedMany) return answer('many removed elements', [], '', false);
    for (const el of probe.removed) { collect(el); for (const inner of el.querySelectorAll('[id]')) collect(inner); }
  }
  for (const [node, kind] of [...dirty]) {
    if (!node.isConnected) continue;
    if (referrers.length > 0 && kind !== 'self' && node.nodeType === 1) {
      for (const inner of node.querySelectorAll('[id]')) { collect(inner); if (ids.size > 2000) return answer('many ids', [], '', false); }
    }
    for (let el = node, depth = 0; el && depth < 512; el = parentOf(el), depth++) {
      if (el.nodeType !== 1) continue;
      if (referrers.length > 0) collect(el);
      if (el.localName === 'label') {
        // Its control, and every control inside it: one that stopped being the first labelable
        // descendant (a field inserted before it) loses the label's name.
        if (el.control) probe.mark(el.control, 'self');
        let count = 0;
        for (const control of el.querySelectorAll(LABELABLE)) { if (++count > 50) break; probe.mark(control, 'self'); }
      }
    }
  }
  if (ids.size > 0) {
    for (const el of referrers) {
      for (const name of IDREF) {
        const value = el.getAttribute(name);
        if (value && value.split(/\\s+/).some(token => ids.has(token))) { probe.mark(el, 'tree'); break; }
      }
    }
  }
  if (probe.full) return answer(probe.full, [], '', false);
  // Where each change is read. Text flows with the text around it in its line (spaces collapse
  // across elements), so a text change, or an element that may have left or joined a line, is
  // read with the whole block that holds the line.
  const html = document.documentElement;
  const flatParent = node => node.assignedSlot || parentOf(node);
  const displayOf = el => getComputedStyle(el).display;
  // Replaced elements and form controls are atomic even when display says inline.
  const ATOMIC = /^(img|iframe|video|audio|canvas|embed|object|input|button|select|textarea|svg|math|meter|progress)$/;
  const flows = el => {
    if (ATOMIC.test(el.localName)) return false;
    const display = displayOf(el);
    return display === 'inline' || display === 'contents' || display.startsWith('ruby');
  };
  const lineOf = node => {
    let el = flatParent(node);
    for (let depth = 0; el && el.nodeType === 1 && el !== html && depth < 512 && flows(el); depth++) el = flatParent(el);
    return el && el.nodeType === 1 ? el : html;
  };
  // Text that can run into a neighbour: spaces collapse across inline boxes, not across atomic
  // ones (a button, an image, an iframe) or blocks, whose whitespace-only neighbours the child
  // lists show.
  // Counted as the tree shows them: whitespace between rows or list items is not a child there
  // (a 2,000-row tbody has 4,001 child nodes), so only elements and text count toward the bound.
  const inlineChildren = el => {
    let counted = 0;
    let seen = 0;
    for (const child of el.childNodes) {
      if (++seen > 20000) return true;
      if (child.nodeType === 3) {
        if (/\\S/.test(child.data)) return true;
      } else if (child.nodeType === 1) {
        if (++counted > 3000 || flows(child)) return true;
      }
    }
    return false;
  };
  // Elements whose accessibility children are not simply their DOM children.
  const OWN_STRUCTURE = /^(select|details|datalist|optgroup|fieldset|video|audio|picture|object|textarea|input|meter|progress|ol|ul|menu|map|ruby)$/;
  // Table cells, rows or sections outside their table get anonymous table boxes that reach
  // their siblings: not scoped.
  const TABLE_PART = /^(td|th|tr|tbody|thead|tfoot|caption|col|colgroup)$/;
  const TABLE_HOLDER = /^(table|tbody|thead|tfoot|tr|colgroup)$/;
  const misplacedParts = el => {
    if (!el || el.nodeType !== 1 || TABLE_HOLDER.test(el.localName) || el.children.length > 3000) return false;
    for (const child of el.children) if (TABLE_PART.test(child.localName)) return true;
    return false;
  };
  const RANK = {self: 1, children: 2, tree: 3};
  const where = new Map();
  const put = (node, kind) => { const had = where.get(node); if (!had || RANK[kind] > RANK[had]) where.set(node, kind); };
  for (const [node, kind] of dirty) {
    if (!node.isConnected) continue;
    if (document.head && document.head.contains(node)) { put(html, 'children'); continue; }
    if (kind !== 'self' && (misplacedParts(kind === 'children' ? node : flatParent(node)))) {
      return answer('table parts outside a table', [], '', false);
    }
    if (kind === 'text') {
      put(lineOf(node), 'tree');
    } else if (kind === 'attr') {
      put(node, 'tree');
      const parent = flatParent(node);
      if (parent && parent.nodeType === 1 && (flows(parent) || inlineChildren(parent))) put(lineOf(node), 'tree');
    } else if (kind === 'children') {
      if (node.nodeType !== 1) continue;
      if (node.shadowRoot || OWN_STRUCTURE.test(node.localName)) put(node, 'tree');
      else if (flows(node)) put(lineOf(node), 'tree');
      else if (inlineChildren(node)) put(node, 'tree');
      else put(node, 'children');
    } else if (kind === 'self' && node.nodeType === 1 && OWN_STRUCTURE.test(node.localName)) {
      // Focus on a <select> marks the option its popup shows as active.
      put(node, 'tree');
    } else {
      put(node, kind);
    }
  }
  // A node of a child list or a node read alone: a small child of it leads to its ancestors.
  const anchorOf = node => {
    if (node.nodeType !== 1) return null;
    let count = 0;
    for (let child = node.firstChild; child && count < 20; child = child.nextSibling, count++) {
      if (child.nodeType === 3 ? /\\S/.test(child.data) : child.nodeType === 1 && child.childElementCount <= 20) return child;
    }
    return node.firstChild;
  };
  // Deduplicate: a node under a subtree root is read with it.
  const out = [];
  let kinds = '';
  let elements = 0;
  let frames = false;
  for (const [node, kind] of where) {
    if (kind === 'tree' && (node === html || node === document.body)) return answer('the whole document', [], '', false);
    let covered = false;
    for (let up = parentOf(node), depth = 0; up && depth < 512; up = parentOf(up), depth++) {
      if (where.get(up) === 'tree') { covered = true; break; }
    }
    if (covered) continue;
    out.push(node, kind === 'tree' ? null : anchorOf(node));
    kinds += kind === 'tree' ? 't' : kind === 'children' ? 'c' : 's';
    if (kind === 'tree' && node.nodeType === 1) {
      elements += 1 + node.getElementsByTagName('*').length;
      if (holdsFrame(node)) frames = true;
    }
  }
  const total = document.getElementsByTagName('*').length;
  if (kinds.length > ${ROOT_LIMIT} || elements > Math.max(${ELEMENT_LIMIT}, total * ${ELEMENT_SHARE})) {
    return answer('a large change', [], '', false);
  }
  return answer('', out, kinds, frames);
}`;

const TAKE = `probe => {
  const TREE_PROPERTIES = new Set(${JSON.stringify(TREE_PROPERTIES)});
  const IDREF = ${JSON.stringify(IDREF_ATTRIBUTES)};
  const IDREF_SELECTOR = IDREF.map(name => '[' + name + ']').join(',');
  const DYNAMIC = /:(hover|active|focus|target|checked|indeterminate|placeholder-shown|valid|invalid|user-valid|user-invalid|in-range|out-of-range|default|autofill|-webkit-autofill|popover-open|open|closed|modal|fullscreen|picture-in-picture|playing|paused|seeking|buffering|stalled|muted|volume-locked|state\\(|current|past|future|blank|has-slotted)/;
  const STRUCTURAL = /[+~]|:(nth-|first-child|last-child|only-child|first-of-type|last-of-type|only-of-type)/;
  const NEVER = /:(has|dir)\\(/;
  const parentOf = node => {
    const parent = node.parentNode;
    return parent && parent.nodeType === 11 ? parent.host : parent;
  };
  const sheetsOf = () => {
    const sheets = [...(document.adoptedStyleSheets || [])];
    for (const root of probe.roots) {
      if (root !== document && !root.host.isConnected) continue;
      sheets.push(...root.styleSheets, ...(root.adoptedStyleSheets || []));
    }
    return sheets;
  };
  // One pass over every rule: a key that changes with any rule text (CSSOM edits included), and
  // what the rules that set a tree property depend on.
  const readSheets = () => {
    let h = 0x811c9dc5;
    const mix = text => {
      const s = String(text);
      for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
      h ^= 10; h = Math.imul(h, 16777619);
    };
    const css = {dynamic: false, structural: false, never: '', rules: 0};
    const visitRules = (rules, depth, inContainer) => {
      for (const rule of rules) {
        if (++css.rules > ${RULE_LIMIT}) { css.never = 'too many style rules'; return; }
        mix(rule.cssText);
        if (rule.styleSheet && depth < 8) visitSheet(rule.styleSheet, depth + 1);
        const container = inContainer || rule.constructor.name === 'CSSContainerRule';
        if (rule.style && rule.selectorText !== undefined) {
          let reflected = false;
          for (let i = 0; i < rule.style.length; i++) if (TREE_PROPERTIES.has(rule.style[i])) { reflected = true; break; }
          if (reflected) {
            const selector = rule.selectorText;
            if (NEVER.test(selector)) css.never = 'style rules with :has() or :dir()';
            if (container) css.never = 'container queries';
            if (rule.style.getPropertyValue('content-visibility')) css.never = 'content-visibility';
            if (DYNAMIC.test(selector)) css.dynamic = true;
            if (STRUCTURAL.test(selector)) css.structural = true;
          }
        }
        if (rule.cssRules && depth < 16) visitRules(rule.cssRules, depth + 1, container);
      }
    };
    const visitSheet = (sheet, depth) => {
      mix((sheet.disabled ? 'off ' : 'on ') + (sheet.media ? sheet.media.mediaText : ''));
      let rules;
      try { rules = sheet.cssRules; } catch { css.never = 'a cross-origin style sheet'; mix(sheet.href); return; }
      visitRules(rules, depth, false);
    };
    for (const sheet of sheetsOf()) visitSheet(sheet, 0);
    return {key: String(h >>> 0) + ':' + css.rules, css};
  };
  const isFrame = el => el.nodeType === 1 && /^(iframe|frame|object|embed)$/.test(el.localName);
  const holdsFrame = el => {
    if (el.nodeType !== 1) return false;
    if (isFrame(el) || el.querySelector('iframe,frame,object,embed')) return true;
    for (const root of probe.roots) if (root !== document && el.contains(root.host) && root.querySelector('iframe,frame,object,embed')) return true;
    return false;
  };
  const reset = () => {
    probe.dirty.clear();
    probe.removed.length = 0;
    probe.removedMany = false;
    probe.removedIds = undefined;
    probe.full = '';
    probe.dynamic = false;
  };
  return (expected, elementLimit) => {
    probe.flush();
    const reading = probe.read();
    const elements = document.getElementsByTagName('*').length;
    const answer = (full, roots, kinds, frames) => {
      reset();
      probe.epoch++;
      return [JSON.stringify({epoch: probe.epoch, reading, full, frames, kinds, elements}), ...roots];
    };
    // Too large to read whole (wholeRead.ts): answer at once, without the style work below.
    if (elements > elementLimit) return answer('a very large document', [], '', false);
    let full = expected !== probe.epoch ? 'no earlier tree' : probe.full;
    const href = location.href;
    const viewport = innerWidth + 'x' + innerHeight;
    if (!full && href !== probe.href) full = 'the address changed';
    if (!full && viewport !== probe.viewport) full = 'the viewport changed';
    probe.href = href;
    probe.viewport = viewport;
    const sheets = readSheets();
    if (!full && sheets.key !== probe.sheetsKey) full = 'style sheets changed';
    probe.sheetsKey = sheets.key;
    const css = sheets.css;
    if (!full && css.never) full = css.never;
    if (!full && probe.custom) full = 'custom elements';
    if (!full && probe.owns) full = 'aria-owns';
    // State that changes without a mutation: focus, form values, animations.
    const active = probe.deepActive();
    const focusMoved = active !== probe.focus;
    if (focusMoved) {
      if (probe.focus && probe.focus.isConnected) probe.markFocus(probe.focus);
      if (active) probe.markFocus(active);
    }
    probe.focus = active;
    let valuesChanged = false;
    probe.eachField(el => {
      const state = probe.fieldState(el);
      const before = probe.fieldStates.get(el);
      if (before !== undefined && before !== state) { probe.mark(el, 'tree'); valuesChanged = true; }
      probe.fieldStates.set(el, state);
    });
    for (const animation of document.getAnimations()) {
      const effect = animation.effect;
      const target = effect && effect.target;
      if (!target) continue;
      let reflected = animation.transitionProperty !== undefined && TREE_PROPERTIES.has(animation.transitionProperty);
      if (!reflected && effect.getKeyframes) {
        for (const frame of effect.getKeyframes()) for (const key in frame) if (TREE_PROPERTIES.has(key.replace(/[A-Z]/g, c => '-' + c.toLowerCase()))) reflected = true;
      }
      if (reflected) probe.mark(target.element || target, 'tree');
    }
    if (!full && css.dynamic && (probe.dynamic || focusMoved || valuesChanged)) full = 'style rules that follow hover, focus or form state';
    if (!full && probe.full) full = probe.full;
    if (full) return answer(full, [], '', false);
    return (${SCOPE})(probe, {css, parentOf, holdsFrame, IDREF, IDREF_SELECTOR, answer});
  };
}`;
