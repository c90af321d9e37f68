/**
 * How the Log's list moves while calls stream (features/log/logFollow.ts) and which columns it
 * shows at a width (features/log/logColumns.ts).
 *
 * Tests: src/renderer/src/features/log/logColumns.ts, src/renderer/src/features/log/logFollow.ts
 */
import {describe, expect, it} from 'vitest';
import {LOG_COLUMNS, logLayout} from '../../src/renderer/src/features/log/logColumns.js';
import {
  anchoredScrollTop,
  anchorOf,
  followStatus,
  INITIAL_FOLLOW,
  maxScrollTop,
  reduceFollow,
  revealScrollTop,
  sticksToEnd,
  type FollowAction,
  type FollowState,
  type ListGeometry,
} from '../../src/renderer/src/features/log/logFollow.js';

function run(actions: readonly FollowAction[], from: FollowState = INITIAL_FOLLOW): FollowState {
  return actions.reduce(reduceFollow, from);
}

describe('following new calls', () => {
  it('follows at first, and says so', () => {
    expect(sticksToEnd(INITIAL_FOLLOW)).toBe(true);
    expect(followStatus(INITIAL_FOLLOW, 50)).toEqual({
      kind: 'following',
      text: 'Following new calls',
    });
  });

  it('waits while the pointer is over the rows, counting what arrives, and goes on once it leaves', () => {
    const over = run([{type: 'pointer', over: true, rowCount: 10}]);
    expect(sticksToEnd(over)).toBe(false);
    expect(followStatus(over, 10)).toEqual({
      kind: 'paused',
      text: 'Paused while the pointer is on the list',
    });
    expect(followStatus(over, 13)).toEqual({
      kind: 'paused',
      text: 'Paused while the pointer is on the list · 3 new',
    });
    const left = reduceFollow(over, {type: 'pointer', over: false, rowCount: 13});
    expect(sticksToEnd(left)).toBe(true);
    // The same pointer state again changes nothing (no re-render per mouse move).
    expect(reduceFollow(left, {type: 'pointer', over: false, rowCount: 14})).toBe(left);
  });

  it('stops when a row is chosen or the person scrolls up, and counts the calls since', () => {
    for (const stop of [
      {type: 'selected', rowCount: 20},
      {type: 'scrolled', atEnd: false, rowCount: 20},
    ] as const) {
      const stopped = run([stop]);
      expect(stopped.following).toBe(false);
      // The pointer leaving does not start it again.
      const left = run([
        {type: 'pointer', over: true, rowCount: 20},
        {...stop},
        {type: 'pointer', over: false, rowCount: 25},
      ]);
      expect(sticksToEnd(left)).toBe(false);
      expect(followStatus(left, 25)).toEqual({kind: 'stopped', button: '↓ 5 new — follow'});
      expect(followStatus(stopped, 20)).toEqual({kind: 'stopped', button: '↓ Follow new calls'});
    }
  });

  it('counts from where the view last showed the newest row, not from the click', () => {
    // Paused at 10 rows by the pointer, a row chosen at 14: the 4 in between are new too.
    const state = run([
      {type: 'pointer', over: true, rowCount: 10},
      {type: 'selected', rowCount: 14},
    ]);
    expect(followStatus(state, 15)).toEqual({kind: 'stopped', button: '↓ 5 new — follow'});
  });

  it('follows again from the button, or when the person scrolls back to the end', () => {
    const stopped = run([{type: 'selected', rowCount: 20}]);
    expect(sticksToEnd(reduceFollow(stopped, {type: 'follow', rowCount: 30}))).toBe(true);
    const scrolled = reduceFollow(stopped, {type: 'scrolled', atEnd: true, rowCount: 30});
    expect(scrolled.following).toBe(true);
    expect(followStatus(scrolled, 30).kind).toBe('following');
  });
});

