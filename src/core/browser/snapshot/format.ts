/**
 * One snapshot line per node: `<uid> <role> "<name>" <attributes>`, indented one space per level.
 * Kept short because snapshots are the biggest thing an agent reads: the uid is a bare number,
 * text nodes print without their role, numbers and tokens without quotes, links relative to the
 * page, and states as single words (`expanded`/`collapsed`, `checked`, `current=page`…).
 */
import type {Protocol} from 'puppeteer-core';
import {axString, type TreeNode} from './axTree.js';
import {gridWords} from './gridOrder.js';

/** True booleans printed as bare words; false prints nothing. */
const FLAGS = [
  'busy',
  'disabled',
  'modal',
  'multiline',
  'multiselectable',
  'readonly',
  'required',
  'selected',
] as const;

/** Values printed as key=value (numbers and tokens bare, text quoted). */
const VALUES: readonly [property: string, label: string][] = [
  ['level', 'level'],
  ['hasPopup', 'haspopup'],
  ['autocomplete', 'autocomplete'],
  ['orientation', 'orientation'],
  ['valuemin', 'valuemin'],
  ['valuemax', 'valuemax'],
  ['valuetext', 'valuetext'],
  ['keyshortcuts', 'keyshortcuts'],
  ['roledescription', 'roledescription'],
];

/** Orientation a role has unless told otherwise; only a different one is worth printing. */
const VERTICAL_BY_DEFAULT = new Set([
  'listbox',
  'menu',
  'tree',
  'treegrid',
  'scrollbar',
  'radiogroup',
]);

/** Roles whose `level` says something (nesting of headings, tree items, treegrid rows). */
const LEVEL_ROLES = new Set(['heading', 'treeitem', 'row']);

function isDefault(node: TreeNode, property: string, text: string): boolean {
  switch (property) {
    case 'autocomplete':
      return text === 'none';
    case 'orientation':
      return text === (VERTICAL_BY_DEFAULT.has(node.role) ? 'vertical' : 'horizontal');
    case 'level':
      return !LEVEL_ROLES.has(node.role);
    default:
      return false;
  }
}

/** aria-valuetext (Chrome may leave the AX property empty), unless it only repeats the value. */
function valueText(node: TreeNode): string {
  const text = axString(node.properties.get('valuetext')) || (node.valueText ?? '');
  return text === node.value ? '' : text;
}

/** Roles whose live region is implied, so `live=` would only repeat the role. */
const LIVE_ROLES = new Set(['alert', 'status', 'log', 'marquee', 'timer']);

const TOKEN = /^[A-Za-z0-9_.:-]+$/;

function quote(text: string): string {
  return JSON.stringify(text.length > 500 ? `${text.slice(0, 500)}…` : text);
}

function keyValue(key: string, value: string): string {
  return `${key}=${TOKEN.test(value) ? value : quote(value)}`;
}

/** Same-origin links print relative to the page (the root line carries the full URL). */
function relativeUrl(url: string, base: URL | undefined): string {
  if (url.startsWith('data:')) {
    // The payload is noise to an agent; the media type says what it is.
    const comma = url.indexOf(',');
    return comma > 0 && comma < url.length - 1 ? `${url.slice(0, comma + 1)}…` : url;
  }
  if (!base) {
    return url;
  }
  try {
    const target = new URL(url);
    if (target.origin !== base.origin) {
      return url;
    }
    if (target.pathname === base.pathname && target.search === base.search) {
      return target.hash || target.pathname;
    }
    return `${target.pathname}${target.search}${target.hash}`;
  } catch {
    return url;
  }
}

function tristate(
  value: Protocol.Accessibility.AXValue | undefined,
  on: string,
  off: string | undefined,
): string | undefined {
  const text = axString(value);
  if (text === 'true') {
    return on;
  }
  if (text === 'mixed') {
    return `${on}=mixed`;
  }
  return text === 'false' ? off : undefined;
}

