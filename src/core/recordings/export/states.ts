/**
 * The states and values the agent saw change on elements it had seen before (same uid: uids live
 * as long as their node), as assertions on the element's role-based locator: where the focus went
 * (`toBeFocused`), a value (a field's `toHaveValue`, a slider's or spin button's `aria-valuenow`,
 * a select's chosen option), enabled or disabled, expanded, checked, selected, pressed, current,
 * the active descendant, sort order, busy, read-only and the description. Each assertion carries
 * a message naming the element and what it should be, so a failure reads as what did not happen.
 */
import {jsString} from './literals.js';
import {locate, type ObservationContext} from './context.js';
import {ariaRoleOf} from './locators.js';
import type {ParsedSnapshot, SnapshotNode} from './snapshot.js';

/** Roles whose getByRole state filter Playwright takes (others would throw or never match). */
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
/**
 * Roles whose printed value is what a test can read back: a field's text, a select's chosen
 * option, a range's aria-valuenow. (A file input's value is a file name; a meter's a float.)
 */
const VALUE_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'spinbutton',
  'slider',
  'progressbar',
]);
/** Roles that may be read-only and that Playwright's toBeEditable accepts. */
const EDITABLE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** A node's locator and the words a message names it by. */
interface Target {
  loc: string;
  label: string;
}

export function label(node: SnapshotNode): string {
  return node.name === '' ? node.role : `${node.role} ${JSON.stringify(node.name)}`;
}

function targetOf(context: ObservationContext, node: SnapshotNode): Target | undefined {
  const loc = locate(context, node);
  return loc === '' ? undefined : {loc, label: label(node)};
}

function expectLine(target: Target, message: string, matcher: string): string {
  return `await expect(${target.loc}, ${jsString(`${target.label} ${message}`)}).${matcher};`;
}

/** A flag that prints as a bare word: on when the word is there. */
function flag(node: SnapshotNode, word: string): boolean {
  return node.states.get(word) === 'true';
}

/**
 * The value the line shows. A value equal to the name is not printed, so a missing value is
 * empty only when the name is.
 */
function shownValue(node: SnapshotNode): string | undefined {
  if (node.value !== undefined) {
    return node.value;
  }
  return node.name === '' ? '' : undefined;
}

function valueLines(
  context: ObservationContext,
  target: Target,
  before: SnapshotNode,
  after: SnapshotNode,
): string[] {
  const now = shownValue(after);
  const kind = context.fields.get(after.uid);
  const role = ariaRoleOf(after.role) ?? '';
  if (now === undefined || now === (before.value ?? '') || now.endsWith('…')) {
    return [];
  }
  if (kind === undefined && !VALUE_ROLES.has(role)) {
    return [];
  }
  const message = `value is ${JSON.stringify(now)}`;
  if (kind === 'select') {
    return [
      `await expect(${target.loc}.locator('option:checked'), ${jsString(`${target.label} ${message}`)}).toHaveText(${jsString(now)});`,
    ];
  }
  if (kind !== undefined) {
    return [expectLine(target, message, `toHaveValue(${jsString(now)})`)];
  }
  // Whether it is a form field or an ARIA widget is known only in the page.
  return [
    `await ${context.helper('expectValue')}(${target.loc}, ${jsString(now)}, ${jsString(`${target.label} ${message}`)});`,
  ];
}

function toggledLines(
  context: ObservationContext,
  target: Target,
  before: SnapshotNode,
  after: SnapshotNode,
): string[] {
  const role = ariaRoleOf(after.role) ?? '';
  const scope = context.scopeOf(after.frames);
  const lines: string[] = [];
  for (const state of ['expanded', 'selected', 'pressed'] as const) {
    const was = before.states.get(state) ?? 'false';
    const now = after.states.get(state) ?? 'false';
    const roles = STATE_ROLES[state];
    if (was !== now && (roles === undefined || roles.has(role))) {
      const on = now === 'true';
      lines.push(
        `await expect(${target.loc}.and(${scope}.getByRole(${jsString(role)}, { ${state}: ${on} })), ${jsString(`${target.label} is ${on ? '' : 'not '}${state}`)}).toHaveCount(1);`,
      );
    }
  }
  const checked = {was: before.states.get('checked'), now: after.states.get('checked')};
  if (checked.was !== checked.now && CHECKABLE.has(role)) {
    lines.push(
      checked.now === 'mixed'
        ? expectLine(target, 'is partly checked', 'toBeChecked({ indeterminate: true })')
        : checked.now === 'true'
          ? expectLine(target, 'is checked', 'toBeChecked()')
          : expectLine(target, 'is not checked', 'not.toBeChecked()'),
    );
  }
  return lines;
}

