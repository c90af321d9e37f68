/**
 * The accessibility tree of one document as linked nodes, built from `Accessibility.getFullAXTree`
 * (or, for the parts that changed, from partial reads: changeRoots.ts), with only the properties
 * the snapshot rules and the line format read, so a kept tree stays small.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';

export type AXNode = Protocol.Accessibility.AXNode;
type AXValue = Protocol.Accessibility.AXValue;

/** What a node's grid marks say (gridOrder.ts reads and prints them). */
export interface GridPlace {
  /** aria-rowindex, for ordering; `rowShown` when it is printed too. */
  rowIndex?: number;
  rowShown?: boolean;
  colIndex?: number;
  rowCount?: number;
  colCount?: number;
}

/** The document a node belongs to: uids remember it so tools act on the right target. */
export interface DocumentRef {
  cdp: CDPSession;
  frameId: string;
  loaderId: string;
}

export interface TreeNode {
  /** The accessibility node id (equal for the same node in full and partial reads). */
  id: string;
  backendId: number | undefined;
  ignored: boolean;
  role: string;
  name: string;
  /** The node's value as text ('' when none). */
  value: string;
  description: string;
  /** The name was computed from the node's content. */
  nameFromContents: boolean;
  children: TreeNode[];
  parent: TreeNode | undefined;
  doc: DocumentRef;
  /** Property values by name (`expanded`, `checked`, `activedescendant`…): the ones read. */
  properties: ReadonlyMap<string, AXValue>;
  focusable: boolean;
  /** Rich-text editable (contenteditable). */
  richlyEditable: boolean;
  hidden: boolean;
  /** `aria-current` other than "false" (not in the AX properties, read from the DOM). */
  current?: string | undefined;
  /** `aria-sort` other than "none" (read from the DOM). */
  sort?: string | undefined;
  /** `aria-valuetext` from the DOM, for when the AX property is empty. */
  valueText?: string | undefined;
  /** Its place in a grid, from aria-rowindex and its kin in the DOM (gridOrder.ts). */
  grid?: GridPlace | undefined;
  /**
   * Set for a control that aria-hidden takes out of the AX tree while it stays visible and
   * clickable: its role and name as the DOM gives them.
   */
  ariaHidden?: {role: string; name: string} | undefined;
  /** The active descendant of its listbox, combobox, grid or tree. */
  active: boolean;
  /** The line after the uid, kept while the node and the page's address stay the same. */
  line?: {key: string; text: string} | undefined;
  /** What its uid stands for (made once per node: a snapshot hands out thousands). */
  target?: {backendNodeId: number; frameId: string; loaderId: string; cdp: CDPSession; key: string};
}

/** The properties the rules (rules.ts) and the line format (format.ts) read. */
const READ_PROPERTIES = new Set([
  'activedescendant',
  'autocomplete',
  'busy',
  'checked',
  'disabled',
  'editable',
  'errormessage',
  'expanded',
  'focusable',
  'focused',
  'hasPopup',
  'hidden',
  'invalid',
  'keyshortcuts',
  'labelledby',
  'level',
  'live',
  'modal',
  'multiline',
  'multiselectable',
  'orientation',
  'pressed',
  'readonly',
  'required',
  'roledescription',
  'selected',
  'url',
  'valuemax',
  'valuemin',
  'valuetext',
]);

/**
 * Most nodes (text, plain containers) have no property the snapshot reads, nor children: they
 * share these (a kept tree is tens of thousands of nodes per tab).
 */
const NO_PROPERTIES: ReadonlyMap<string, AXValue> = new Map();
/** Never pushed to: children are added through addChild only. */
const NO_CHILDREN: TreeNode[] = [];

/** Adds a child to a node (the first one gets the node its own list). */
export function addChild(node: TreeNode, child: TreeNode): void {
  if (node.children === NO_CHILDREN) {
    node.children = [];
  }
  node.children.push(child);
}

export function axString(value: AXValue | undefined): string {
  const raw: unknown = value?.value;
  if (typeof raw === 'string') {
    return raw;
  }
  if (typeof raw === 'number' || typeof raw === 'boolean') {
    return String(raw);
  }
  return '';
}

