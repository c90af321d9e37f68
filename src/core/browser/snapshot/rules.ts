/**
 * Which nodes the default snapshot shows. It starts from chrome-devtools-mcp's pruning (controls,
 * focusable nodes, landmarks, named leaves) and keeps what an agent acts on that it drops:
 * containers with meaning (dialogs, live regions, tab panels, slides, named groups, iframes),
 * nodes that carry a state (expanded or collapsed, current, selected…), the options of a
 * listbox, and the content of focusable named containers unless it only repeats their name.
 */
import {relatedNodeIds, type TreeNode} from './axTree.js';

const CONTROL_ROLES = new Set([
  'button',
  'checkbox',
  'ColorWell',
  'combobox',
  'DisclosureTriangle',
  'listbox',
  'menu',
  'menubar',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'radio',
  'scrollbar',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'tree',
  'treeitem',
]);

const LEAF_ROLES = new Set([
  'doc-cover',
  'graphics-symbol',
  'img',
  'image',
  'Meter',
  'meter',
  'scrollbar',
  'slider',
  'separator',
  'progressbar',
]);

const TEXT_ROLES = new Set(['LineBreak', 'text', 'InlineTextBox', 'StaticText']);

/** Landmarks give the tree its structure (main, navigation, named regions…). */
const LANDMARK_ROLES = new Set([
  'banner',
  'complementary',
  'contentinfo',
  'form',
  'main',
  'navigation',
  'region',
  'search',
]);

/**
 * Containers an agent needs to see even without a name: where a dialog starts, where status
 * messages appear, which panel a tab shows, the composite widgets arrow keys move within.
 */
const MEANINGFUL_CONTAINERS = new Set([
  'dialog',
  'alertdialog',
  'alert',
  'status',
  'log',
  'marquee',
  'timer',
  'tabpanel',
  'tablist',
  'grid',
  'treegrid',
  'Iframe',
  'progressbar',
  'meter',
]);

/** Containers worth a line when named: a fieldset's legend, a radio group's question. */
const NAMED_CONTAINERS = new Set(['group', 'radiogroup', 'toolbar', 'table', 'figure']);

/** Roles whose nodes are always a document root (the page, or a frame's document). */
export function isDocumentRoot(node: TreeNode): boolean {
  return node.role === 'RootWebArea' || node.role === 'WebArea';
}

function isControl(node: TreeNode): boolean {
  return CONTROL_ROLES.has(node.role);
}

function isTextOnly(node: TreeNode): boolean {
  return TEXT_ROLES.has(node.role);
}

function isPlainTextField(node: TreeNode): boolean {
  return !node.richlyEditable && (node.role === 'textbox' || node.role === 'searchbox');
}

/** Whether the node is hidden from the agent (ignored by the AX tree, or hidden). */
function isHidden(node: TreeNode): boolean {
  if (node.ariaHidden) {
    return false;
  }
  return node.ignored || node.hidden || node.role === 'Ignored';
}

/** A state worth a line of its own even on a node that is otherwise plain structure. */
function carriesState(node: TreeNode): boolean {
  if (node.current !== undefined || node.sort !== undefined || node.active) {
    return true;
  }
  const expanded = node.properties.get('expanded');
  if (expanded !== undefined) {
    return true;
  }
  if (node.properties.get('selected')?.value === true) {
    return true;
  }
  const live: unknown = node.properties.get('live')?.value;
  if (typeof live === 'string' && live !== 'off') {
    return true;
  }
  return (
    node.properties.get('modal')?.value === true ||
    node.properties.get('busy')?.value === true ||
    node.properties.has('roledescription') ||
    node.properties.has('errormessage')
  );
}

/**
 * What one selection learns about subtrees, remembered for that selection only: a kept tree's
 * nodes outlive it, and their subtrees may have changed by the next one.
 */
interface Facts {
  leaf: Map<TreeNode, boolean>;
  focusableBelow: Map<TreeNode, boolean>;
}

function hasFocusableDescendant(node: TreeNode, facts: Facts): boolean {
  const cached = facts.focusableBelow.get(node);
  if (cached !== undefined) {
    return cached;
  }
  let found = false;
  for (const child of node.children) {
    if (child.focusable || hasFocusableDescendant(child, facts)) {
      found = true;
      break;
    }
  }
  facts.focusableBelow.set(node, found);
  return found;
}

const squash = (text: string): string => text.replace(/\s+/g, '').toLowerCase();

