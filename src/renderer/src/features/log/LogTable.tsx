/**
 * The virtualized call grid. Fixed row height (no measuring, no layout jumps). How it moves while
 * calls stream is decided by logFollow.ts (follow the newest; hold still under the pointer; keep
 * the rows on screen in place once the person takes over) and applied here, before each paint;
 * which columns show at its width, by logColumns.ts. The follow strip sits under the rows.
 */
import {useVirtualizer, type Virtualizer} from '@tanstack/react-virtual';
import {memo, useCallback, useLayoutEffect, useMemo, useReducer, useRef, useState} from 'react';
import type {CallRecord} from '../../store/CallLog.js';
import {callLine, callLineTail} from '../../store/callLine.js';
import {formatClock, formatDuration} from '../../ui/format.js';
import {revealInvisible} from '../../ui/revealInvisible.js';
import {ClientBadge} from '../../ui/ClientBadge.js';
import {logLayout, type LogColumn, type LogColumnId} from './logColumns.js';
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
  type ViewAnchor,
} from './logFollow.js';

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
  const size = useBoxSize(scrollRef);
  const layout = useMemo(() => logLayout(size.width), [size.width]);
  const virtualizer = useRowVirtualizer(rows, scrollRef);
  const [follow, dispatchFollow] = useReducer(reduceFollow, INITIAL_FOLLOW);
  const place = usePlacement({scrollRef, rows, follow, selectedOrdinal, dispatchFollow});
  const rowCount = rows.length;
  // One handler for every row whatever the parent passes, so a batch re-renders only the rows
  // that changed (rows are memoized on their props).
  const latestOnSelect = useRef(onSelect);
  useLayoutEffect(() => {
    latestOnSelect.current = onSelect;
  });
  const selectRow = useCallback((record: CallRecord) => latestOnSelect.current(record), []);

  const onKeyDown = (event: React.KeyboardEvent): void => {
    const delta = MOVES[event.key];
    if (delta === undefined) {
      return;
    }
    event.preventDefault();
    const index = onMove(delta);
    if (index !== undefined) {
      dispatchFollow({type: 'selected', rowCount});
      place.reveal(index);
    }
  };

  const selectedIndex = selectedOrdinal === undefined ? -1 : rows.indexOf(selectedOrdinal);
  const activeId = selectedIndex >= 0 ? `call-row-${selectedOrdinal ?? ''}` : undefined;
  // A click on a row chose it: following stops (heard here, so the rows' handler stays as given).
  const onClick = (event: React.MouseEvent): void => {
    if (event.target instanceof Element && event.target.closest('[role=row][data-call-id]')) {
      dispatchFollow({type: 'selected', rowCount});
    }
  };

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
        onClick={onClick}
        onScroll={place.onScroll}
        onPointerEnter={() => dispatchFollow({type: 'pointer', over: true, rowCount})}
        onPointerLeave={() => dispatchFollow({type: 'pointer', over: false, rowCount})}
        data-testid="call-log"
      >
        <RowsCanvas
          virtualizer={virtualizer}
          rows={rows}
          rowAt={rowAt}
          selectedOrdinal={selectedOrdinal}
          onSelect={selectRow}
          columns={layout.columns}
          template={layout.template}
          minWidth={layout.minWidth}
        />
      </div>
      <FollowStrip
        follow={follow}
        rowCount={rowCount}
        onFollow={() => dispatchFollow({type: 'follow', rowCount})}
      />
    </div>
  );
}

function RowsCanvas(props: {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  rows: readonly number[];
  rowAt: (ordinal: number) => CallRecord | undefined;
  selectedOrdinal: number | undefined;
  onSelect: (record: CallRecord) => void;
  columns: readonly LogColumn[];
  template: string;
  minWidth: number;
}): React.JSX.Element {
  const {virtualizer, rows, rowAt, columns, template} = props;
  const virtualItems = virtualizer.getVirtualItems();
  // Rows are recycled: the element that showed a row that scrolled out shows the next one, so a
  // fast stream updates text in place instead of creating and removing elements every frame. Any
  // slot count at least as large as the rendered range keeps keys unique (the range is contiguous).
  const recycleSlots = Math.max(RECYCLE_SLOTS, virtualItems.length);
  return (
    <div
      className="log-table__canvas"
      role="rowgroup"
      style={{height: virtualizer.getTotalSize(), minWidth: props.minWidth}}
    >
      <HeaderRow columns={columns} template={template} />
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
            selected={record.ordinal === props.selectedOrdinal}
            onSelect={props.onSelect}
            columns={columns}
            template={template}
          />
        );
      })}
    </div>
  );
}

