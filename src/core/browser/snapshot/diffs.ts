/**
 * Snapshot diffs (`--snapshotDiffs`): what each client session last saw of a page's snapshot, so
 * the next snapshot it asks for can be answered with only the lines that changed since: added,
 * changed and removed lines with their uids and the uid of their parent, under one summary line
 * that says how to get the whole tree. The first snapshot of a page a client takes is whole, and
 * so is the first after a navigation (another document or address); a verbose snapshot is
 * compared only with the client's last verbose one.
 */
import {PageFeature} from '../pages/PageState.js';

/** Client sessions remembered per page (the least recently answered go first). */
const CLIENTS_PER_PAGE = 16;

/** What a snapshot was of: the page's main document and its address. */
export interface SnapshotDocument {
  loaderId: string;
  url: string;
}

interface View {
  document: SnapshotDocument;
  text: string;
}

/**
 * One line of a snapshot: known by its uid, or (an "… N more options" line, which has none) by
 * its parent and text; under whom, after which sibling.
 */
interface Entry {
  key: string;
  uid: string | undefined;
  depth: number;
  /** The line without its indentation. */
  content: string;
  parent: string | undefined;
  /** The sibling just before it, or undefined when it comes first under its parent. */
  after: string | undefined;
  /** Lines nested below it. */
  below: number;
}

export class SeenSnapshots {
  readonly #views = new Map<string, View>();

  /**
   * The snapshot as this client should get it: whole the first time (and when asked, or after a
   * navigation, or when the changes would not be shorter), else the changes since its last one.
   */
  answer(
    client: string,
    snapshot: {text: string; document: SnapshotDocument; verbose: boolean},
    wholeAsked: boolean,
  ): string {
    const key = `${snapshot.verbose ? 'verbose' : 'default'}:${client}`;
    const last = this.#views.get(key);
    this.#views.delete(key);
    this.#views.set(key, {document: snapshot.document, text: snapshot.text});
    while (this.#views.size > CLIENTS_PER_PAGE * 2) {
      const oldest = this.#views.keys().next().value;
      if (oldest === undefined) {
        break;
      }
      this.#views.delete(oldest);
    }
    const sameDocument =
      last?.document.loaderId === snapshot.document.loaderId &&
      last.document.url === snapshot.document.url;
    if (!last || wholeAsked || !sameDocument) {
      return snapshot.text;
    }
    const changes = diffSnapshots(last.text, snapshot.text);
    return changes.length < snapshot.text.length ? changes : snapshot.text;
  }
}

export const seenSnapshotsFeature = new PageFeature('seenSnapshots', () => new SeenSnapshots());

const UID_LINE = /^(\d+)(?: |$)/;

function parse(text: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  const path: Entry[] = [];
  const lastChild = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') {
      continue;
    }
    const content = line.trimStart();
    const depth = line.length - content.length;
    while (path.length > 0 && (path[path.length - 1]?.depth ?? 0) >= depth) {
      path.pop();
    }
    const parent = path[path.length - 1];
    const parentKey = parent?.key ?? '';
    const uid = UID_LINE.exec(content)?.[1];
    const key = uid ?? `${parentKey}\u0000${content}`;
    const entry: Entry = {
      key,
      uid,
      depth,
      content,
      parent: parent?.key,
      after: lastChild.get(parentKey),
      below: 0,
    };
    for (const above of path) {
      above.below++;
    }
    lastChild.set(parentKey, key);
    entries.set(key, entry);
    path.push(entry);
  }
  return entries;
}

/** How a line names another: its uid, or the text of a line without one. */
function reference(key: string, entries: ReadonlyMap<string, Entry>): string {
  const entry = entries.get(key);
  return entry?.uid ?? JSON.stringify(entry?.content ?? key);
}