/** The state and value words of a node, sorted so equal states always print the same. */
function stateWords(node: TreeNode, isRoot: boolean, base: URL | undefined): string[] {
  const words: string[] = [];
  const props = node.properties;
  for (const flag of FLAGS) {
    if (props.get(flag)?.value === true) {
      words.push(flag);
    }
  }
  if (props.get('focused')?.value === true && !isRoot) {
    words.push('focused');
  }
  const expanded = tristate(props.get('expanded'), 'expanded', 'collapsed');
  const checked = tristate(props.get('checked'), 'checked', undefined);
  const pressed = tristate(props.get('pressed'), 'pressed', 'unpressed');
  for (const word of [expanded, checked, pressed]) {
    if (word !== undefined) {
      words.push(word);
    }
  }
  const invalid = axString(props.get('invalid'));
  if (invalid === 'true') {
    words.push('invalid');
  } else if (invalid && invalid !== 'false') {
    words.push(keyValue('invalid', invalid));
  }
  for (const [property, label] of VALUES) {
    const text = property === 'valuetext' ? valueText(node) : axString(props.get(property));
    if (text && text !== 'false' && !isDefault(node, property, text)) {
      words.push(keyValue(label, text));
    }
  }
  const live = axString(props.get('live'));
  if (live && live !== 'off' && !LIVE_ROLES.has(node.role)) {
    words.push(keyValue('live', live));
  }
  if (node.current !== undefined) {
    words.push(node.current === 'true' ? 'current' : keyValue('current', node.current));
  }
  if (node.sort !== undefined) {
    words.push(keyValue('sort', node.sort));
  }
  if (node.active && props.get('focused')?.value !== true) {
    words.push('active');
  }
  words.push(...gridWords(node.grid));
  const url = axString(props.get('url'));
  if (url) {
    words.push(`url=${quote(isRoot ? url : relativeUrl(url, base))}`);
  }
  if (isGeneratedText(node)) {
    words.push('generated');
  }
  return words.sort();
}

/**
 * Text that CSS generated content made (`::before`/`::after` content, `<q>` quote marks, counters):
 * Chromium gives it no DOM node. It is shown, but no script or text locator sees it.
 */
function isGeneratedText(node: TreeNode): boolean {
  return node.role === 'StaticText' && node.backendId === undefined && !node.ignored;
}

/** Containers whose content is printed below them: a name taken from that content says it twice. */
const ROLES_NAMED_BY_CHILDREN = new Set(['row']);

export function formatNode(
  node: TreeNode,
  uid: string,
  isRoot: boolean,
  base: URL | undefined,
): string {
  // The rest of the line depends only on the node, whether it is the root and the page's address.
  const key = `${isRoot ? 'root ' : ''}${base?.href ?? ''}`;
  if (node.line?.key !== key) {
    node.line = {key, text: lineAfterUid(node, isRoot, base)};
  }
  return `${uid}${node.line.text}`;
}

function lineAfterUid(node: TreeNode, isRoot: boolean, base: URL | undefined): string {
  const role = node.ariaHidden
    ? node.role
    : node.ignored || node.role === 'none'
      ? 'ignored'
      : node.role === 'StaticText'
        ? ''
        : node.role;
  let line = role ? ` ${role}` : '';
  if (node.name && !(ROLES_NAMED_BY_CHILDREN.has(node.role) && node.nameFromContents)) {
    line += ` ${quote(node.name)}`;
  }
  const value = node.value;
  if (value && value !== node.name) {
    line += ` value=${/^-?\d+(\.\d+)?$/.test(value) ? value : quote(value)}`;
  }
  const description = node.description;
  if (description && description !== node.name) {
    line += ` description=${quote(description)}`;
  }
  const words = stateWords(node, isRoot, base);
  if (node.ariaHidden) {
    // Visible and clickable, but screen readers do not get it: worth knowing, and acting on.
    words.push('aria-hidden');
  }
  if (words.length > 0) {
    line += ` ${words.join(' ')}`;
  }
  return line;
}