/** Under the rows, never over them: whether the list follows, and the way back to it. */
function FollowStrip(props: {
  follow: FollowState;
  rowCount: number;
  onFollow: () => void;
}): React.JSX.Element {
  const status = followStatus(props.follow, props.rowCount);
  return (
    <div className="log-table__follow" data-testid="log-follow">
      {status.kind === 'stopped' ? (
        <button type="button" className="primary log-table__jump" onClick={props.onFollow}>
          {status.button}
        </button>
      ) : (
        <span className={`muted log-table__following log-table__following--${status.kind}`}>
          {status.text}
        </span>
      )}
    </div>
  );
}

/** The scroll box's size, kept up to date (columns follow its width; placement its height). */
function useBoxSize(ref: React.RefObject<HTMLDivElement | null>): {width: number; height: number} {
  const [size, setSize] = useState({width: 0, height: 0});
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) {
      return undefined;
    }
    const measure = (): void => {
      const width = element.clientWidth;
      const height = element.clientHeight;
      setSize(current =>
        current.width === width && current.height === height ? current : {width, height},
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

interface Placement {
  /** Scrolls just enough to show row `index` whole (a keyboard move). */
  reveal: (index: number) => void;
  onScroll: () => void;
}

/**
 * Applies logFollow.ts before each paint: at the newest row while following, else the anchor row
 * (the selected one, or the top one) kept where it was on screen. Scrolls the table makes itself
 * are told apart from the person's, which stop or start following.
 */
function usePlacement(options: {
  scrollRef: React.RefObject<HTMLDivElement | null>;
  rows: readonly number[];
  follow: FollowState;
  selectedOrdinal: number | undefined;
  dispatchFollow: React.Dispatch<FollowAction>;
}): Placement {
  const {scrollRef, rows, follow, selectedOrdinal, dispatchFollow} = options;
  const anchor = useRef<ViewAnchor | undefined>(undefined);
  /** The position the table last scrolled to itself (its scroll event is not the person's). */
  const ownTop = useRef<number | undefined>(undefined);
  const sticks = sticksToEnd(follow);

  const geometry = (element: HTMLElement): ListGeometry => ({
    rowHeight: ROW_HEIGHT,
    headerHeight: ROW_HEIGHT,
    viewportHeight: element.clientHeight,
    rowCount: rows.length,
  });
  const scrollTo = (element: HTMLElement, top: number): void => {
    if (Math.abs(element.scrollTop - top) >= 1) {
      ownTop.current = top;
      element.scrollTop = top;
    }
  };
  const remember = (element: HTMLElement, selected: number | undefined): void => {
    anchor.current = anchorOf(rows, element.scrollTop, geometry(element), selected);
  };

  // Every render (a batch of calls, a selection, the follow state): place the rows, then remember
  // what is where. Cheap: a binary search and at most one scroll.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) {
      return;
    }
    const box = geometry(element);
    if (sticks) {
      scrollTo(element, maxScrollTop(box));
    } else if (anchor.current) {
      scrollTo(element, anchoredScrollTop(anchor.current, rows, box));
    }
    remember(element, selectedOrdinal);
  });

  return {
    reveal: index => {
      const element = scrollRef.current;
      if (!element) {
        return;
      }
      scrollTo(element, revealScrollTop(index, element.scrollTop, geometry(element)));
      remember(element, rows[index]);
    },
    onScroll: () => {
      const element = scrollRef.current;
      if (!element) {
        return;
      }
      const top = element.scrollTop;
      const own = ownTop.current !== undefined && Math.abs(top - ownTop.current) < 1;
      ownTop.current = undefined;
      if (!own) {
        const atEnd = top >= maxScrollTop(geometry(element)) - 1;
        dispatchFollow({type: 'scrolled', atEnd, rowCount: rows.length});
      }
      remember(element, selectedOrdinal);
    },
  };
}

