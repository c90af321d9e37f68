/**
 * get_css_styles as text: blocks in the order of the report, grouped under their headings, with
 * wrappers as nested braces and each losing declaration tagged.
 */
import type {Declaration, StyleBlock} from '../../browser/css/cascade.js';
import type {CssReport} from '../../browser/css/report.js';
import {cleanText} from '../../browser/css/styleBlocks.js';
import {paginate, paginationLines} from '../base/pagination.js';

function declarationLine(declaration: Declaration): string {
  const tag =
    declaration.status === 'active'
      ? declaration.overriddenParts.length > 0
        ? `[partly overloaded: ${declaration.overriddenParts.join(', ')}] `
        : ''
      : `[${declaration.status}] `;
  const important = declaration.important ? ' !important' : '';
  const resolved =
    declaration.resolved === undefined ? '' : ` /* = ${cleanText(declaration.resolved)} */`;
  return `${tag}${declaration.name}: ${cleanText(declaration.value)}${important};${resolved}`;
}

function renderBlock(block: StyleBlock, lines: string[]): void {
  const pad = (depth: number): string => '  '.repeat(depth);
  block.wrappers.forEach((wrapper, depth) => lines.push(`${pad(depth)}${wrapper} {`));
  const depth = block.wrappers.length;
  const source = block.source === undefined ? '' : ` (${block.source})`;
  lines.push(`${pad(depth)}${block.selector}${source} {`);
  for (const declaration of block.declarations) {
    lines.push(`${pad(depth + 1)}${declarationLine(declaration)}`);
  }
  for (const child of block.children ?? []) {
    lines.push(`${pad(depth + 1)}${child.selector} {`);
    for (const declaration of child.declarations) {
      lines.push(`${pad(depth + 2)}${declarationLine(declaration)}`);
    }
    lines.push(`${pad(depth + 1)}}`);
  }
  for (let level = depth; level >= 0; level--) {
    lines.push(`${pad(level)}}`);
  }
}

/** The report, one page of rules at a time (chrome-devtools-mcp's paging lines). */
export function renderReport(
  report: CssReport,
  uid: string,
  pageSize: number,
  pageIdx: number,
): string {
  const lines = [`Styles for ${report.element} (uid: "${uid}"):`];
  if (report.blocks.length === 0) {
    lines.push('(no styles)');
    return lines.join('\n');
  }
  const page = paginate(report.blocks, {pageSize, pageIdx});
  lines.push(...paginationLines(page, report.blocks.length));
  let group: string | undefined;
  for (const block of page.items) {
    if (block.group !== group) {
      group = block.group;
      if (group !== undefined) {
        lines.push(group);
      }
    }
    renderBlock(block, lines);
  }
  return lines.join('\n');
}
