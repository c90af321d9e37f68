/**
 * The README's flag table, made from the flag specs: `npm run readme-flags` writes it between
 * the markers, and a test fails when the README's table differs from what the specs make.
 */
import {FLAG_SPECS, type FlagSpec} from './flagSpecs.js';

export const FLAG_TABLE_START = '<!-- flags:start -->';
export const FLAG_TABLE_END = '<!-- flags:end -->';
const HEADER = ['Flag', 'Takes', 'What it does'];

function names(spec: FlagSpec): string {
  const value = spec.kind === 'boolean' ? '' : spec.kind === 'array' ? ' <value>…' : ' <value>';
  const aliases = (spec.aliases ?? []).map(alias =>
    alias.length === 1 ? `\`-${alias}\`` : `\`--${alias}\``,
  );
  return [`\`--${spec.name}${value}\``, ...aliases].join(', ');
}

function takes(spec: FlagSpec): string {
  if (spec.kind === 'boolean') {
    return spec.defaultValue === true ? 'on/off, on by default' : 'on/off';
  }
  return spec.accepts ?? 'a value';
}

/** Text as a table cell: pipes and asterisks escaped, angle brackets shown as text (never HTML). */
function cell(text: string): string {
  return text
    .replaceAll('|', '\\|')
    .replaceAll('*', '\\*')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** One row of cells per flag, grouped as --help groups them. */
export function flagTableRows(): string[][] {
  const rows: string[][] = [];
  for (const group of ['Server', 'Browser', 'Tools', 'Output', 'Files'] as const) {
    for (const spec of FLAG_SPECS.filter(s => s.group === group)) {
      // The flag's names are code spans, where angle brackets are text already.
      rows.push([names(spec).replaceAll('|', '\\|'), cell(takes(spec)), cell(spec.description)]);
    }
  }
  return rows;
}

export function flagTableMarkdown(): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(HEADER), line(HEADER.map(() => '---')), ...flagTableRows().map(line)].join('\n');
}

/** The cells of a Markdown table's body rows (the header and its rule left out). */
export function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter(row => row.trim().startsWith('|'))
    .slice(2)
    .map(row =>
      row
        .trim()
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map(text => text.trim()),
    );
}

/** What stands between the markers in `text`, or undefined when a marker is missing. */
export function betweenFlagMarkers(text: string): string | undefined {
  const start = text.indexOf(FLAG_TABLE_START);
  const end = text.indexOf(FLAG_TABLE_END);
  if (start === -1 || end < start) {
    return undefined;
  }
  return text.slice(start + FLAG_TABLE_START.length, end);
}

/** `text` with the table between the markers made anew. */
export function withFlagTable(text: string): string {
  const between = betweenFlagMarkers(text);
  if (between === undefined) {
    throw new Error(`The README has no ${FLAG_TABLE_START} … ${FLAG_TABLE_END} markers.`);
  }
  return text.replace(
    `${FLAG_TABLE_START}${between}${FLAG_TABLE_END}`,
    `${FLAG_TABLE_START}\n\n${flagTableMarkdown()}\n\n${FLAG_TABLE_END}`,
  );
}