function useRowVirtualizer(
  rows: readonly number[],
  scrollRef: React.RefObject<HTMLDivElement | null>,
): Virtualizer<HTMLDivElement, Element> {
  // `rows` is appended to in place; the key of a row is its call's ordinal.
  const getItemKey = useCallback((index: number) => rows[index] ?? -index - 1, [rows]);
  // TanStack Virtual hands out fresh functions on purpose; nothing here memoizes on them.
  // eslint-disable-next-line react-hooks/incompatible-library -- see the line above
  return useVirtualizer({
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
    // Where the view goes as rows come is usePlacement's: the virtualizer only draws the range.
  });
}

function HeaderRow(props: {columns: readonly LogColumn[]; template: string}): React.JSX.Element {
  return (
    <div
      className="log-row log-row--header"
      role="row"
      aria-rowindex={1}
      style={{gridTemplateColumns: props.template}}
    >
      {props.columns.map(column => (
        <span key={column.id} role="columnheader" className={`log-cell log-cell--${column.id}`}>
          {column.label}
        </span>
      ))}
    </div>
  );
}

const LogRow = memo(function LogRow(props: {
  record: CallRecord;
  top: number;
  rowIndex: number;
  selected: boolean;
  onSelect: (record: CallRecord) => void;
  columns: readonly LogColumn[];
  template: string;
}): React.JSX.Element {
  const {record} = props;
  return (
    <div
      id={`call-row-${record.ordinal}`}
      role="row"
      aria-rowindex={props.rowIndex}
      aria-selected={props.selected}
      className={`log-row${props.selected ? ' log-row--selected' : ''}`}
      style={{transform: `translateY(${props.top}px)`, gridTemplateColumns: props.template}}
      data-call-id={record.callId}
      data-status={record.status}
      onClick={() => props.onSelect(record)}
    >
      {props.columns.map(column => cell(column.id, record))}
    </div>
  );
});

/** One cell of a row (a plain function: a component per cell would cost a row six more). */
function cell(column: LogColumnId, record: CallRecord): React.JSX.Element {
  switch (column) {
    case 'time':
      return (
        <span key={column} role="gridcell" className="log-cell log-cell--time mono">
          {formatClock(record.startedAt)}
        </span>
      );
    case 'client':
      return (
        <span
          key={column}
          role="gridcell"
          className="log-cell log-cell--client"
          title={clientTitle(record)}
        >
          {record.client.transport === 'inspector' ? (
            <span className="badge badge--inspector">Inspector</span>
          ) : (
            <ClientBadge client={record.client} title={clientTitle(record)} />
          )}
        </span>
      );
    case 'tool': {
      const tail = callLineTail(record);
      return (
        <span
          key={column}
          role="gridcell"
          className="log-cell log-cell--tool"
          title={revealInvisible(callLine(record))}
        >
          <span className="log-call__tool mono">{revealInvisible(record.tool)}</span>
          {tail === '' ? null : <span className="log-call__what">{revealInvisible(tail)}</span>}
        </span>
      );
    }
    case 'page':
      return (
        <span key={column} role="gridcell" className="log-cell log-cell--page mono">
          {record.pageId ?? ''}
        </span>
      );
    case 'status':
      return (
        <span
          key={column}
          role="gridcell"
          className={`log-cell log-cell--status status status--${record.status}`}
        >
          {record.status}
        </span>
      );
    case 'duration':
      return (
        <span key={column} role="gridcell" className="log-cell log-cell--duration mono">
          {record.status === 'running' || record.status === 'held'
            ? '…'
            : formatDuration(record.durationMs)}
        </span>
      );
  }
}

function clientTitle(record: CallRecord): string {
  const {client} = record;
  return revealInvisible(
    client.version ? `${client.name} ${client.version} (${client.transport})` : client.name,
  );
}
