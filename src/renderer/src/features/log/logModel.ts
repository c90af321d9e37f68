/**
 * The Log panel's panel model, pure: the filter, the notice (what an import or export had to say),
 * moving the selection by keyboard, and the counts shown. The log itself is the store's CallLog
 * (or an opened recording's); the hook (useLogModel.ts) wires it up.
 */
import {errorText} from '../../../../shared/values.js';
import {EMPTY_FILTER, type LogFilter} from '../../store/LogQuery.js';

export interface LogState {
  filter: LogFilter;
  notice: string | undefined;
}

export type LogAction =
  | {type: 'filter'; patch: Partial<LogFilter>}
  | {type: 'resetFilter'}
  | {type: 'notice'; text: string | undefined};

export const INITIAL_LOG: LogState = {filter: EMPTY_FILTER, notice: undefined};

export function reduceLog(state: LogState, action: LogAction): LogState {
  switch (action.type) {
    case 'filter':
      return {...state, filter: {...state.filter, ...action.patch}};
    case 'resetFilter':
      return {...state, filter: EMPTY_FILTER};
    case 'notice':
      return {...state, notice: action.text};
  }
}

export type SelectionMove = number | 'first' | 'last';

/**
 * The row index the selection moves to within `rows` (ordinals shown): by `delta` rows, or to the
 * first or last. From no selection, down starts at the top and up at the bottom.
 */
export function movedSelection(
  rows: readonly number[],
  selectedOrdinal: number | undefined,
  delta: SelectionMove,
): number | undefined {
  if (rows.length === 0) {
    return undefined;
  }
  const current = selectedOrdinal === undefined ? -1 : rows.indexOf(selectedOrdinal);
  if (delta === 'first') {
    return 0;
  }
  if (delta === 'last') {
    return rows.length - 1;
  }
  if (current === -1) {
    return delta > 0 ? 0 : rows.length - 1;
  }
  return Math.min(rows.length - 1, Math.max(0, current + delta));
}

/** What opening a recording says: nothing, or which lines were not inspector events. */
export function importNotice(
  fileName: string,
  parsed: {skipped: number; skippedAt: readonly number[]},
): string | undefined {
  if (parsed.skipped === 0) {
    return undefined;
  }
  const more = parsed.skipped > parsed.skippedAt.length ? ', …' : '';
  return `Opened ${fileName}; skipped ${parsed.skipped} line(s) that are not inspector events (lines ${parsed.skippedAt.join(', ')}${more}).`;
}

export function exportFailedNotice(error: unknown): string {
  return `Could not export the log: ${errorText(error)}. Check that the inspector server is running, then try again.`;
}

export function openFailedNotice(fileName: string, error: unknown): string {
  return `Could not open ${fileName}: ${errorText(error)}`;
}
