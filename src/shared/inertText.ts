/**
 * Text from a page, a client or a file, made inert for a reply that is read line by line (an
 * agent's tool result, tools/list descriptions, the CLI's output). Readers split lines on more
 * than LF: a lone CR, VT, FF, the file/group/record separators (Python's splitlines), NEL, and
 * U+2028/U+2029 (JavaScript, many editors and terminals). Bidi controls reorder what a person sees
 * around them. Each becomes a visible escape (`\n`, `\r`, `\u2028`), so untrusted text can neither
 * start a line of its own nor hide what follows it.
 *
 * `oneLine` is for a value that goes into a line (a title, a client's name, a console message in a
 * listing); `inertLines` is applied to a whole reply, whose own lines are joined with LF only, so
 * every other break and every bidi control in it came from outside.
 */

/** Beyond the controls: U+2028/U+2029 and the bidi controls (ALM, LRM, RLM, embeddings, isolates). */
const SEPARATORS_AND_BIDI = '\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
/** Every control but TAB and LF, DEL and the C1 controls (NEL among them), and the above. */
const IN_LINES = `[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${SEPARATORS_AND_BIDI}]`;
/** The same and LF. */
const IN_ONE_LINE = `[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f${SEPARATORS_AND_BIDI}]`;
const INERT_IN_LINES = new RegExp(IN_LINES, 'g');
const INERT_IN_ONE_LINE = new RegExp(IN_ONE_LINE, 'g');
const HAS_INERT_IN_LINES = new RegExp(IN_LINES);
const HAS_INERT_IN_ONE_LINE = new RegExp(IN_ONE_LINE);

function escapeCharacter(character: string): string {
  if (character === '\n') {
    return '\\n';
  }
  if (character === '\r') {
    return '\\r';
  }
  return `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
}

/** The text as one line: every line break (LF too), control and bidi control escaped. */
export function oneLine(text: string): string {
  return HAS_INERT_IN_ONE_LINE.test(text) ? text.replace(INERT_IN_ONE_LINE, escapeCharacter) : text;
}

/**
 * A whole reply, whose own lines are joined with LF: every other line break, control and bidi
 * control in it is escaped (they can only have come from outside).
 */
export function inertLines(text: string): string {
  return HAS_INERT_IN_LINES.test(text) ? text.replace(INERT_IN_LINES, escapeCharacter) : text;
}
