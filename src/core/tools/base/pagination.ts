/**
 * Paging for list outputs, with chrome-devtools-mcp's semantics and texts: no pageSize and no
 * pageIdx means everything on one page; otherwise 20 per page by default, and an out-of-range page
 * falls back to the first page with a note instead of failing.
 */

import {z} from 'zod';

import {pageWindow, type PageRequest, type PageWindow} from '../../../shared/pageWindow.js';

export {DEFAULT_PAGE_SIZE, type PageRequest} from '../../../shared/pageWindow.js';

/** The `pageSize` / `pageIdx` parameters of a list tool, with the peer's descriptions. */
export function pagingParams(items: string) {
  return {
    pageSize: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(`Maximum number of ${items} to return. When omitted, returns all ${items}.`),
    pageIdx: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Page number to return (0-based). When omitted, returns the first page.'),
  };
}

export interface Paginated<T> extends PageWindow {
  items: readonly T[];
}

export function paginate<T>(items: readonly T[], request: PageRequest = {}): Paginated<T> {
  const window = pageWindow(items.length, request);
  return {
    ...window,
    items: window.paged ? items.slice(window.startIndex, window.endIndex) : items,
  };
}

/** The header lines: optional invalid-page note, `Showing a-b of N (Page p of P).`, next/previous. */
export function paginationLines(result: PageWindow, total: number): string[] {
  const lines: string[] = [];
  if (result.invalidPage) {
    lines.push('Invalid page number provided. Showing first page.');
  }
  const first = total === 0 ? 0 : result.startIndex + 1;
  lines.push(
    `Showing ${first}-${result.endIndex} of ${total} (Page ${result.currentPage + 1} of ${result.totalPages}).`,
  );
  if (result.paged) {
    if (result.hasNextPage) {
      lines.push(`Next page: ${result.currentPage + 1}`);
    }
    if (result.hasPreviousPage) {
      lines.push(`Previous page: ${result.currentPage - 1}`);
    }
  }
  return lines;
}