/** The backend node ids a relation property (activedescendant, controls…) points at. */
export function relatedNodeIds(value: AXValue | undefined): number[] {
  return (value?.relatedNodes ?? []).map(related => related.backendDOMNodeId);
}

function nameFromContents(ax: AXNode): boolean {
  const used = (ax.name?.sources ?? []).find(
    source =>
      source.superseded !== true &&
      (source.value !== undefined || source.attributeValue !== undefined),
  );
  return used?.type === 'contents';
}

/**
 * One node, unlinked. An ignored node reads as role `none` without a name, as the full tree gives
 * it (a partial read names its role and name).
 */
export function toTreeNode(ax: AXNode, doc: DocumentRef): TreeNode {
  let properties: Map<string, AXValue> | undefined;
  for (const property of ax.properties ?? []) {
    if (!READ_PROPERTIES.has(property.name)) {
      continue;
    }
    properties ??= new Map();
    const related = property.value.relatedNodes;
    const value: unknown = property.value.value;
    properties.set(property.name, {
      type: property.value.type,
      value,
      ...(related ? {relatedNodes: related.map(({backendDOMNodeId}) => ({backendDOMNodeId}))} : {}),
    });
  }
  const ignored = ax.ignored;
  return {
    id: ax.nodeId,
    backendId: ax.backendDOMNodeId,
    ignored,
    role: ignored ? 'none' : axString(ax.role) || 'Unknown',
    name: ignored ? '' : axString(ax.name),
    value: axString(ax.value),
    description: axString(ax.description),
    nameFromContents: nameFromContents(ax),
    children: NO_CHILDREN,
    parent: undefined,
    doc,
    properties: properties ?? NO_PROPERTIES,
    focusable: properties?.get('focusable')?.value === true,
    richlyEditable: properties?.get('editable')?.value === 'richtext',
    hidden: properties?.get('hidden')?.value === true,
    active: false,
  };
}

export function isInlineTextBox(ax: AXNode): boolean {
  return ax.role?.value === 'InlineTextBox';
}

export interface DocumentTree {
  root: TreeNode;
  /** Every node by its accessibility id. */
  byId: Map<string, TreeNode>;
  /** Nodes that stand for a DOM node, by backend node id (unique within one renderer). */
  byBackendId: Map<number, TreeNode>;
}

/**
 * Links the nodes of one document. `skipInlineText` leaves out the line boxes of text nodes
 * (a quarter of a typical tree), which only the verbose snapshot prints.
 */
export function buildTree(
  nodes: readonly AXNode[],
  doc: DocumentRef,
  skipInlineText = false,
): DocumentTree | undefined {
  const byId = new Map<string, TreeNode>();
  const byBackendId = new Map<number, TreeNode>();
  const childIds = new Map<TreeNode, string[]>();
  const parentIds = new Map<TreeNode, string | undefined>();
  for (const ax of nodes) {
    if (skipInlineText && isInlineTextBox(ax)) {
      continue;
    }
    const node = toTreeNode(ax, doc);
    byId.set(ax.nodeId, node);
    childIds.set(node, ax.childIds ?? []);
    parentIds.set(node, ax.parentId);
    if (node.backendId !== undefined && !byBackendId.has(node.backendId)) {
      byBackendId.set(node.backendId, node);
    }
  }
  let root: TreeNode | undefined;
  for (const node of byId.values()) {
    for (const childId of childIds.get(node) ?? []) {
      const child = byId.get(childId);
      if (child) {
        addChild(node, child);
        child.parent = node;
      }
    }
    const parentId = parentIds.get(node);
    if (parentId === undefined || !byId.has(parentId)) {
      root ??= node;
    }
  }
  if (!root) {
    return undefined;
  }
  const tree = {root, byId, byBackendId};
  markActiveDescendants(tree);
  return tree;
}

/** Flags the node each `aria-activedescendant` points at, so the line can say `active`. */
export function markActiveDescendants(tree: DocumentTree): void {
  for (const node of tree.byId.values()) {
    if (node.active) {
      node.active = false;
      node.line = undefined;
    }
  }
  for (const node of tree.byId.values()) {
    for (const id of relatedNodeIds(node.properties.get('activedescendant'))) {
      const target = tree.byBackendId.get(id);
      if (target) {
        target.active = true;
        target.line = undefined;
      }
    }
  }
}
