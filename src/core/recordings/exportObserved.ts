/**
 * What the agent saw change, as assertions: the difference between the snapshot it had before
 * acting and the next one of the same page. The same element (same uid: uids live as long as
 * their node) with another state (expanded, checked, selected, pressed, current) or, for a field
 * the agent filled, another value; texts and named parts (a dialog, a menu, options, a tab panel)
 * that appeared or went. A snapshot of a new document asserts its first headings instead. So an
 * exported test fails when the page's scripts do nothing: the states, values and texts they make
 * are what it checks.
 */
import type {RecordedElement} from '../../shared/protocol.js';
import {jsString} from './exportLiterals.js';
import {ariaRoleOf, foundByText, locatorFor} from './exportLocators.js';
import {
  documentOf,
  type FrameStep,
  type ParsedSnapshot,
  type SnapshotNode,
} from './exportSnapshot.js';

/** How a filled field takes its value (from the element as recorded when the agent filled it). */
export type FieldKind = NonNullable<RecordedElement['field']>;

export interface ObservationContext {
  /** The expression of the page, or of the frame at the end of a chain of iframes in it. */
  scopeOf: (frames: readonly FrameStep[]) => string;
  /** Fields the agent filled on this page, by uid: their value is theirs to assert. */
  fields: ReadonlyMap<string, FieldKind>;
}

/** Assertions per observation: the most telling first, bounded so a test stays readable. */
const MAX_STATE_ASSERTIONS = 8;
const MAX_TEXT_ASSERTIONS = 6;
const FIRST_HEADINGS = 3;

/** Roles whose states Playwright's getByRole filters by (others would throw or never match). */
const STATE_ROLES: Record<'expanded' | 'selected' | 'pressed', ReadonlySet<string> | undefined> = {
  expanded: undefined,
  selected: new Set(['gridcell', 'option', 'row', 'tab', 'columnheader', 'rowheader', 'treeitem']),
  pressed: new Set(['button']),
};
const CHECKABLE = new Set([
  'checkbox',
  'radio',
  'switch',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
]);
/** Named parts worth saying appeared or went: what opens, closes and changes content. */
const SHOWN_ROLES = new Set([
  'dialog',
  'alertdialog',
  'alert',
  'menu',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'listbox',
  'option',
  'tabpanel',
  'tooltip',
  'region',
  'heading',
  'button',
  'link',
  'treeitem',
  'row',
]);

function locate(context: ObservationContext, node: SnapshotNode): string {
  return locatorFor(context.scopeOf(node.frames), node);
}

function label(node: SnapshotNode): string {
  return `${node.role} ${JSON.stringify(node.name)}`;
}

/** The assertions of one node whose states changed (same uid, same role). */
function stateAssertions(
  context: ObservationContext,
  before: SnapshotNode,
  after: SnapshotNode,
): string[] {
  const role = ariaRoleOf(after.role);
  const loc = locate(context, after);
  if (role === undefined || loc === '') {
    return [];
  }
  const lines: string[] = [];
  const scope = context.scopeOf(after.frames);
  for (const state of ['expanded', 'selected', 'pressed'] as const) {
    const was = before.states.get(state) ?? 'false';
    const now = after.states.get(state) ?? 'false';
    const roles = STATE_ROLES[state];
    if (was !== now && (roles === undefined || roles.has(role))) {
      const on = now === 'true';
      lines.push(
        `await expect(${loc}.and(${scope}.getByRole(${jsString(role)}, { ${state}: ${on} })), ${jsString(`${label(after)} is ${on ? '' : 'not '}${state}`)}).toHaveCount(1);`,
      );
    }
  }
  const checked = {was: before.states.get('checked'), now: after.states.get('checked')};
  if (checked.was !== checked.now && CHECKABLE.has(role)) {
    lines.push(
      checked.now === 'mixed'
        ? `await expect(${loc}).toBeChecked({ indeterminate: true });`
        : `await expect(${loc}).${checked.now === 'true' ? '' : 'not.'}toBeChecked();`,
    );
  }
  const current = {was: before.states.get('current'), now: after.states.get('current')};
  if (current.was !== current.now) {
    lines.push(
      current.now === undefined
        ? `await expect(${loc}).not.toHaveAttribute('aria-current');`
        : `await expect(${loc}).toHaveAttribute('aria-current', ${jsString(current.now)});`,
    );
  }
  return lines;
}

