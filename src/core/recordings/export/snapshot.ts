/**
 * A recorded snapshot read back from a call's result text (`## Latest page snapshot`, one line
 * per node: `<uid> <role> "<name>" value=… <state words>`, one space of indent per level): each
 * node with its states, the frames it sits in (the `Iframe` nodes above it, outermost first) and
 * which of its document's nodes with the same role and name it is. What the export locates
 * elements by and compares consecutive snapshots with. The text is the recording's: read with
 * bounded, non-backtracking scans, and nothing in it is ever evaluated.
 */

/** One iframe on the way to a node: its name, and which of its document's iframes it is. */
export interface FrameStep {
  name: string;
  /** Among the iframes of its document with the same name. */
  nth: number;
  /** Among all iframes of its document. */
  index: number;
}

export interface SnapshotNode {
  uid: string;
  depth: number;
  /** Chromium's role; a text node (printed without a role) is `StaticText`. */
  role: string;
  name: string;
  value?: string;
  /**
   * State words: `expanded`/`collapsed`, `checked`, `checked=mixed`, `selected`, `focused`,
   * `disabled`, `current=page`, `generated` (text CSS made, not in the DOM)…
   */
  states: ReadonlyMap<string, string>;
  frames: readonly FrameStep[];
  /** Which of the nodes with this role and name in the same document it is (0-based). */
  nth: number;
  /** The uid of the line it is printed under (none for the first line). */
  parentUid?: string;
}

export interface ParsedSnapshot {
  nodes: SnapshotNode[];
  byUid: ReadonlyMap<string, SnapshotNode>;
  /** The lines printed right under each uid, in order. */
  childrenOf: ReadonlyMap<string, readonly SnapshotNode[]>;
  /** The main document's root: its uid and URL (a new document gets a new root). */
  documentKey: string;
}

const SECTION = '## Latest page snapshot';
/** Nodes read per snapshot: a recorded result is a bounded preview anyway. */
const MAX_NODES = 20_000;

/** The snapshot lines of a result text, if it has a snapshot section. */
function snapshotLines(text: string): string[] | undefined {
  const start = text.indexOf(SECTION);
  if (start < 0) {
    return undefined;
  }
  const lines: string[] = [];
  for (const line of text
    .slice(start + SECTION.length)
    .split('\n')
    .slice(1)) {
    if (!/^ *(\d|…)/.test(line)) {
      break;
    }
    lines.push(line);
    if (lines.length >= MAX_NODES) {
      break;
    }
  }
  return lines;
}

/** Reads a JSON string literal starting at `at`; returns its value and where it ended. */
function readQuoted(line: string, at: number): {value: string; end: number} | undefined {
  let end = at + 1;
  while (end < line.length) {
    const char = line[end];
    if (char === '\\') {
      end += 2;
      continue;
    }
    if (char === '"') {
      try {
        const value: unknown = JSON.parse(line.slice(at, end + 1));
        return typeof value === 'string' ? {value, end: end + 1} : undefined;
      } catch {
        return undefined;
      }
    }
    end++;
  }
  return undefined;
}

type Token = {kind: 'word'; text: string} | {kind: 'quoted'; text: string};

/** The tokens after the uid: bare words (`key=value` with a quoted value is one word). */
function tokens(line: string, from: number): Token[] {
  const found: Token[] = [];
  let at = from;
  while (at < line.length) {
    if (line[at] === ' ') {
      at++;
      continue;
    }
    if (line[at] === '"') {
      const quoted = readQuoted(line, at);
      if (!quoted) {
        break;
      }
      found.push({kind: 'quoted', text: quoted.value});
      at = quoted.end;
      continue;
    }
    let end = at;
    while (end < line.length && line[end] !== ' ' && line[end] !== '=') {
      end++;
    }
    if (line[end] === '=' && line[end + 1] === '"') {
      const quoted = readQuoted(line, end + 1);
      if (!quoted) {
        break;
      }
      found.push({kind: 'word', text: `${line.slice(at, end)}=${quoted.value}`});
      at = quoted.end;
      continue;
    }
    while (end < line.length && line[end] !== ' ') {
      end++;
    }
    found.push({kind: 'word', text: line.slice(at, end)});
    at = end;
  }
  return found;
}

