/**
 * Paging for list outputs, with chrome-devtools-mcp's semantics and texts: no pageSize and no
 * pageIdx means everything on one page; otherwise 20 per page by default, and an out-of-range page
 * falls back to the first page with a note instead of failing.
 */

import {z} from 'zod';

export const DEFAULT_PAGE_SIZE = 20;

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

export interface PageRequest {
  pageSize?: number | undefined;
  pageIdx?: number | undefined;
}

export interface Paginated<T> {
  items: readonly T[];
  /** 0-based. */
  currentPage: number;
  totalPages: number;
  /** Index of the first item shown (0-based) and one past the last. */
  startIndex: number;
  endIndex: number;
  invalidPage: boolean;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** True when the caller asked for a page (pageSize or pageIdx given). */
  paged: boolean;
}

export function paginate<T>(items: readonly T[], request: PageRequest = {}): Paginated<T> {
  const total = items.length;
  const paged = request.pageSize !== undefined || request.pageIdx !== undefined;
  if (!paged) {
    return {
      items,
      currentPage: 0,
      totalPages: 1,
      startIndex: 0,
      endIndex: total,
      invalidPage: false,
      hasNextPage: false,
      hasPreviousPage: false,
      paged,
    };
  }
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const requested = request.pageIdx ?? 0;
  const invalidPage = requested < 0 || requested >= totalPages;
  const currentPage = invalidPage ? 0 : requested;
  const startIndex = currentPage * pageSize;
  const slice = items.slice(startIndex, startIndex + pageSize);
  return {
    items: slice,
    currentPage,
    totalPages,
    startIndex,
    endIndex: startIndex + slice.length,
    invalidPage,
    hasNextPage: currentPage < totalPages - 1,
    hasPreviousPage: currentPage > 0,
    paged,
  };
}

/** The header lines: optional invalid-page note, `Showing a-b of N (Page p of P).`, next/previous. */
export function paginationLines(result: Paginated<unknown>, total: number): string[] {
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
