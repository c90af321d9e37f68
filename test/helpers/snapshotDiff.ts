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
const WAS = new RegExp(String.raw`^(.*) \(was in ${REF}(?:, and \d+ lines under it)?\)$`);

/** Whether a snapshot's text is a diff (its first line is the summary). */
export function isSnapshotDiff(snapshot: string): boolean {
  const first = snapshot.split('\n', 1)[0] ?? '';
  return (
    first.includes('since your last snapshot of this page') &&
    first.endsWith('full=true prints the whole tree.')
  );
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
  for (const change of changes) {
    const sign = change.slice(0, 2);
    const rest = change.slice(2);
    if (sign === '- ') {
      const was = WAS.exec(rest);
      const content = was?.[1] ?? rest;
      const parent = was?.[2] === undefined ? tree.root : tree.find(was[2]);
      tree.detach(tree.find(uidOf(content) ?? JSON.stringify(content), parent));
      continue;
    }
    const placed = PLACE.exec(rest);
    if (!placed || (sign !== '+ ' && sign !== '~ ')) {
      throw new Error(`Not a diff line: ${change}`);
    }
    const [, content = '', where = '', parentRef, position, afterRef] = placed;
    const parent = where === 'top' ? tree.root : tree.find(parentRef ?? '');
    const uid = uidOf(content);
    const existing = sign === '~ ' ? tree.find(uid ?? JSON.stringify(content), parent) : undefined;
    if (existing && position === undefined && where !== 'top') {
      existing.content = content;
      continue;
    }
    const line = existing ?? {content, children: [], parent};
    line.content = content;
    if (existing) {
      tree.detach(existing);
    }
    tree.insert(line, parent, afterRef === undefined ? undefined : tree.find(afterRef, parent));
  }
  return tree.text();
}
