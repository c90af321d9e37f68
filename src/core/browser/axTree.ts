/**
 * The accessibility tree of one document as linked nodes, built from `Accessibility.getFullAXTree`,
 * with the properties the snapshot rules and the line format read.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';

export type AXNode = Protocol.Accessibility.AXNode;

/** The document a node belongs to: uids remember it so tools act on the right target. */
export interface DocumentRef {
  cdp: CDPSession;
  frameId: string;
  loaderId: string;
}

export interface TreeNode {
  ax: AXNode;
  role: string;
  name: string;
  children: TreeNode[];
  doc: DocumentRef;
  /** Property values by name (`expanded`, `checked`, `activedescendant`…). */
  properties: Map<string, Protocol.Accessibility.AXValue>;
  focusable: boolean;
  /** Rich-text editable (contenteditable). */
  richlyEditable: boolean;
  hidden: boolean;
  /** `aria-current` other than "false" (not in the AX properties, read from the DOM). */
  current?: string;
  /** `aria-sort` other than "none" (read from the DOM). */
  sort?: string;
  /** `aria-valuetext` from the DOM, for when the AX property is empty. */
  valueText?: string;
  /**
   * Set for a control that aria-hidden takes out of the AX tree while it stays visible and
   * clickable: its role and name as the DOM gives them.
   */
  ariaHidden?: {role: string; name: string};
  /** The active descendant of its listbox, combobox, grid or tree. */
  active: boolean;
}

export function axString(value: Protocol.Accessibility.AXValue | undefined): string {
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
export function relatedNodeIds(value: Protocol.Accessibility.AXValue | undefined): number[] {
  return (value?.relatedNodes ?? []).map(related => related.backendDOMNodeId);
}

export interface DocumentTree {
  root: TreeNode;
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
  for (const ax of nodes) {
    if (skipInlineText && ax.role?.value === 'InlineTextBox') {
      continue;
    }
    const properties = new Map<string, Protocol.Accessibility.AXValue>();
    for (const property of ax.properties ?? []) {
      properties.set(property.name, property.value);
    }
    const node: TreeNode = {
      ax,
      role: axString(ax.role) || 'Unknown',
      name: axString(ax.name),
      children: [],
      doc,
      properties,
      focusable: properties.get('focusable')?.value === true,
      richlyEditable: properties.get('editable')?.value === 'richtext',
      hidden: properties.get('hidden')?.value === true,
      active: false,
    };
    byId.set(ax.nodeId, node);
    if (ax.backendDOMNodeId !== undefined && !byBackendId.has(ax.backendDOMNodeId)) {
      byBackendId.set(ax.backendDOMNodeId, node);
    }
  }
  let root: TreeNode | undefined;
  for (const node of byId.values()) {
    for (const childId of node.ax.childIds ?? []) {
      const child = byId.get(childId);
      if (child) {
        node.children.push(child);
      }
    }
    if (node.ax.parentId === undefined || !byId.has(node.ax.parentId)) {
      root ??= node;
    }
  }
  if (!root) {
    return undefined;
  }
  markActiveDescendants(byBackendId);
  return {root, byBackendId};
}

/** Flags the node each `aria-activedescendant` points at, so the line can say `active`. */
function markActiveDescendants(byBackendId: Map<number, TreeNode>): void {
  for (const node of byBackendId.values()) {
    for (const id of relatedNodeIds(node.properties.get('activedescendant'))) {
      const target = byBackendId.get(id);
      if (target) {
        target.active = true;
      }
    }
  }
}
