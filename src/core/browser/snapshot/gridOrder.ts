/**
 * Reading a grid as its user sees it. A data grid that virtualizes or sorts its rows often keeps
 * them in a fixed DOM order and places them with transforms; the order shown is in
 * `aria-rowindex` (and the columns in `aria-colindex`), the full size in `aria-rowcount` and
 * `aria-colcount`. The accessibility tree lists rows in DOM order and carries none of these, so
 * they are read from the DOM (with the other DOM marks, pageProbe.ts): rows are listed in the
 * order of their index, and an index or count is printed where it differs from what the listed
 * rows and cells would make an agent assume.
 */
import {z} from 'zod';
import type {GridPlace, TreeNode} from './axTree.js';

/**
 * In-page source: pushes `element, info` pairs onto `out` for the grids in `roots`, info being
 * JSON of one of gridMarkSchema's shapes. Bounded by the rows and cells it looks at.
 */
export const FIND_GRID_MARKS = `(roots, out) => {
  const GRID = 'table,[role=grid],[role=treegrid],[role=table]';
  const ROW = 'tr,[role=row]';
  const CELL = 'td,th,[role=gridcell],[role=cell],[role=columnheader],[role=rowheader]';
  // A row's own cells, also through wrappers (a grid's presentational containers), not a
  // nested grid's.
  const cellsOf = row => [...row.querySelectorAll(CELL)].filter(cell => cell.closest(ROW) === row && !/^(none|presentation)$/.test(cell.getAttribute('role') || ''));
  const number = (el, name) => { const value = el.getAttribute(name); const parsed = value === null ? NaN : Number(value); return Number.isInteger(parsed) ? parsed : null; };
  let budget = 20000;
  for (const root of roots) {
    if (root !== document && !root.host.isConnected) continue;
    for (const grid of root.querySelectorAll(GRID)) {
      const rowcount = number(grid, 'aria-rowcount');
      const colcount = number(grid, 'aria-colcount');
      const indexed = grid.querySelector('[aria-rowindex],[aria-colindex]');
      if (rowcount === null && colcount === null && !indexed) continue;
      if (budget <= 0) return;
      const rows = [...grid.querySelectorAll(ROW)].filter(row => row.closest(GRID) === grid);
      budget -= rows.length;
      if (rowcount !== null && rowcount !== rows.length) out.push(grid, JSON.stringify({rowcount}));
      if (colcount !== null && rows.length > 0 && colcount !== Math.max(...rows.slice(0, 50).map(row => cellsOf(row).length))) {
        out.push(grid, JSON.stringify({colcount}));
      }
      if (!indexed) continue;
      const indices = rows.map(row => number(row, 'aria-rowindex'));
      if (indices.some((index, position) => index !== null && index !== position + 1)) {
        rows.forEach((row, position) => {
          const index = indices[position];
          if (index !== null) out.push(row, JSON.stringify({rowindex: index, shown: index !== position + 1}));
        });
      }
      for (const row of rows) {
        if (budget <= 0) return;
        const cells = cellsOf(row);
        budget -= cells.length;
        cells.forEach((cell, position) => {
          const index = number(cell, 'aria-colindex');
          if (index !== null && index !== position + 1) out.push(cell, JSON.stringify({colindex: index}));
        });
      }
    }
  }
}`;

export const gridMarkSchema = z.union([
  z.object({rowindex: z.number().int(), shown: z.boolean()}),
  z.object({colindex: z.number().int()}),
  z.object({rowcount: z.number().int()}),
  z.object({colcount: z.number().int()}),
]);
export type GridMark = z.infer<typeof gridMarkSchema>;

export function addGridMark(place: GridPlace, mark: GridMark): GridPlace {
  if ('rowindex' in mark) {
    return {...place, rowIndex: mark.rowindex, rowShown: mark.shown};
  }
  if ('colindex' in mark) {
    return {...place, colIndex: mark.colindex};
  }
  if ('rowcount' in mark) {
    return {...place, rowCount: mark.rowcount};
  }
  return {...place, colCount: mark.colcount};
}

/** The words a node's grid place prints (`rowindex=52`, `rowcount=1001`, -1 as "unknown"). */
export function gridWords(place: GridPlace | undefined): string[] {
  if (!place) {
    return [];
  }
  const words: string[] = [];
  if (place.rowIndex !== undefined && place.rowShown === true) {
    words.push(`rowindex=${place.rowIndex}`);
  }
  if (place.colIndex !== undefined) {
    words.push(`colindex=${place.colIndex}`);
  }
  if (place.rowCount !== undefined) {
    words.push(`rowcount=${place.rowCount < 0 ? 'unknown' : place.rowCount}`);
  }
  if (place.colCount !== undefined) {
    words.push(`colcount=${place.colCount < 0 ? 'unknown' : place.colCount}`);
  }
  return words;
}

/**
 * A node's children in the order shown: rows that carry a row index are put in index order among
 * the places rows hold (other children stay where they are). The kept list is never reordered.
 */
export function shownOrder(node: TreeNode): readonly TreeNode[] {
  const children = node.children;
  let indexed = 0;
  for (const child of children) {
    if (child.grid?.rowIndex !== undefined) {
      indexed++;
    }
  }
  if (indexed < 2) {
    return children;
  }
  const slots: number[] = [];
  const rows: TreeNode[] = [];
  children.forEach((child, position) => {
    if (child.grid?.rowIndex !== undefined) {
      slots.push(position);
      rows.push(child);
    }
  });
  // Stable: equal indices (a row split over pinned containers) keep their DOM order.
  const sorted = rows
    .map((row, position) => ({row, position}))
    .sort(
      (a, b) =>
        (a.row.grid?.rowIndex ?? 0) - (b.row.grid?.rowIndex ?? 0) || a.position - b.position,
    )
    .map(entry => entry.row);
  const ordered = [...children];
  slots.forEach((slot, position) => {
    const row = sorted[position];
    if (row) {
      ordered[slot] = row;
    }
  });
  return ordered;
}
