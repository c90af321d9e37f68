/**
 * How the Log's list moves while calls stream, pure: as log viewers do, it follows the newest call
 * until the person takes over. While the pointer is over the rows nothing moves under it
 * (following waits until it leaves); choosing a row or scrolling up stops following; scrolling
 * back to the end, or the follow button, starts it again. When it does not follow, the rows on
 * screen stay where they are as calls arrive (anchored on the selected row, else the top row),
 * and keyboard selection scrolls just enough to show the whole row below the sticky header.
 * The table (LogTable.tsx) applies what these rules say.
 */

export interface FollowState {
  /** The person wants the newest call in view. */
  following: boolean;
  /** The pointer is over the rows: following waits, so a click lands on the row it aimed at. */
  pointerOver: boolean;
  /** Rows shown when the view last showed the newest one: what arrived since is "new". */
  seenCount: number;
}

export type FollowAction =
  | {type: 'pointer'; over: boolean; rowCount: number}
  /** A row was chosen, by a click or a key. */
  | {type: 'selected'; rowCount: number}
  /** The person scrolled (not the table itself). */
  | {type: 'scrolled'; atEnd: boolean; rowCount: number}
  /** The follow button. */
  | {type: 'follow'; rowCount: number};

export const INITIAL_FOLLOW: FollowState = {following: true, pointerOver: false, seenCount: 0};

/** Whether the view sticks to the newest row right now. */
export function sticksToEnd(state: FollowState): boolean {
  return state.following && !state.pointerOver;
}

export function reduceFollow(state: FollowState, action: FollowAction): FollowState {
  // Leaving the newest row in view: count what arrives from here on.
  const seen = sticksToEnd(state) ? action.rowCount : state.seenCount;
  switch (action.type) {
    case 'pointer':
      return action.over === state.pointerOver
        ? state
        : {...state, pointerOver: action.over, seenCount: seen};
    case 'selected':
      return state.following ? {...state, following: false, seenCount: seen} : state;
    case 'scrolled':
      if (action.atEnd) {
        return state.following && state.seenCount === action.rowCount
          ? state
          : {...state, following: true, seenCount: action.rowCount};
      }
      return state.following ? {...state, following: false, seenCount: seen} : state;
    case 'follow':
      return {...state, following: true, seenCount: action.rowCount};
  }
}

export type FollowStatus =
  | {kind: 'following'; text: string}
  | {kind: 'paused'; text: string}
  | {kind: 'stopped'; button: string};

/** What the strip under the rows says, and the follow button's label when there is one. */
export function followStatus(state: FollowState, rowCount: number): FollowStatus {
  if (sticksToEnd(state)) {
    return {kind: 'following', text: 'Following new calls'};
  }
  const fresh = Math.max(0, rowCount - state.seenCount);
  if (state.following) {
    const count = fresh > 0 ? ` · ${fresh} new` : '';
    return {kind: 'paused', text: `Paused while the pointer is on the list${count}`};
  }
  return {kind: 'stopped', button: fresh > 0 ? `↓ ${fresh} new — follow` : '↓ Follow new calls'};
}

// --- Where the list scrolls to ----------------------------------------------------------------

export interface ListGeometry {
  rowHeight: number;
  /** The sticky header row above the first call row. */
  headerHeight: number;
  /** The height rows are seen in (the scroll box, without a horizontal scrollbar). */
  viewportHeight: number;
  rowCount: number;
}

export function rowTop(index: number, geometry: ListGeometry): number {
  return geometry.headerHeight + index * geometry.rowHeight;
}

export function maxScrollTop(geometry: ListGeometry): number {
  return Math.max(0, rowTop(geometry.rowCount, geometry) - geometry.viewportHeight);
}

function clampTop(top: number, geometry: ListGeometry): number {
  return Math.min(maxScrollTop(geometry), Math.max(0, top));
}

/** The scroll position that shows row `index` whole, below the header, moving as little as it can. */
export function revealScrollTop(index: number, scrollTop: number, geometry: ListGeometry): number {
  const top = rowTop(index, geometry);
  if (top - geometry.headerHeight < scrollTop) {
    return clampTop(top - geometry.headerHeight, geometry);
  }
  const bottom = top + geometry.rowHeight;
  if (bottom > scrollTop + geometry.viewportHeight) {
    return clampTop(bottom - geometry.viewportHeight, geometry);
  }
  return scrollTop;
}

/** A row and where it is on screen (its top minus the scroll position), to keep it there. */
export interface ViewAnchor {
  ordinal: number;
  offset: number;
}

/**
 * What to keep in place: the selected row while any of it is on screen, else the row at the top.
 * `rows` are the ordinals shown, ascending.
 */
export function anchorOf(
  rows: readonly number[],
  scrollTop: number,
  geometry: ListGeometry,
  selectedOrdinal: number | undefined,
): ViewAnchor | undefined {
  if (selectedOrdinal !== undefined) {
    const index = lowerBound(rows, selectedOrdinal);
    const top = rowTop(index, geometry);
    const onScreen =
      rows[index] === selectedOrdinal &&
      top + geometry.rowHeight > scrollTop + geometry.headerHeight &&
      top < scrollTop + geometry.viewportHeight;
    if (onScreen) {
      return {ordinal: selectedOrdinal, offset: top - scrollTop};
    }
  }
  const index = Math.min(rows.length - 1, Math.floor(scrollTop / geometry.rowHeight));
  const ordinal = rows[index];
  return ordinal === undefined ? undefined : {ordinal, offset: rowTop(index, geometry) - scrollTop};
}

/**
 * The scroll position that puts the anchor row back where it was, whatever came or went above it
 * (a trimmed log, a filter that drops ended calls); a row that is gone is replaced by the next.
 */
export function anchoredScrollTop(
  anchor: ViewAnchor,
  rows: readonly number[],
  geometry: ListGeometry,
): number {
  const index = Math.min(lowerBound(rows, anchor.ordinal), Math.max(0, rows.length - 1));
  return clampTop(rowTop(index, geometry) - anchor.offset, geometry);
}

/** The first index whose ordinal is at least `ordinal` (rows are ascending). */
function lowerBound(rows: readonly number[], ordinal: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((rows[middle] ?? Infinity) < ordinal) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}
