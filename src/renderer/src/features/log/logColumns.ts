/**
 * Which columns the Log's table shows at a width, pure. Time, Tool and Status always show; when
 * the list is too narrow for every column at a readable width, the least useful go first — Page,
 * then Duration, then Client (the detail pane shows all three for the selected call). Below even
 * the three kept, the table scrolls sideways instead of squeezing them.
 */

export type LogColumnId = 'time' | 'client' | 'tool' | 'page' | 'status' | 'duration';

export interface LogColumn {
  id: LogColumnId;
  label: string;
  /** Its grid track. */
  track: string;
  /** The least width it is still readable at, px. */
  readable: number;
}

export const LOG_COLUMNS: readonly LogColumn[] = [
  {id: 'time', label: 'Time', track: '96px', readable: 96},
  {id: 'client', label: 'Client', track: 'minmax(80px, 1fr)', readable: 110},
  // The call in a person's words (`click button "Press me"`): the tool's name (up to 30
  // characters, performance_analyze_insight) and what it acted on. The widest need.
  {id: 'tool', label: 'Call', track: 'minmax(160px, 3fr)', readable: 200},
  {id: 'page', label: 'Page', track: '48px', readable: 48},
  {id: 'status', label: 'Status', track: '76px', readable: 76},
  {id: 'duration', label: 'Duration', track: '76px', readable: 76},
];

/** Dropped in this order as the list narrows. */
const DROP_ORDER: readonly LogColumnId[] = ['page', 'duration', 'client'];

/** The row's own padding, left and right. */
export const ROW_PADDING = 16;

export interface LogLayout {
  columns: readonly LogColumn[];
  /** grid-template-columns of every row. */
  template: string;
  /** Below this the table scrolls sideways. */
  minWidth: number;
}

function layoutOf(columns: readonly LogColumn[]): LogLayout {
  return {
    columns,
    template: columns.map(column => column.track).join(' '),
    minWidth: ROW_PADDING + columns.reduce((sum, column) => sum + column.readable, 0),
  };
}

/** The columns for a list `width` px wide (0 or less: not measured yet, all of them). */
export function logLayout(width: number): LogLayout {
  let columns = LOG_COLUMNS;
  if (width <= 0) {
    return layoutOf(columns);
  }
  for (const drop of DROP_ORDER) {
    if (layoutOf(columns).minWidth <= width) {
      break;
    }
    columns = columns.filter(column => column.id !== drop);
  }
  return layoutOf(columns);
}
