/**
 * The virtualized call grid. Fixed row height (no measuring, no layout jumps); it follows new rows
 * while the user is at the bottom and stops as soon as they scroll up, offering a button back.
 */
import {useVirtualizer, type Virtualizer} from '@tanstack/react-virtual';
import {memo, useCallback, useLayoutEffect, useRef, useState} from 'react';
import type {CallRecord} from '../../store/CallLog.js';
import {formatClock, formatDuration} from '../../ui/format.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {ClientBadge} from '../../ui/ClientBadge.js';

const ROW_HEIGHT = 28;
const RECYCLE_SLOTS = 128;

export interface LogTableProps {
  rows: readonly number[];
  rowAt: (ordinal: number) => CallRecord | undefined;
  selectedOrdinal: number | undefined;
  onSelect: (record: CallRecord) => void;
  onMove: (delta: number | 'first' | 'last') => number | undefined;
  /** Changes whenever any row may have changed (the log version); re-renders the rows. */
  version: number;
}

/** Keys that move the selection, and by how much. */
const MOVES: Record<string, number | 'first' | 'last'> = {
  ArrowDown: 1,
  ArrowUp: -1,
  PageDown: 10,
  PageUp: -10,
  Home: 'first',
  End: 'last',
};

export function LogTable(props: LogTableProps): React.JSX.Element {
  const {rows, rowAt, selectedOrdinal, onSelect, onMove} = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useRowVirtualizer(rows, scrollRef);
  const {following, unseen} = useFollowing(virtualizer, rows.length);

  const jumpToLatest = (): void => {
    if (rows.length > 0) {
      virtualizer.scrollToIndex(rows.length - 1, {align: 'end'});
    }
  };

  const onKeyDown = (event: React.KeyboardEvent): void => {
    const delta = MOVES[event.key];
    if (delta === undefined) {
      return;
    }
    event.preventDefault();
    const index = onMove(delta);
    if (index !== undefined) {
      virtualizer.scrollToIndex(index, {align: delta === 'last' ? 'end' : 'auto'});
    }
  };

  const virtualItems = virtualizer.getVirtualItems();
  // Rows are recycled: the element that showed a row that scrolled out shows the next one, so a
  // fast stream updates text in place instead of creating and removing elements every frame. Any
  // slot count at least as large as the rendered range keeps keys unique (the range is contiguous).
  const recycleSlots = Math.max(RECYCLE_SLOTS, virtualItems.length);

  const selectedIndex = selectedOrdinal === undefined ? -1 : rows.indexOf(selectedOrdinal);
  const activeId = selectedIndex >= 0 ? `call-row-${selectedOrdinal ?? ''}` : undefined;

  return (
    <div className="log-table">
      <div
        className="log-table__scroll"
        ref={scrollRef}
        role="grid"
        aria-label="Tool calls"
        aria-rowcount={rows.length + 1}
        aria-activedescendant={activeId}
        aria-readonly="true"
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="call-log"
      >
        <div
          className="log-table__canvas"
          role="rowgroup"
          style={{height: virtualizer.getTotalSize()}}
        >
          <HeaderRow />
          {virtualItems.map(item => {
            const ordinal = rows[item.index];
            const record = ordinal === undefined ? undefined : rowAt(ordinal);
            if (!record) {
              return null;
            }
            return (
              <LogRow
                key={item.index % recycleSlots}
                record={record}
                top={item.start}
                rowIndex={item.index + 2}
                selected={record.ordinal === selectedOrdinal}
                onSelect={onSelect}
              />
            );
          })}
        </div>
      </div>
      {following ? null : (
        <button type="button" className="primary log-table__jump" onClick={jumpToLatest}>
          {unseen > 0 ? `↓ ${unseen} new — follow` : '↓ Follow new calls'}
        </button>
      )}
    </div>
  );
}

