/**
 * Whether a replayed call had the same outcome as the recorded one: the same status, and the same
 * text once what differs between any two runs is normalised away (uids, page ids, request and
 * message ids, trace node ids, timings, HTTP dates, temporary file names). Otherwise a line diff
 * of the text with every changed hunk.
 */

const RULES: readonly [pattern: RegExp, replacement: string][] = [
  // Page listings: "2: Title (url) [selected]".
  [/^(\s*)\d+: /gm, '$1<page>: '],
  // Snapshot lines start with the bare uid: " 12 button "Buy"".
  [/^(\s*)\d+(?= [A-Za-z"…])/gm, '$1<uid>'],
  [/\buid[ =]"?\d+"?/g, 'uid <uid>'],
  [/\b(pageId|page|reqid|msgid|requestId|id|nodeId|backendNodeId)([ =:#]+)\d+\b/gi, '$1$2<id>'],
  // Response headers that say when, not what: `- date:Tue, 02 Dec 2026 03:03:11 GMT`.
  [/^- (date|expires|last-modified|age):.*$/gim, '- $1:<when>'],
  [/\b\d+(\.\d+)?\s?(ms|s|µs)\b/g, '<time>'],
  [/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?\b/g, '<timestamp>'],
  // Files the server wrote for this run (screenshots, traces) have random names.
  [/\/[\w.-]*(mcp-browser-inspector|mbi)[\w.-]*\/[\w.-]+/g, '<file>'],
];

/**
 * The recorded text and the replayed one, made comparable. A recording keeps a preview of a long
 * result (its first characters, then a line saying how many more there were): then only the
 * preview's whole lines are compared, with as many first lines of the replayed text.
 */
export function comparableTexts(
  recorded: string,
  replayed: string,
  recordedCut: boolean,
): {before: string; after: string} {
  if (!recordedCut) {
    return {before: recorded, after: replayed};
  }
  // Drop the marker line and the line the cut went through.
  const lines = recorded.split('\n').slice(0, -2);
  const after = replayed.split('\n').slice(0, lines.length);
  return {before: lines.join('\n'), after: after.join('\n')};
}

export function normaliseResultText(text: string): string {
  let normalised = text.replace(/\r\n/g, '\n').trimEnd();
  for (const [pattern, replacement] of RULES) {
    normalised = normalised.replace(pattern, replacement);
  }
  return normalised;
}

/** Lines shown per side of one hunk; the rest is counted. */
const HUNK_LINES = 4;
/** Hunks shown per diff; the rest is counted. */
const MAX_HUNKS = 50;
/** Characters per diff line, so one huge line cannot flood the report. */
const DIFF_LINE_CHARS = 160;
/** Beyond this many changed lines the texts are one hunk (the diff would cost more than it says). */
const MAX_EDIT_DISTANCE = 1_000;

function clip(line: string): string {
  return line.length > DIFF_LINE_CHARS ? `${line.slice(0, DIFF_LINE_CHARS)}…` : line;
}

type Edit = 'same' | 'removed' | 'added';

/**
 * The shortest edit script from `a` to `b` (Myers), or undefined when it needs more than
 * MAX_EDIT_DISTANCE edits. Memory grows with the square of the edits, not of the lengths.
 */
function editScript(a: readonly string[], b: readonly string[]): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const trace: Int32Array[] = [];
  let v = new Int32Array(3);
  for (let d = 0; d <= Math.min(n + m, MAX_EDIT_DISTANCE); d++) {
    // v holds the furthest x per diagonal k in -d..d at index k + d + 1 (room for k ± 1).
    const next = new Int32Array(2 * d + 3);
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[k + d] ?? 0) < (v[k + d + 2] ?? 0));
      let x = down ? (v[k + d + 2] ?? 0) : (v[k + d] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[k + d + 1] = x;
      if (x >= n && y >= m) {
        trace.push(next);
        return backtrack(trace, n, m);
      }
    }
    trace.push(next);
    // Shift for the next round: index k + (d + 1) + 1 in a row one wider on each side.
    v = new Int32Array(2 * d + 5);
    v.set(next, 1);
  }
  return undefined;
}

function backtrack(trace: readonly Int32Array[], n: number, m: number): Edit[] {
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d - 1] ?? new Int32Array(0);
    const k = x - y;
    const at = (row: Int32Array, diagonal: number, depth: number): number =>
      row[diagonal + depth + 1] ?? 0;
    const down = k === -d || (k !== d && at(previous, k - 1, d - 1) < at(previous, k + 1, d - 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previous, previousK, d - 1);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      edits.push('same');
      x--;
      y--;
    }
    edits.push(down ? 'added' : 'removed');
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    edits.push('same');
    x--;
    y--;
  }
  return edits.reverse();
}

interface Hunk {
  /** 1-based line of the recorded text where it starts. */
  line: number;
  removed: string[];
  added: string[];
}

function hunksOf(before: readonly string[], after: readonly string[]): Hunk[] {
  const edits = editScript(before, after);
  if (edits === undefined) {
    // Too different for a line-by-line diff: one hunk between the common first and last lines.
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start]) {
      start++;
    }
    let end = 0;
    while (
      end < before.length - start &&
      end < after.length - start &&
      before[before.length - 1 - end] === after[after.length - 1 - end]
    ) {
      end++;
    }
    return [
      {
        line: start + 1,
        removed: before.slice(start, before.length - end),
        added: after.slice(start, after.length - end),
      },
    ];
  }
  const hunks: Hunk[] = [];
  let x = 0;
  let y = 0;
  let open: Hunk | undefined;
  for (const edit of edits) {
    if (edit === 'same') {
      open = undefined;
      x++;
      y++;
      continue;
    }
    if (!open) {
      open = {line: x + 1, removed: [], added: []};
      hunks.push(open);
    }
    if (edit === 'removed') {
      open.removed.push(before[x++] ?? '');
    } else {
      open.added.push(after[y++] ?? '');
    }
  }
  return hunks;
}

function side(lines: readonly string[], sign: string): string[] {
  const shown = lines.slice(0, HUNK_LINES).map(line => `${sign} ${clip(line)}`);
  if (lines.length > HUNK_LINES) {
    shown.push(`${sign} … ${lines.length - HUNK_LINES} more line(s)`);
  }
  return shown;
}

/**
 * A line diff: every hunk that differs, each under `@@ line N` (of the recorded text), with at
 * most a few lines of what the recording had (-) and what the replay got (+) and a count of the rest.
 */
export function lineDiff(recorded: string, replayed: string): string {
  const hunks = hunksOf(recorded.split('\n'), replayed.split('\n'));
  const lines = hunks
    .slice(0, MAX_HUNKS)
    .flatMap(hunk => [
      `@@ line ${hunk.line}`,
      ...side(hunk.removed, '-'),
      ...side(hunk.added, '+'),
    ]);
  if (hunks.length > MAX_HUNKS) {
    lines.push(`… ${hunks.length - MAX_HUNKS} more hunk(s)`);
  }
  return lines.join('\n');
}
