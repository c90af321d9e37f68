/**
 * What the agent saw change, as assertions: the difference between the snapshot it had before
 * acting and the next one of the same page. Elements seen in both (same uid: uids live as long as
 * their node) with another state or value (states.ts), where the focus went, the texts that
 * appeared or went (texts.ts), and named parts (a dialog, a menu, options, a tab panel, a
 * cell) that appeared or went. A snapshot of a new document asserts its first headings instead.
 * So an exported test fails when the page's scripts do nothing: the states, values and texts they
 * make are what it checks.
 */
import {jsString} from './literals.js';
import {ariaRoleOf} from './locators.js';
import {locate, type ObservationContext} from './context.js';
import {documentOf, type ParsedSnapshot, type SnapshotNode} from './snapshot.js';
import {activeAssertions, focusAssertions, stateAssertions} from './states.js';
import {
  runAppeared,
  runText,
  runWent,
  textRuns,
  wholeText,
  wholeTextAssertion,
  type TextRun,
} from './texts.js';

export type {FieldKind, ObservationContext} from './context.js';

/** Assertions per observation: the most telling first, bounded so a test stays readable. */
const MAX_STATE_ASSERTIONS = 12;
const MAX_CONTENT_ASSERTIONS = 8;
const FIRST_HEADINGS = 3;

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
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
]);

function usable(name: string): boolean {
  return name.trim() !== '' && !name.endsWith('…');
}

/** Per document: every name and value shown (any role), and named parts by role and name. */
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
    set.add(node.name.replace(/\s+/g, ' ').trim());
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

/** Named parts that appeared (visible) or went (none left with that role and name). */
function partAssertions(
  context: ObservationContext,
  before: ParsedSnapshot,
  after: ParsedSnapshot,
  modal: boolean,
): string[] {
  const was = inventory(before).parts;
  const now = inventory(after).parts;
  const lines: string[] = [];
  for (const [key, nodes] of now) {
    const node = nodes[0];
    if (node && !was.has(key)) {
      lines.push(`await expect(${locate(context, {...node, nth: 0})}).toBeVisible();`);
    }
  }
  for (const [key, nodes] of was) {
    const node = nodes[0];
    const role = node && ariaRoleOf(node.role);
    if (node && role !== undefined && !modal && !now.has(key)) {
      const scope = context.scopeOf(node.frames);
      lines.push(
        `await expect(${scope}.getByRole(${jsString(role)}, { name: ${jsString(node.name)}, exact: true })).toHaveCount(0);`,
      );
    }
  }
  return lines;
}

/** Elements whose content is only text and whose text changed (or that came with text). */
function wholeTextAssertions(
  context: ObservationContext,
  before: ParsedSnapshot,
  after: ParsedSnapshot,
): string[] {
  const lines: string[] = [];
  for (const node of after.nodes) {
    const parts = wholeText(after, node);
    if (parts === undefined) {
      continue;
    }
    const previous = before.byUid.get(node.uid);
    const was =
      previous?.role === node.role && previous.name === node.name
        ? wholeText(before, previous)
        : undefined;
    if ((was === undefined && parts.length === 0) || was?.join(' ') === parts.join(' ')) {
      continue;
    }
    const line = wholeTextAssertion(context, node, parts);
    if (line !== undefined) {
      lines.push(line);
    }
  }
  return lines;
}

function runKey(run: TextRun): string {
  return `${run.host?.uid ?? `document ${run.document}`}\u0000${runText(run)}`;
}

/** Runs of text (outside whole-text elements) that appeared or went. */
function runAssertions(
  context: ObservationContext,
  before: ParsedSnapshot,
  after: ParsedSnapshot,
  modal: boolean,
): string[] {
  const inWholeText = (snapshot: ParsedSnapshot, run: TextRun): boolean =>
    run.host !== undefined && wholeText(snapshot, run.host) !== undefined;
  const wasRuns = textRuns(before);
  const nowRuns = textRuns(after).filter(run => !inWholeText(after, run));
  const wasKeys = new Set(wasRuns.map(runKey));
  const nowKeys = new Set(nowRuns.map(runKey));
  const wasNames = inventory(before).names;
  const lines: string[] = [];
  for (const run of nowRuns) {
    if (!wasKeys.has(runKey(run)) && !(wasNames.get(run.document)?.has(runText(run)) ?? false)) {
      lines.push(runAppeared(context, run) ?? '');
    }
  }
  if (modal) {
    // A modal dialog takes the rest of the page out of Chromium's tree, not out of the page.
    return lines.filter(line => line !== '');
  }
  const nowTexts = [...inventory(after).names.values()].flatMap(set => [...set]);
  for (const run of wasRuns) {
    const host = run.host && after.byUid.get(run.host.uid);
    const hostStays = run.host === undefined || (host !== undefined && !inWholeText(after, run));
    const text = runText(run);
    if (hostStays && !nowKeys.has(runKey(run)) && !nowTexts.some(now => now.includes(text))) {
      lines.push(runWent(context, run) ?? '');
    }
  }
  return lines.filter(line => line !== '');
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
  const states = [
    ...focusAssertions(context, before, after),
    ...activeAssertions(context, before, after),
  ];
  for (const node of after.nodes) {
    const previous = before.byUid.get(node.uid);
    if (previous?.role === node.role && previous.name === node.name) {
      states.push(...stateAssertions(context, previous, node));
    }
  }
  const modal = after.nodes.some(node => node.states.get('modal') === 'true');
  const content = [
    ...partAssertions(context, before, after, modal),
    ...wholeTextAssertions(context, before, after),
    ...runAssertions(context, before, after, modal),
  ];
  return [
    ...new Set(states.slice(0, MAX_STATE_ASSERTIONS)),
    ...new Set(content.slice(0, MAX_CONTENT_ASSERTIONS)),
  ];
}
