/**
 * View model of the Log panel: which log is shown (live or an opened session file), the filter and
 * its incremental result, the selected call, and the panel's actions (clear, export, import, copy,
 * run again).
 */
import {useCallback, useDeferredValue, useMemo, useState, useSyncExternalStore} from 'react';
import {useInspector, useSnapshot, useUi} from '../../app/InspectorContext.js';
import type {CallRecord} from '../../store/CallLog.js';
import {eventsOf} from '../../store/InspectorStore.js';
import {EMPTY_FILTER, isEmptyFilter, type LogFilter, LogQuery} from '../../store/LogQuery.js';
import type * as SessionFile from './sessionFile.js';

/** Session files carry their own zod checks: loaded on first export or import, not at start. */
const loadSessionFile = (): Promise<typeof SessionFile> => import('./sessionFile.js');

export interface LogModel {
  offline: {fileName: string; exportedAt?: string | undefined} | undefined;
  filter: LogFilter;
  setFilter: (patch: Partial<LogFilter>) => void;
  resetFilter: () => void;
  filtered: boolean;
  /** Ordinals of the rows to show, ascending. */
  rows: readonly number[];
  rowAt: (ordinal: number) => CallRecord | undefined;
  total: number;
  serverDropped: number;
  uiDropped: number;
  toolNames: string[];
  clients: {id: string; name: string}[];
  selected: CallRecord | undefined;
  select: (callId: string | undefined) => void;
  /** Moves the selection by `delta` rows within the filtered rows; returns the new row index. */
  moveSelection: (delta: number | 'first' | 'last') => number | undefined;
  clear: () => void;
  exportSession: () => void;
  importFile: (file: File) => Promise<void>;
  closeOffline: () => void;
  runAgain: (record: CallRecord) => void;
  notice: string | undefined;
  dismissNotice: () => void;
}

export function useLogModel(): LogModel {
  const {store, ui} = useInspector();
  const offline = useSnapshot(snapshot => snapshot.offline);
  const liveLog = useSnapshot(snapshot => snapshot.log);
  const serverVersion = useSnapshot(snapshot => snapshot.server?.serverVersion);
  const selectedCallId = useUi(snapshot => snapshot.selectedCallId);
  const log = offline?.log ?? store.log;
  const [filter, setFilterState] = useState<LogFilter>(EMPTY_FILTER);
  const [notice, setNotice] = useState<string | undefined>();
  // Typing in the search box must never stall the stream: filter with the deferred value.
  const deferredFilter = useDeferredValue(filter);
  const query = useMemo(() => new LogQuery(log, deferredFilter), [log, deferredFilter]);
  const result = useSyncExternalStore(store.subscribe, () => query.current());

  // The log is mutable, so these are read on every render (a batch re-renders the panel); the
  // menus list only a few tools and clients.
  const toolNames = log.toolNames();
  const clients = log.clients().map(client => ({id: client.id, name: client.name}));

  const selected = selectedCallId === undefined ? undefined : log.byCallId(selectedCallId);

  const setFilter = useCallback((patch: Partial<LogFilter>) => {
    setFilterState(current => ({...current, ...patch}));
  }, []);

  const rows = result.ordinals;
  const moveSelection = (delta: number | 'first' | 'last'): number | undefined => {
    if (rows.length === 0) {
      return undefined;
    }
    const currentIndex = selected ? rows.indexOf(selected.ordinal) : -1;
    let next: number;
    if (delta === 'first') {
      next = 0;
    } else if (delta === 'last') {
      next = rows.length - 1;
    } else if (currentIndex === -1) {
      next = delta > 0 ? 0 : rows.length - 1;
    } else {
      next = Math.min(rows.length - 1, Math.max(0, currentIndex + delta));
    }
    const ordinal = rows[next];
    const record = ordinal === undefined ? undefined : log.at(ordinal);
    if (record) {
      ui.selectCall(record.callId);
    }
    return next;
  };

  return {
    offline: offline ? {fileName: offline.fileName, exportedAt: offline.exportedAt} : undefined,
    filter,
    setFilter,
    resetFilter: () => setFilterState(EMPTY_FILTER),
    filtered: !isEmptyFilter(deferredFilter),
    rows,
    rowAt: ordinal => log.at(ordinal),
    total: offline ? log.size : liveLog.size,
    serverDropped: offline ? 0 : liveLog.serverDropped,
    uiDropped: offline ? 0 : liveLog.uiDropped,
    toolNames,
    clients,
    selected,
    select: callId => ui.selectCall(callId),
    moveSelection,
    clear: () => {
      if (offline) {
        store.openOffline(undefined);
      } else {
        store.clearLog();
      }
      ui.selectCall(undefined);
    },
    exportSession: () => {
      // The events as they are at the click, whatever arrives while the module loads.
      const events = offline ? eventsOf(offline.log, offline.telemetry) : store.exportEvents();
      const exportedAt = new Date();
      loadSessionFile().then(
        ({serializeSession, sessionFileName}) => {
          const text = serializeSession(events, {
            exportedAt,
            serverVersion: offline?.serverVersion ?? serverVersion,
          });
          downloadText(sessionFileName(exportedAt), text, 'application/x-ndjson');
        },
        (error: unknown) =>
          setNotice(
            `Could not export the session: ${error instanceof Error ? error.message : String(error)}. Check that the inspector server is running, then try again.`,
          ),
      );
    },
    importFile: async file => {
      let sessionFile: typeof SessionFile | undefined;
      try {
        sessionFile = await loadSessionFile();
        const parsed = sessionFile.parseSession(file.name, await file.text());
        store.openOffline(parsed.session);
        ui.selectCall(undefined);
        setNotice(
          parsed.skipped > 0
            ? `Opened ${file.name}; skipped ${parsed.skipped} line(s) that are not inspector events (lines ${parsed.skippedLines.join(', ')}${parsed.skipped > parsed.skippedLines.length ? ', …' : ''}).`
            : undefined,
        );
      } catch (error) {
        setNotice(
          sessionFile !== undefined && error instanceof sessionFile.SessionFileError
            ? error.message
            : `Could not open ${file.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    closeOffline: () => {
      store.openOffline(undefined);
      ui.selectCall(undefined);
      setNotice(undefined);
    },
    runAgain: record => ui.draftRun(record.tool, record.args),
    notice,
    dismissNotice: () => setNotice(undefined),
  };
}

function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], {type}));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.className = 'visually-hidden';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the download a moment to start before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