function useRowVirtualizer(
  rows: readonly number[],
  scrollRef: React.RefObject<HTMLDivElement | null>,
): Virtualizer<HTMLDivElement, Element> {
  // `rows` is appended to in place; the key of a row is its call's ordinal.
  const getItemKey = useCallback((index: number) => rows[index] ?? -index - 1, [rows]);
  // TanStack Virtual hands out fresh functions on purpose; nothing here memoizes on them.
  // eslint-disable-next-line react-hooks/incompatible-library -- see the line above
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    // Scroll-driven range changes render with the next batch instead of synchronously inside the
    // scroll event (a second full render per frame while following a fast stream).
    useFlushSync: false,
    // The sticky header row sits above the first call row.
    paddingStart: ROW_HEIGHT,
    getItemKey,
    // Stick to the newest row while the view is at the end; once the user scrolls up, new rows
    // arrive below without moving what they read. No forced layout per batch.
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: ROW_HEIGHT,
  });
  // A newly shown log starts at the newest call, like a terminal.
  const startedAtEnd = useRef(false);
  useLayoutEffect(() => {
    if (!startedAtEnd.current && rows.length > 0) {
      startedAtEnd.current = true;
      virtualizer.scrollToIndex(rows.length - 1, {align: 'end'});
    }
  }, [rows.length, virtualizer]);
  return virtualizer;
}

/** Whether the view follows new rows (it is at the end), and how many arrived since it left it. */
function useFollowing(
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  rowCount: number,
): {following: boolean; unseen: number} {
  const following = virtualizer.getDistanceFromEnd() <= ROW_HEIGHT;
  // How many rows existed when the user left the end, to say how many arrived since.
  const [leftAt, setLeftAt] = useState<number | undefined>();
  if (!following && leftAt === undefined) {
    setLeftAt(rowCount);
  } else if (following && leftAt !== undefined) {
    setLeftAt(undefined);
  }
  return {following, unseen: leftAt === undefined ? 0 : Math.max(0, rowCount - leftAt)};
}

function HeaderRow(): React.JSX.Element {
  return (
    <div className="log-row log-row--header" role="row" aria-rowindex={1}>
      {COLUMNS.map(column => (
        <span
          key={column}
          role="columnheader"
          className={`log-cell log-cell--${column.toLowerCase()}`}
        >
          {column}
        </span>
      ))}
    </div>
  );
}

const COLUMNS = ['Time', 'Client', 'Tool', 'Page', 'Status', 'Duration'] as const;

const LogRow = memo(function LogRow(props: {
  record: CallRecord;
  top: number;
  rowIndex: number;
  selected: boolean;
  onSelect: (record: CallRecord) => void;
}): React.JSX.Element {
  const {record} = props;
  return (
    <div
      id={`call-row-${record.ordinal}`}
      role="row"
      aria-rowindex={props.rowIndex}
      aria-selected={props.selected}
      className={`log-row${props.selected ? ' log-row--selected' : ''}`}
      style={{transform: `translateY(${props.top}px)`}}
      data-call-id={record.callId}
      data-status={record.status}
      onClick={() => props.onSelect(record)}
    >
      <span role="gridcell" className="log-cell log-cell--time mono">
        {formatClock(record.startedAt)}
      </span>
      <span role="gridcell" className="log-cell log-cell--client" title={clientTitle(record)}>
        {record.client.transport === 'inspector' ? (
          <span className="badge badge--inspector">Inspector</span>
        ) : (
          <ClientBadge client={record.client} title={clientTitle(record)} />
        )}
      </span>
      <span role="gridcell" className="log-cell log-cell--tool mono">
        {revealInvisible(record.tool)}
      </span>
      <span role="gridcell" className="log-cell log-cell--page mono">
        {record.pageId ?? ''}
      </span>
      <span role="gridcell" className={`log-cell log-cell--status status status--${record.status}`}>
        {record.status}
      </span>
      <span role="gridcell" className="log-cell log-cell--duration mono">
        {record.status === 'running' || record.status === 'held'
          ? '…'
          : formatDuration(record.durationMs)}
      </span>
    </div>
  );
});

function clientTitle(record: CallRecord): string {
  const {client} = record;
  return revealInvisible(
    client.version ? `${client.name} ${client.version} (${client.transport})` : client.name,
  );
}
