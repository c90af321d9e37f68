/**
 * What an agent does with a snapshot diff (--snapshotDiffs): it applies the added, changed and
 * removed lines to the last whole snapshot it has of the page, and so knows the whole snapshot
 * again. Used by the tests (the diff must lead exactly to the whole snapshot) and the scripted
 * agent of bench/tasks.ts.
 */

interface Line {
  content: string;
  children: Line[];
  parent: Line | undefined;
}

const REF = String.raw`(\d+|"(?:[^"\\]|\\.)*")`;
const PLACE = new RegExp(String.raw`^(.*) \((top|in ${REF}(?:, (first|after ${REF}))?)\)$`);
const WAS = new RegExp(String.raw`^(.*) \(in ${REF}\)$`);
/** The uids and quoted texts of a removal line. */
const TOKEN = new RegExp(REF, 'g');

/** Whether a snapshot's text is a diff (its first line is the summary). */
export function isSnapshotDiff(snapshot: string): boolean {
  const first = snapshot.split('\n', 1)[0] ?? '';
  return first.endsWith(' since your last snapshot (full=true for the whole tree)');
}

function uidOf(content: string): string | undefined {
  return /^(\d+)(?: |$)/.exec(content)?.[1];
}

class Tree {
  readonly root: Line = {content: '', children: [], parent: undefined};
  readonly #byUid = new Map<string, Line>();

  constructor(text: string) {
    const path: {line: Line; depth: number}[] = [];
    for (const raw of text.split('\n')) {
      if (raw === '') {
        continue;
      }
      const content = raw.trimStart();
      const depth = raw.length - content.length;
      while (path.length > 0 && (path[path.length - 1]?.depth ?? 0) >= depth) {
        path.pop();
      }
      const parent = path[path.length - 1]?.line ?? this.root;
      const line: Line = {content, children: [], parent};
      parent.children.push(line);
      this.#index(line);
      path.push({line, depth});
    }
  }

  #index(line: Line): void {
    const uid = uidOf(line.content);
    if (uid !== undefined) {
      this.#byUid.set(uid, line);
    }
  }

  findUid(uid: string): Line | undefined {
    const line = this.#byUid.get(uid);
    // A line taken out of the tree (its subtree removed) no longer counts.
    let up: Line | undefined = line;
    while (up && up !== this.root) {
      up = up.parent;
    }
    return up === this.root ? line : undefined;
  }

  /** A line by its reference: a uid, or the JSON text of a line without one under `parent`. */
  find(reference: string, parent?: Line): Line {
    const found = reference.startsWith('"')
      ? parent?.children.find(child => child.content === (JSON.parse(reference) as string))
      : this.#byUid.get(reference);
    if (!found) {
      throw new Error(`The diff names a line the snapshot does not have: ${reference}`);
    }
    return found;
  }

  detach(line: Line): void {
    const siblings = line.parent?.children ?? [];
    const index = siblings.indexOf(line);
    if (index >= 0) {
      siblings.splice(index, 1);
    }
    line.parent = undefined;
  }

  /** Puts a line under `parent`, first or after `previous`. */
  insert(line: Line, parent: Line, previous: Line | undefined): void {
    const index = previous ? parent.children.indexOf(previous) + 1 : 0;
    if (previous && index === 0) {
      throw new Error(`The diff puts a line after one that is not there: ${previous.content}`);
    }
    parent.children.splice(index, 0, line);
    line.parent = parent;
    this.#index(line);
  }

  text(): string {
    const out: string[] = [];
    const walk = (line: Line, depth: number): void => {
      out.push(`${' '.repeat(depth)}${line.content}`);
      for (const child of line.children) {
        walk(child, depth + 1);
      }
    };
    for (const child of this.root.children) {
      walk(child, 0);
    }
    return out.join('\n');
  }
}

/** The whole snapshot a diff stands for, given the last whole snapshot it was taken against. */
export function applySnapshotDiff(before: string, diff: string): string {
  const tree = new Tree(before);
  const [summary, ...changes] = diff.split('\n');
  if (!isSnapshotDiff(summary ?? '')) {
    throw new Error(`Not a snapshot diff: ${summary ?? ''}`);
  }
  // The added subtree being read: its lines by depth (1 = under the block's parent).
  let block: {path: Line[]; parent: Line; last: Line | undefined} | undefined;
  for (const change of changes) {
    if (change.startsWith(' ')) {
      if (!block) {
        throw new Error(`A subtree line outside a block: ${change}`);
      }
      const content = change.trimStart();
      const depth = change.length - content.length;
      const uid = uidOf(content);
      const existing = uid === undefined ? undefined : tree.findUid(uid);
      const line = existing ?? {content, children: [], parent: undefined};
      line.content = content;
      if (existing) {
        tree.detach(existing);
      }
      block.path.length = depth - 1;
      const parent = depth === 1 ? block.parent : block.path[depth - 2];
      if (!parent) {
        throw new Error(`A subtree line too deep: ${change}`);
      }
      const previous = depth === 1 ? block.last : parent.children[parent.children.length - 1];
      tree.insert(line, parent, previous);
      if (depth === 1) {
        block.last = line;
      }
      block.path.push(line);
      continue;
    }
    block = undefined;
    const sign = change.slice(0, 2);
    const rest = change.slice(2);
    if (sign === '- ') {
      const was = WAS.exec(rest);
      const parent = was?.[2] === undefined ? tree.root : tree.find(was[2]);
      for (const reference of (was?.[1] ?? rest).match(TOKEN) ?? []) {
        tree.detach(tree.find(reference, parent));
      }
      continue;
    }
    const placed = PLACE.exec(change.slice(1));
    const [, content = '', where = '', parentRef, position, afterRef] = placed ?? [];
    const parent = where === 'top' ? tree.root : tree.find(parentRef ?? '');
    if (sign === '+ ' && placed && content === '') {
      const last = afterRef === undefined ? undefined : tree.find(afterRef, parent);
      block = {path: [], parent, last};
      continue;
    }
    if (sign !== '~ ' || !placed) {
      throw new Error(`Not a diff line: ${change}`);
    }
    const line = tree.find(uidOf(content.slice(1)) ?? JSON.stringify(content.slice(1)), parent);
    line.content = content.slice(1);
    if (position !== undefined || where === 'top') {
      tree.detach(line);
      tree.insert(line, parent, afterRef === undefined ? undefined : tree.find(afterRef, parent));
    }
  }
  return tree.text();
}
