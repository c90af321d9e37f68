/**
 * Whether a replayed call had the same outcome as the recorded one: the same status, and the same
 * text once what differs between any two runs is normalised away (uids, page ids, request and
 * message ids, timings, temporary file names). Otherwise a short line diff of the text.
 */

const RULES: readonly [pattern: RegExp, replacement: string][] = [
  // Page listings: "2: Title (url) [selected]".
  [/^(\s*)\d+: /gm, '$1<page>: '],
  // Snapshot lines start with the bare uid: " 12 button "Buy"".
  [/^(\s*)\d+(?= [A-Za-z"…])/gm, '$1<uid>'],
  [/\buid[ =]"?\d+"?/g, 'uid <uid>'],
  [/\b(pageId|page|reqid|msgid|requestId|id)([ =:#]+)\d+\b/gi, '$1$2<id>'],
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

/** Lines shown per side of a diff; the rest is counted. */
const DIFF_LINES = 4;
/** Characters per diff line, so one huge line cannot flood the report. */
const DIFF_LINE_CHARS = 160;

function clip(line: string): string {
  return line.length > DIFF_LINE_CHARS ? `${line.slice(0, DIFF_LINE_CHARS)}…` : line;
}

/**
 * A short diff: the common first and last lines are dropped, then at most a few lines of what the
 * recording had (-) and what the replay got (+), with a count of the rest.
 */
export function shortDiff(recorded: string, replayed: string): string {
  const before = recorded.split('\n');
  const after = replayed.split('\n');
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
  const side = (lines: string[], sign: string): string[] => {
    const changed = lines.slice(start, lines.length - end);
    const shown = changed.slice(0, DIFF_LINES).map(line => `${sign} ${clip(line)}`);
    if (changed.length > DIFF_LINES) {
      shown.push(`${sign} … ${changed.length - DIFF_LINES} more line(s)`);
    }
    return shown;
  };
  const lines = [...side(before, '-'), ...side(after, '+')];
  return [`@@ line ${start + 1}`, ...lines].join('\n');
}
