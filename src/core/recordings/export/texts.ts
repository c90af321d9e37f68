/**
 * The texts the agent saw appear or go, as assertions on located elements, never a substring of
 * the whole page. A text is read as a run: the text lines printed one after another under the
 * same line, which the page holds in that order (a paragraph split by a link or a `<q>`). Only
 * text in the DOM counts: text CSS generated (`generated` in the snapshot: `::before` content,
 * quote marks, counters) and list markers are in no element's text, so no assertion names them.
 *
 * Where the text sits decides the matcher. Inside an element the snapshot names by role whose
 * content is only text (a status, a cell, a tab panel's paragraph): that element's whole text,
 * `toHaveText` (exact, or anchored at both ends when the run has several parts). Elsewhere: the
 * element whose text is the run, inside the nearest such element or the page: `getByText` exact,
 * or a regular expression anchored at each end the snapshot shows to be an end (nothing printed
 * there, or a block such as a heading or a list); an end next to a link or a button stays open,
 * since they may share the element.
 */
import {jsString} from './literals.js';
import {locate, type ObservationContext} from './context.js';
import {ariaRoleOf, foundByText} from './locators.js';
import {documentOf, type ParsedSnapshot, type SnapshotNode} from './snapshot.js';
import {label} from './states.js';

/** Elements that start and end a line of text: a run next to one of them ends there. */
const BLOCK_ROLES = new Set([
  'alert',
  'alertdialog',
  'article',
  'banner',
  'blockquote',
  'complementary',
  'contentinfo',
  'dialog',
  'figure',
  'form',
  'grid',
  'group',
  'heading',
  'Iframe',
  'list',
  'listbox',
  'listitem',
  'log',
  'main',
  'menu',
  'menubar',
  'navigation',
  'paragraph',
  'radiogroup',
  'region',
  'row',
  'search',
  'Section',
  'separator',
  'status',
  'table',
  'tablist',
  'tabpanel',
  'toolbar',
  'tree',
  'treegrid',
]);

/** Elements found by role even without a name (there is rarely more than one, or nth tells). */
const UNNAMED_HOSTS = new Set([
  'alert',
  'status',
  'log',
  'timer',
  'marquee',
  'dialog',
  'alertdialog',
  'tabpanel',
  'tooltip',
  'main',
  'banner',
  'contentinfo',
  'navigation',
  'complementary',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
]);

/** Text of a text line as the page holds it, or undefined when the DOM does not hold it. */
function domText(node: SnapshotNode): string | undefined {
  if (node.role !== 'StaticText' || node.states.get('generated') === 'true') {
    return undefined;
  }
  return node.name.replace(/\s+/g, ' ').trim();
}

/** Run of text lines: the page holds its parts in this order, inside one element. */
export interface TextRun {
  /** The element it is located in: a node named by role, or undefined for the document. */
  host: SnapshotNode | undefined;
  document: string;
  node: SnapshotNode;
  parts: string[];
  /** Whether the snapshot shows an end of its element before and after it. */
  startsElement: boolean;
  endsElement: boolean;
}

/** Named texts: an element is its own run (a label, a named paragraph). */
function isNamedText(node: SnapshotNode): boolean {
  return node.role !== 'StaticText' && node.role !== 'ListMarker' && foundByText(node.role);
}

function isHost(node: SnapshotNode): boolean {
  const role = ariaRoleOf(node.role);
  if (role === undefined || role === 'document' || foundByText(node.role)) {
    return false;
  }
  return node.name !== '' || UNNAMED_HOSTS.has(role);
}

function hostOf(snapshot: ParsedSnapshot, node: SnapshotNode): SnapshotNode | undefined {
  let current = node.parentUid === undefined ? undefined : snapshot.byUid.get(node.parentUid);
  while (current && current.role !== 'RootWebArea') {
    if (isHost(current)) {
      return current;
    }
    current = current.parentUid === undefined ? undefined : snapshot.byUid.get(current.parentUid);
  }
  return undefined;
}

/** Whether the line next to a run (the first one that is not a list marker) ends its element. */
function endsHere(siblings: readonly SnapshotNode[], from: number, step: 1 | -1): boolean {
  let at = from;
  while (siblings[at]?.role === 'ListMarker') {
    at += step;
  }
  const neighbour = siblings[at];
  return neighbour === undefined || BLOCK_ROLES.has(neighbour.role);
}