interface LineParts {
  depth: number;
  uid: string;
  role: string;
  name: string;
  value?: string;
  states: Map<string, string>;
}

function parseLine(line: string): LineParts | undefined {
  const head = /^( *)(\d+)/.exec(line);
  if (!head) {
    return undefined;
  }
  const parts = tokens(line, head[0].length);
  let index = 0;
  let role = 'StaticText';
  const first = parts[0];
  if (first?.kind === 'word' && !first.text.includes('=')) {
    role = first.text;
    index = 1;
  }
  let name = '';
  const named = parts[index];
  if (named?.kind === 'quoted') {
    name = named.text;
    index++;
  }
  const states = new Map<string, string>();
  let value: string | undefined;
  for (const part of parts.slice(index)) {
    const equals = part.text.indexOf('=');
    const key = equals < 0 ? part.text : part.text.slice(0, equals);
    const text = equals < 0 ? 'true' : part.text.slice(equals + 1);
    if (key === 'value') {
      value = text;
    } else if (key === 'collapsed' || key === 'unpressed') {
      states.set(key === 'collapsed' ? 'expanded' : 'pressed', 'false');
    } else {
      states.set(key, text);
    }
  }
  return {
    depth: head[1]?.length ?? 0,
    uid: head[2] ?? '',
    role,
    name,
    ...(value === undefined ? {} : {value}),
    states,
  };
}

/** The snapshot of a result text, or undefined when it shows none. */
export function parseSnapshot(text: string): ParsedSnapshot | undefined {
  const lines = snapshotLines(text);
  if (lines === undefined || lines.length === 0) {
    return undefined;
  }
  const nodes: SnapshotNode[] = [];
  const byUid = new Map<string, SnapshotNode>();
  const childrenOf = new Map<string, SnapshotNode[]>();
  // The nearest node at each depth (the parent of the next one a level deeper), counts per
  // document and role+name, and each Iframe node's place among its document's iframes.
  const nodeAt: SnapshotNode[] = [];
  const counts = new Map<string, number>();
  const iframeIndex = new Map<SnapshotNode, number>();
  for (const line of lines) {
    const parts = parseLine(line);
    if (!parts) {
      continue;
    }
    const parent = parts.depth > 0 ? nodeAt[parts.depth - 1] : undefined;
    const parentFrames = parent?.frames ?? [];
    // A document root under an Iframe node opens that frame.
    const frames =
      parent?.role === 'Iframe' && parts.role === 'RootWebArea'
        ? [
            ...parentFrames,
            {name: parent.name, nth: parent.nth, index: iframeIndex.get(parent) ?? 0},
          ]
        : parentFrames;
    const document = frameKey(frames);
    const key = `${document}\u0000${parts.role}\u0000${parts.name}`;
    const nth = counts.get(key) ?? 0;
    counts.set(key, nth + 1);
    const node: SnapshotNode = {
      ...parts,
      frames,
      nth,
      ...(parent === undefined ? {} : {parentUid: parent.uid}),
    };
    if (parent !== undefined) {
      const siblings = childrenOf.get(parent.uid);
      if (siblings) {
        siblings.push(node);
      } else {
        childrenOf.set(parent.uid, [node]);
      }
    }
    if (node.role === 'Iframe') {
      const iframesKey = `${document}\u0000Iframe`;
      const index = counts.get(iframesKey) ?? 0;
      counts.set(iframesKey, index + 1);
      iframeIndex.set(node, index);
    }
    nodeAt[parts.depth] = node;
    nodeAt.length = parts.depth + 1;
    nodes.push(node);
    byUid.set(node.uid, node);
  }
  const root = nodes[0];
  return {
    nodes,
    byUid,
    childrenOf,
    documentKey: root ? `${root.uid} ${root.states.get('url') ?? ''}` : '',
  };
}

function frameKey(frames: readonly FrameStep[]): string {
  return frames.map(step => `${step.index}:${step.name}`).join('>');
}

/** The key of a node's document (its frame chain), for grouping texts per document. */
export function documentOf(node: SnapshotNode): string {
  return frameKey(node.frames);
}