describe('where the list scrolls', () => {
  // 28 px rows under a 28 px header, 10 rows seen at once.
  const geometry = (rowCount: number): ListGeometry => ({
    rowHeight: 28,
    headerHeight: 28,
    viewportHeight: 308,
    rowCount,
  });

  it('shows a row chosen by key whole, below the header, moving as little as it can', () => {
    const g = geometry(100);
    // Home: the first row sits right under the header, not behind it.
    expect(revealScrollTop(0, 1_400, g)).toBe(0);
    // End: the last row's bottom at the bottom of the box.
    expect(revealScrollTop(99, 0, g)).toBe(maxScrollTop(g));
    expect(maxScrollTop(g)).toBe(28 + 100 * 28 - 308);
    // A row half under the header comes down whole.
    expect(revealScrollTop(10, 10 * 28 + 14, g)).toBe(10 * 28);
    // A row already in view: nothing moves.
    expect(revealScrollTop(12, 10 * 28, g)).toBe(10 * 28);
    // A row cut at the bottom: just enough to show it.
    expect(revealScrollTop(20, 10 * 28, g)).toBe(28 + 21 * 28 - 308);
  });

  it('keeps the selected row where it is on screen while rows come and go', () => {
    const rows = Array.from({length: 100}, (_, index) => index * 2);
    const g = geometry(rows.length);
    const scrollTop = 40 * 28;
    // Ordinal 90 is row 45: 5 rows (plus the header) down the box.
    const anchor = anchorOf(rows, scrollTop, g, 90);
    expect(anchor).toEqual({ordinal: 90, offset: 28 + 45 * 28 - scrollTop});
    // Appended rows move nothing.
    const appended = [...rows, 200, 202, 204];
    expect(anchoredScrollTop(anchor!, appended, geometry(appended.length))).toBe(scrollTop);
    // Ten rows above it gone (a trimmed log, a filter that drops ended calls): the view follows it.
    const trimmed = rows.slice(10);
    expect(anchoredScrollTop(anchor!, trimmed, geometry(trimmed.length))).toBe(scrollTop - 280);
    // The selected row itself gone: the next one takes its place.
    const without = rows.filter(ordinal => ordinal !== 90);
    expect(anchoredScrollTop(anchor!, without, geometry(without.length))).toBe(scrollTop);
  });

  it('keeps the top row in place when the selected row is off screen or there is none', () => {
    const rows = Array.from({length: 100}, (_, index) => index);
    const g = geometry(rows.length);
    expect(anchorOf(rows, 280, g, 2)).toEqual({ordinal: 10, offset: 28});
    expect(anchorOf(rows, 290, g, undefined)).toEqual({ordinal: 10, offset: 18});
    expect(anchorOf([], 0, geometry(0), undefined)).toBeUndefined();
  });
});

describe('columns at a width', () => {
  it('shows every column where they fit, and before the width is known', () => {
    const all = LOG_COLUMNS.map(column => column.id);
    expect(logLayout(743).columns.map(column => column.id)).toEqual(all);
    expect(logLayout(0).columns.map(column => column.id)).toEqual(all);
  });

  it('drops Page, then Duration, then Client as the list narrows; never Time, Tool or Status', () => {
    const ids = (width: number): string[] => logLayout(width).columns.map(column => column.id);
    // A 900 px window leaves the list about 520 px beside a call's details (all 900 without).
    expect(ids(640)).toEqual(['time', 'client', 'tool', 'page', 'status', 'duration']);
    expect(ids(600)).toEqual(['time', 'client', 'tool', 'status', 'duration']);
    expect(ids(522)).toEqual(['time', 'client', 'tool', 'status']);
    expect(ids(380)).toEqual(['time', 'tool', 'status']);
    expect(ids(200)).toEqual(['time', 'tool', 'status']);
    // Narrower than that, the table scrolls sideways at its least width.
    expect(logLayout(200).minWidth).toBe(16 + 96 + 200 + 76);
    expect(logLayout(522).template).toBe('96px minmax(80px, 1fr) minmax(160px, 3fr) 76px');
  });
});
