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
 * A grid mark as the page reports it (src/injected/common/gridMarks.ts finds them, with the other
 * DOM marks).
 */
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
