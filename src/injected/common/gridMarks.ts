/**
 * A grid as its user sees it (src/core/browser/snapshot/gridOrder.ts reads the marks): the order
 * shown is in `aria-rowindex` (the columns in `aria-colindex`), the full size in `aria-rowcount`
 * and `aria-colcount`, none of which the accessibility tree carries. Marks are given where these
 * differ from what the listed rows and cells would make an agent assume.
 */
import {isLiveRoot, type ProbeRoot} from './probeState.js';

const GRID = 'table,[role=grid],[role=treegrid],[role=table]';
const ROW = 'tr,[role=row]';
const CELL = 'td,th,[role=gridcell],[role=cell],[role=columnheader],[role=rowheader]';
/** Rows and cells looked at, over all grids. */
const BUDGET = 20000;
/** Rows whose cells count toward the columns a grid shows. */
const COLUMN_ROWS = 50;

/** Marked elements and their info, in pairs: `element, JSON`. */
export type MarkList = (Element | string)[];

/** A row's own cells, also through wrappers (a grid's presentational containers), not a nested grid's. */
function cellsOf(row: Element): Element[] {
  return [...row.querySelectorAll(CELL)].filter(
    cell =>
      cell.closest(ROW) === row && !/^(none|presentation)$/.test(cell.getAttribute('role') ?? ''),
  );
}

/** An attribute's value as an integer, or null. */
function integerAttribute(element: Element, name: string): number | null {
  const value = element.getAttribute(name);
  const parsed = value === null ? NaN : Number(value);
  return Number.isInteger(parsed) ? parsed : null;
}

/** A row's index wherever one differs from its place (then every indexed row's). */
function markRows(rows: readonly Element[], out: MarkList): void {
  const indexed = rows.map((row, position) => ({
    row,
    index: integerAttribute(row, 'aria-rowindex'),
    position,
  }));
  if (!indexed.some(({index, position}) => index !== null && index !== position + 1)) {
    return;
  }
  for (const {row, index, position} of indexed) {
    if (index !== null) {
      out.push(row, JSON.stringify({rowindex: index, shown: index !== position + 1}));
    }
  }
}

/** Cells whose column index differs from their place in the row. */
function markCells(cells: readonly Element[], out: MarkList): void {
  cells.forEach((cell, position) => {
    const index = integerAttribute(cell, 'aria-colindex');
    if (index !== null && index !== position + 1) {
      out.push(cell, JSON.stringify({colindex: index}));
    }
  });
}

/** What a grid says of itself, or undefined when it says nothing of its size and order. */
interface GridAttributes {
  rowcount: number | null;
  colcount: number | null;
  indexed: boolean;
}

function gridAttributes(grid: Element): GridAttributes | undefined {
  const rowcount = integerAttribute(grid, 'aria-rowcount');
  const colcount = integerAttribute(grid, 'aria-colcount');
  const indexed = grid.querySelector('[aria-rowindex],[aria-colindex]') !== null;
  return rowcount === null && colcount === null && !indexed
    ? undefined
    : {rowcount, colcount, indexed};
}

/** One grid's marks; the budget left (at most 0 when the bound was reached inside it). */
function markGrid(
  grid: Element,
  attributes: GridAttributes,
  budget: number,
  out: MarkList,
): number {
  const {rowcount, colcount, indexed} = attributes;
  const rows = [...grid.querySelectorAll(ROW)].filter(row => row.closest(GRID) === grid);
  let left = budget - rows.length;
  if (rowcount !== null && rowcount !== rows.length) {
    out.push(grid, JSON.stringify({rowcount}));
  }
  if (
    colcount !== null &&
    rows.length > 0 &&
    colcount !== Math.max(...rows.slice(0, COLUMN_ROWS).map(row => cellsOf(row).length))
  ) {
    out.push(grid, JSON.stringify({colcount}));
  }
  if (!indexed) {
    return left;
  }
  markRows(rows, out);
  for (const row of rows) {
    if (left <= 0) {
      return left;
    }
    const cells = cellsOf(row);
    left -= cells.length;
    markCells(cells, out);
  }
  return left;
}

/** Pushes `element, info` pairs onto `out` for the grids in `roots`; bounded by rows and cells. */
export function findGridMarks(roots: readonly ProbeRoot[], out: MarkList): void {
  let budget = BUDGET;
  for (const root of roots) {
    if (!isLiveRoot(root)) {
      continue;
    }
    for (const grid of root.querySelectorAll(GRID)) {
      const attributes = gridAttributes(grid);
      if (!attributes) {
        continue;
      }
      // Once the bound is reached, in a grid or between grids, no grid is looked at again.
      if (budget <= 0) {
        return;
      }
      budget = markGrid(grid, attributes, budget, out);
    }
  }
}