/** The value a filled field shows now, when it changed. */
function valueAssertion(
  context: ObservationContext,
  before: SnapshotNode,
  after: SnapshotNode,
): string[] {
  const kind = context.fields.get(after.uid);
  const value = after.value ?? '';
  if (kind === undefined || value === (before.value ?? '') || value.endsWith('…')) {
    return [];
  }
  const loc = locate(context, after);
  if (loc === '') {
    return [];
  }
  return kind === 'select'
    ? [`await expect(${loc}.locator('option:checked')).toHaveText(${jsString(value)});`]
    : [`await expect(${loc}).toHaveValue(${jsString(value)});`];
}

function usable(name: string): boolean {
  return name.trim() !== '' && !name.endsWith('…');
}

/** Per document: every name shown (any role), and named parts by role and name. */
function inventory(snapshot: ParsedSnapshot): {
  names: Map<string, Set<string>>;
  parts: Map<string, SnapshotNode[]>;
} {
  const names = new Map<string, Set<string>>();
  const parts = new Map<string, SnapshotNode[]>();
  for (const node of snapshot.nodes) {
    const document = documentOf(node);
    let set = names.get(document);
    if (!set) {
      set = new Set();
      names.set(document, set);
    }
    set.add(node.name);
    if (node.value !== undefined) {
      set.add(node.value);
    }
    const role = ariaRoleOf(node.role);
    if (role !== undefined && SHOWN_ROLES.has(role) && usable(node.name)) {
      const key = `${document}\u0000${role}\u0000${node.name}`;
      parts.set(key, [...(parts.get(key) ?? []), node]);
    }
  }
  return {names, parts};
}

/** Named parts and texts that appeared or went between the two snapshots. */
function contentAssertions(
  context: ObservationContext,
  before: ParsedSnapshot,
  after: ParsedSnapshot,
): string[] {
  const was = inventory(before);
  const now = inventory(after);
  // A modal dialog takes the rest of the page out of Chromium's tree, not out of the page.
  const modal = after.nodes.some(node => node.states.get('modal') === 'true');
  const lines: string[] = [];
  for (const [key, nodes] of now.parts) {
    const node = nodes[0];
    if (node && !was.parts.has(key)) {
      lines.push(`await expect(${locate(context, {...node, nth: 0})}).toBeVisible();`);
    }
  }
  for (const [key, nodes] of was.parts) {
    const node = nodes[0];
    const role = node && ariaRoleOf(node.role);
    if (node && role !== undefined && !modal && !now.parts.has(key)) {
      const scope = context.scopeOf(node.frames);
      lines.push(
        `await expect(${scope}.getByRole(${jsString(role)}, { name: ${jsString(node.name)}, exact: true })).toHaveCount(0);`,
      );
    }
  }
  const texts = (snapshot: ParsedSnapshot) =>
    snapshot.nodes.filter(node => foundByText(node.role) && usable(node.name));
  for (const node of texts(after)) {
    if (!(was.names.get(documentOf(node))?.has(node.name) ?? false)) {
      const scope = context.scopeOf(node.frames);
      lines.push(
        `await expect(${scope}.getByText(${jsString(node.name.trim())}).filter({ visible: true }).first()).toBeVisible();`,
      );
    }
  }
  for (const node of modal ? [] : texts(before)) {
    if (!(now.names.get(documentOf(node))?.has(node.name) ?? false)) {
      const scope = context.scopeOf(node.frames);
      lines.push(
        `await expect(${scope}.getByText(${jsString(node.name)}, { exact: true }).filter({ visible: true })).toHaveCount(0);`,
      );
    }
  }
  return [...new Set(lines)].slice(0, MAX_TEXT_ASSERTIONS);
}

/** The first headings of a document the agent had not seen before. */
export function headingAssertions(context: ObservationContext, snapshot: ParsedSnapshot): string[] {
  const page = context.scopeOf([]);
  return snapshot.nodes
    .filter(node => node.role === 'heading' && node.frames.length === 0 && usable(node.name))
    .slice(0, FIRST_HEADINGS)
    .map(
      node =>
        `await expect(${page}.getByRole("heading", { name: ${jsString(node.name)}, exact: true }).first()).toBeVisible();`,
    );
}

/** What changed from `before` to `after` (snapshots of one page), as assertion lines. */
export function observedChanges(
  context: ObservationContext,
  before: ParsedSnapshot,
  after: ParsedSnapshot,
): string[] {
  if (before.documentKey !== after.documentKey) {
    return headingAssertions(context, after);
  }
  const states: string[] = [];
  for (const node of after.nodes) {
    const previous = before.byUid.get(node.uid);
    if (previous?.role === node.role && previous.name === node.name) {
      states.push(
        ...stateAssertions(context, previous, node),
        ...valueAssertion(context, previous, node),
      );
    }
  }
  return [...states.slice(0, MAX_STATE_ASSERTIONS), ...contentAssertions(context, before, after)];
}