/** Every run of text of a snapshot, in order. */
export function textRuns(snapshot: ParsedSnapshot): TextRun[] {
  const runs: TextRun[] = [];
  for (const children of snapshot.childrenOf.values()) {
    let start = 0;
    while (start < children.length) {
      const first = children[start];
      if (first === undefined) {
        break;
      }
      let end = start + 1;
      if (first.role === 'StaticText') {
        while (children[end]?.role === 'StaticText') {
          end++;
        }
      }
      const members = children.slice(start, end);
      const parts = isNamedText(first)
        ? [first.name.replace(/\s+/g, ' ').trim()]
        : members.flatMap(member => domText(member) ?? []);
      const usable = parts.length > 0 && parts.every(part => part !== '' && !part.endsWith('…'));
      if (usable && (first.role === 'StaticText' || isNamedText(first))) {
        runs.push({
          host: hostOf(snapshot, first),
          document: documentOf(first),
          node: first,
          parts,
          startsElement: endsHere(children, start - 1, -1),
          endsElement: endsHere(children, end, 1),
        });
      }
      start = end;
    }
  }
  return runs;
}

function pattern(part: string): string {
  return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/ /g, '\\s+');
}

/** A regular expression literal of the parts in order, whitespace between them allowed. */
function partsRegExp(parts: readonly string[], start: boolean, end: boolean): string {
  const body = parts.map(pattern).join('\\s*');
  const literal = `/${start ? '^\\s*' : ''}${body}${end ? '\\s*$' : ''}/`;
  // Inert in the file: no line terminator survives in a regular expression literal.
  return literal.replace(/[\r\n\u2028\u2029]/g, char => jsString(char).slice(1, -1));
}

/** getByText of the element whose text is the run, in `scope`. */
function runLocator(scope: string, run: TextRun): string {
  const [only] = run.parts;
  if (run.parts.length === 1 && only !== undefined && run.startsElement && run.endsElement) {
    return `${scope}.getByText(${jsString(only)}, { exact: true })`;
  }
  return `${scope}.getByText(${partsRegExp(run.parts, run.startsElement, run.endsElement)})`;
}

/** Its text as one string, for comparing runs and telling what a message is about. */
export function runText(run: TextRun): string {
  return run.parts.join(' ');
}

function scopeOf(context: ObservationContext, run: TextRun): string {
  return run.host ? locate(context, run.host) : context.scopeOf(run.node.frames);
}

export function runAppeared(context: ObservationContext, run: TextRun): string | undefined {
  const scope = scopeOf(context, run);
  return scope === ''
    ? undefined
    : `await expect(${runLocator(scope, run)}.filter({ visible: true }).first(), ${jsString(`text ${JSON.stringify(runText(run))} is shown`)}).toBeVisible();`;
}

export function runWent(context: ObservationContext, run: TextRun): string | undefined {
  const scope = scopeOf(context, run);
  return scope === ''
    ? undefined
    : `await expect(${runLocator(scope, run)}.filter({ visible: true }), ${jsString(`text ${JSON.stringify(runText(run))} is gone`)}).toHaveCount(0);`;
}

/** An element whose whole content is text: its text, if every part is in the DOM and whole. */
export function wholeText(snapshot: ParsedSnapshot, node: SnapshotNode): string[] | undefined {
  if (!isHost(node)) {
    return undefined;
  }
  const children = snapshot.childrenOf.get(node.uid) ?? [];
  if (children.some(child => child.role !== 'StaticText')) {
    return undefined;
  }
  const parts = children.flatMap(child => domText(child) ?? []);
  return parts.every(part => part !== '' && !part.endsWith('…')) ? parts : undefined;
}

/** toHaveText of an element whose content is only text: exact, or anchored at both ends. */
export function wholeTextAssertion(
  context: ObservationContext,
  node: SnapshotNode,
  parts: readonly string[],
): string | undefined {
  const loc = locate(context, node);
  if (loc === '') {
    return undefined;
  }
  const [only] = parts;
  const expected = parts.length > 1 ? partsRegExp(parts, true, true) : jsString(only ?? '');
  const message = `${label(node)} shows ${JSON.stringify(parts.join(' '))}`;
  return `await expect(${loc}, ${jsString(message)}).toHaveText(${expected});`;
}