/**
 * The descendants only spell out the node's own name: plain text and unnamed wrappers whose text
 * is part of the name. An image, a state or any other role below means the content says more.
 */
function contentRepeatsName(node: TreeNode): boolean {
  const name = squash(node.name);
  let text = '';
  const walk = (current: TreeNode): boolean => {
    for (const child of current.children) {
      if (isHidden(child)) {
        continue;
      }
      if (isTextOnly(child)) {
        if (child.role === 'StaticText') {
          text += child.name;
        }
        continue;
      }
      const plainWrapper =
        (child.role === 'generic' || child.role === 'none' || child.role === 'paragraph') &&
        !carriesState(child);
      if (!plainWrapper || !walk(child)) {
        return false;
      }
    }
    return true;
  };
  return walk(node) && name.includes(squash(text));
}

/** A node whose children add nothing for an agent (a link's text, a heading's text…). */
function isLeaf(node: TreeNode, facts: Facts): boolean {
  const cached = facts.leaf.get(node);
  if (cached !== undefined) {
    return cached;
  }
  const leaf = computeLeaf(node, facts);
  facts.leaf.set(node, leaf);
  return leaf;
}

function computeLeaf(node: TreeNode, facts: Facts): boolean {
  if (node.children.length === 0) {
    return true;
  }
  if (isPlainTextField(node) || isTextOnly(node) || LEAF_ROLES.has(node.role)) {
    return true;
  }
  if (node.role === 'Iframe' || isDocumentRoot(node) || hasFocusableDescendant(node, facts)) {
    return false;
  }
  if ((node.focusable || node.role === 'heading') && node.name !== '') {
    return contentRepeatsName(node);
  }
  return false;
}

function isInteresting(node: TreeNode, insideControl: boolean, facts: Facts): boolean {
  if (isHidden(node)) {
    return false;
  }
  if (node.focusable || node.richlyEditable || isControl(node)) {
    return true;
  }
  if (LANDMARK_ROLES.has(node.role) || MEANINGFUL_CONTAINERS.has(node.role)) {
    return true;
  }
  if (node.role === 'option' || carriesState(node)) {
    return true;
  }
  // A table row whose cells hold controls ("Edit" in every row) says which record a control is for.
  if (node.role === 'row' && hasFocusableDescendant(node, facts)) {
    return true;
  }
  if (NAMED_CONTAINERS.has(node.role) && node.name !== '') {
    return true;
  }
  if (insideControl) {
    return false;
  }
  return isLeaf(node, facts) && node.name !== '';
}

/** The text of a label, as its static text nodes spell it (not the text of a field inside it). */
function textOf(node: TreeNode): string {
  if (node.role === 'StaticText') {
    return node.name;
  }
  return node.children
    .filter(child => !isControl(child) && !child.focusable)
    .map(textOf)
    .join('');
}

/**
 * Labels whose text the control they label already carries as its name (`<label>Email <input>`
 * gives `textbox "Email"`): printing the label's text too would only say it twice.
 */
export function redundantLabels(byBackendId: ReadonlyMap<number, TreeNode>): Set<TreeNode> {
  const labels = new Set<TreeNode>();
  for (const node of byBackendId.values()) {
    const labelledBy = node.properties.get('labelledby');
    const name = labelledBy === undefined ? '' : squash(node.name);
    if (name === '') {
      continue;
    }
    for (const id of relatedNodeIds(labelledBy)) {
      const label = byBackendId.get(id);
      if (label?.role === 'LabelText' && name.includes(squash(textOf(label)))) {
        labels.add(label);
      }
    }
  }
  return labels;
}

/** The nodes the default snapshot shows. */
export function selectInteresting(
  root: TreeNode,
  quietLabels: ReadonlySet<TreeNode> = new Set(),
): Set<TreeNode> {
  const shown = new Set<TreeNode>();
  const facts: Facts = {leaf: new Map(), focusableBelow: new Map()};
  const mark = (node: TreeNode, insideControl: boolean, inQuietLabel: boolean): void => {
    const quiet = inQuietLabel || quietLabels.has(node);
    if (isInteresting(node, insideControl, facts) && !(quiet && isTextOnly(node))) {
      shown.add(node);
    }
    if (isLeaf(node, facts) && !isDocumentRoot(node)) {
      return;
    }
    const inside = insideControl || isControl(node);
    for (const child of node.children) {
      mark(child, inside, quiet);
    }
  };
  mark(root, false, false);
  shown.add(root);
  return shown;
}