/** Attribute-backed states: aria-current, aria-sort, aria-busy, aria-valuetext. */
function attributeLines(target: Target, before: SnapshotNode, after: SnapshotNode): string[] {
  const lines: string[] = [];
  const attributes: [state: string, attribute: string][] = [
    ['current', 'aria-current'],
    ['sort', 'aria-sort'],
    ['busy', 'aria-busy'],
    ['valuetext', 'aria-valuetext'],
  ];
  for (const [state, attribute] of attributes) {
    const was = before.states.get(state);
    const now = after.states.get(state);
    if (was === now) {
      continue;
    }
    lines.push(
      now === undefined
        ? expectLine(
            target,
            `has no ${attribute} ${JSON.stringify(was)}`,
            `not.toHaveAttribute(${jsString(attribute)}, ${jsString(was ?? '')})`,
          )
        : expectLine(
            target,
            `has ${attribute} ${JSON.stringify(now)}`,
            `toHaveAttribute(${jsString(attribute)}, ${jsString(now)})`,
          ),
    );
  }
  return lines;
}

function availabilityLines(target: Target, before: SnapshotNode, after: SnapshotNode): string[] {
  const lines: string[] = [];
  if (flag(before, 'disabled') !== flag(after, 'disabled')) {
    lines.push(
      flag(after, 'disabled')
        ? expectLine(target, 'is disabled', 'toBeDisabled()')
        : expectLine(target, 'is enabled', 'toBeEnabled()'),
    );
  }
  const role = ariaRoleOf(after.role) ?? '';
  if (flag(before, 'readonly') !== flag(after, 'readonly') && EDITABLE_ROLES.has(role)) {
    lines.push(
      flag(after, 'readonly')
        ? expectLine(target, 'is read-only', 'not.toBeEditable()')
        : expectLine(target, 'is editable', 'toBeEditable()'),
    );
  }
  const description = after.states.get('description') ?? '';
  if ((before.states.get('description') ?? '') !== description) {
    lines.push(
      expectLine(
        target,
        `is described as ${JSON.stringify(description)}`,
        `toHaveAccessibleDescription(${jsString(description)})`,
      ),
    );
  }
  return lines;
}

/** The assertions of one element seen in both snapshots (same uid, role and name). */
export function stateAssertions(
  context: ObservationContext,
  before: SnapshotNode,
  after: SnapshotNode,
): string[] {
  const target = ariaRoleOf(after.role) === undefined ? undefined : targetOf(context, after);
  if (!target) {
    return [];
  }
  return [
    ...valueLines(context, target, before, after),
    ...availabilityLines(target, before, after),
    ...toggledLines(context, target, before, after),
    ...attributeLines(target, before, after),
  ];
}

/**
 * Where the focus went: the element focused now, when another (or none) was before. (A snapshot
 * with nothing focused may be of a page that lost the focus to another tab, where Playwright's
 * pages each keep theirs: no assertion that the focus left.)
 */
export function focusAssertions(
  context: ObservationContext,
  before: ParsedSnapshot,
  after: ParsedSnapshot,
): string[] {
  const now = after.nodes.find(node => flag(node, 'focused'));
  const was = before.nodes.find(node => flag(node, 'focused'));
  const target = now === undefined || now.uid === was?.uid ? undefined : targetOf(context, now);
  return target ? [expectLine(target, 'is focused', 'toBeFocused()')] : [];
}

/** The elements that became the active descendant of their list, grid or combobox. */
export function activeAssertions(
  context: ObservationContext,
  before: ParsedSnapshot,
  after: ParsedSnapshot,
): string[] {
  return after.nodes.flatMap(node => {
    const was = before.byUid.get(node.uid);
    const target =
      flag(node, 'active') && !(was !== undefined && flag(was, 'active'))
        ? targetOf(context, node)
        : undefined;
    return target
      ? [
          `await ${context.helper('expectActiveDescendant')}(${target.loc}, ${jsString(`${target.label} is the active descendant`)});`,
        ]
      : [];
  });
}