function place(entry: Entry, moved: boolean, entries: ReadonlyMap<string, Entry>): string {
  if (entry.parent === undefined) {
    return ' (top)';
  }
  const parent = reference(entry.parent, entries);
  if (!moved) {
    return ` (in ${parent})`;
  }
  return entry.after === undefined
    ? ` (in ${parent}, first)`
    : ` (in ${parent}, after ${reference(entry.after, entries)})`;
}

/** The line that heads a diff: what changed (counts of lines), and how to get the whole tree. */
export function diffSummary(counts: {changed: number; added: number; removed: number}): string {
  const parts = Object.entries(counts).flatMap(([what, count]) =>
    count > 0 ? [`${count} ${what}`] : [],
  );
  const what = parts.length === 0 ? 'No changes' : parts.join(', ');
  return `${what} since your last snapshot (full=true for the whole tree)`;
}

/**
 * The lines that differ between two snapshots of the same page, after one summary line, in the
 * new snapshot's order: `~ line (in parent)` for a changed line (with `after sibling` or `first`
 * when it moved), an added subtree as `+ (in parent, after sibling)` followed by its lines
 * indented as in a snapshot; then `- uid uid… (in parent)`: the top lines of removed subtrees
 * (the client has their text).
 */
export function diffSnapshots(before: string, after: string): string {
  const old = parse(before);
  const current = parse(after);
  const lines: string[] = [];
  const counts = {changed: 0, added: 0, removed: 0};
  // The added subtree being printed: its parent, its last top line and their depth.
  let block: {parent: string | undefined; last: string; depth: number} | undefined;
  for (const entry of current.values()) {
    const was = old.get(entry.key);
    if (block && entry.depth > block.depth) {
      // Inside an added subtree: new, or moved in.
      lines.push(`${' '.repeat(entry.depth - block.depth + 1)}${entry.content}`);
      counts[was ? 'changed' : 'added']++;
      continue;
    }
    if (!was) {
      counts.added++;
      if (block && block.parent === entry.parent && block.last === entry.after) {
        block.last = entry.key;
      } else {
        block = {parent: entry.parent, last: entry.key, depth: entry.depth};
        lines.push(`+${place(entry, true, current)}`);
      }
      lines.push(` ${entry.content}`);
      continue;
    }
    block = undefined;
    const moved = was.parent !== entry.parent || movedAmongSiblings(was, entry, old, current);
    if (was.content !== entry.content || moved) {
      counts.changed++;
      lines.push(`~ ${entry.content}${place(entry, moved, current)}`);
    }
  }
  // Removed subtrees: their top lines' uids (or texts), grouped by parent.
  const removedUnder = new Map<string | undefined, string[]>();
  for (const entry of old.values()) {
    const parentGone = entry.parent !== undefined && !current.has(entry.parent);
    if (current.has(entry.key) || parentGone) {
      continue;
    }
    counts.removed += 1 + entry.below;
    const list = removedUnder.get(entry.parent) ?? [];
    list.push(entry.uid ?? JSON.stringify(entry.content));
    removedUnder.set(entry.parent, list);
  }
  for (const [parent, removed] of removedUnder) {
    const where = parent === undefined ? '' : ` (in ${reference(parent, old)})`;
    lines.push(`- ${removed.join(' ')}${where}`);
  }
  return [diffSummary(counts), ...lines].join('\n');
}

/**
 * Whether a line kept its parent but not its place: the sibling before it that both snapshots
 * have is another one.
 */
function movedAmongSiblings(
  was: Entry,
  entry: Entry,
  old: ReadonlyMap<string, Entry>,
  current: ReadonlyMap<string, Entry>,
): boolean {
  const previousShared = (
    start: Entry,
    own: ReadonlyMap<string, Entry>,
    other: ReadonlyMap<string, Entry>,
  ): string | undefined => {
    let key = start.after;
    for (let steps = 0; key !== undefined && steps < 100_000; steps++) {
      if (other.get(key)?.parent === start.parent) {
        return key;
      }
      key = own.get(key)?.after;
    }
    return undefined;
  };
  return previousShared(was, old, current) !== previousShared(entry, current, old);
}
