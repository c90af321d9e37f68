/**
 * The arithmetic of chrome-devtools-mcp's paging, free of any dependency so the heap snapshot
 * worker can page its lists before they cross the thread boundary.
 */

export const DEFAULT_PAGE_SIZE = 20;

export interface PageRequest {
  pageSize?: number | undefined;
  pageIdx?: number | undefined;
}

export interface PageWindow {
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

/** No pageSize and no pageIdx: everything; else 20 per page, an out-of-range page shows the first. */
export function pageWindow(total: number, request: PageRequest = {}): PageWindow {
  const paged = request.pageSize !== undefined || request.pageIdx !== undefined;
  if (!paged) {
    return {
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
  return {
    currentPage,
    totalPages,
    startIndex,
    endIndex: Math.min(total, startIndex + pageSize),
    invalidPage,
    hasNextPage: currentPage < totalPages - 1,
    hasPreviousPage: currentPage > 0,
    paged,
  };
}
