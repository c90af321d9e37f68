/**
 * The Log panel's hook: which log is shown (live or an opened recording), the filter
 * (logModel.ts) and its incremental result, the selected call, and the panel's actions (clear,
 * export, import, run again).
 */
import {
  useDeferredValue,
  useMemo,
  useReducer,
  useSyncExternalStore,
  type ComponentType,
  type Dispatch,
} from 'react';
import type {PanelId} from '../../ui/panelIds.js';
import {
  type InspectorServices,
  useInspector,
  useSnapshot,
  useUi,
} from '../../context/InspectorContext.js';
import {type PanelSlotProps, usePanelSlot} from '../../context/panelSlots.js';
import type {CallRecord} from '../../store/CallLog.js';
import type {OfflineRecording} from '../../store/InspectorStore.js';
import {eventsOf} from '../../store/logEvents.js';
import {isEmptyFilter, type LogFilter, LogQuery} from '../../store/LogQuery.js';
import {
  exportFailedNotice,
  importNotice,
  INITIAL_LOG,
  movedSelection,
  openFailedNotice,
  reduceLog,
  type LogAction,
  type SelectionMove,
} from './logModel.js';
import type * as OfflineRecordingModule from '../../store/offlineRecording.js';
import type {LoadImage} from './CallActivity.js';
import {clientLabel, styleOf} from '../../ui/ClientBadge.js';

/** The recording reader carries its own zod checks: loaded on first export or open, not at start. */
const loadRecordings = (): Promise<typeof OfflineRecordingModule> =>
  import('../../store/offlineRecording.js');

export interface LogActions {
  clear: () => void;
  exportRecording: () => void;
  importFile: (file: File) => Promise<void>;
  closeOffline: () => void;
  runAgain: (record: CallRecord) => void;
  openPanel: (panel: PanelId) => void;
}

/** The calls of a recording on the server get what the panel filling the recordedCall slot offers. */
export interface RecordedCallSlot {
  recordingId: string;
  Actions: ComponentType<PanelSlotProps['recordedCall']>;
}

export interface LogModel extends LogActions {
  offline:
    | {
        fileName: string;
        exportedAt?: number | undefined;
        /** Opened from the Recordings panel (read-only), not imported into the Log. */
        recorded: boolean;
        loading: boolean;
        loadImage?: LoadImage | undefined;
      }
    | undefined;
  /** For a recording on the server, when a panel fills the slot (a file from elsewhere has no id). */
  recordedCall: RecordedCallSlot | undefined;
  /** Bumps whenever a row of the live log may have changed (0 for a recording). */
  version: number;
  /** A call can be run again only on a live server. */
  canRunAgain: boolean;
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
  /** Events the server could not keep as they were (each left a note in its place). */
  serverOmitted: number;
  toolNames: string[];
  /** The client menu: each session's label (`gemini-cli #2` when a name has several). */
  clients: {id: string; label: string}[];
  selected: CallRecord | undefined;
  select: (callId: string | undefined) => void;
  /** Moves the selection within the filtered rows; returns the new row index. */
  moveSelection: (delta: SelectionMove) => number | undefined;
  notice: string | undefined;
  dismissNotice: () => void;
}

export function useLogModel(): LogModel {
  const services = useInspector();
  const {store, ui} = services;
  const offline = useSnapshot(snapshot => snapshot.offline);
  const liveLog = useSnapshot(snapshot => snapshot.log);
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const serverVersion = useSnapshot(snapshot => snapshot.server?.serverVersion);
  const clientStyles = useSnapshot(snapshot => snapshot.clientStyles);
  const selectedCallId = useUi(snapshot => snapshot.selectedCallId);
  const RecordedCallActions = usePanelSlot('recordedCall');
  const log = offline?.log ?? store.log;
  const [state, dispatch] = useReducer(reduceLog, INITIAL_LOG);
  // Typing in the search box must never stall the stream: filter with the deferred value.
  const deferredFilter = useDeferredValue(state.filter);
  const query = useMemo(() => new LogQuery(log, deferredFilter), [log, deferredFilter]);
  const rows = useSyncExternalStore(store.subscribe, () => query.current()).ordinals;
  const selected = selectedCallId === undefined ? undefined : log.byCallId(selectedCallId);

  return {
    ...logActions(services, offline, serverVersion, dispatch),
    offline: offline
      ? {
          fileName: offline.fileName,
          exportedAt: offline.exportedAt,
          loading: offline.loading === true,
          loadImage: offline.loadImage,
          recorded: offline.recorded === true,
        }
      : undefined,
    recordedCall:
      RecordedCallActions && offline?.recorded === true && offline.recordingId !== undefined
        ? {recordingId: offline.recordingId, Actions: RecordedCallActions}
        : undefined,
    version: offline ? 0 : liveLog.version,
    canRunAgain: connected && offline === undefined,
    filter: state.filter,
    setFilter: patch => dispatch({type: 'filter', patch}),
    resetFilter: () => dispatch({type: 'resetFilter'}),
    filtered: !isEmptyFilter(deferredFilter),
    rows,
    rowAt: ordinal => log.at(ordinal),
    total: offline ? log.size : liveLog.size,
    serverDropped: offline ? 0 : liveLog.serverDropped,
    uiDropped: offline ? 0 : liveLog.uiDropped,
    serverOmitted: offline ? 0 : liveLog.serverOmitted,
    // The log is mutable, so these are read on every render (a batch re-renders the panel); the
    // menus list only a few tools and clients.
    toolNames: log.toolNames(),
    // Two sessions of one client name are told apart by their number (gemini-cli #2).
    clients: log.clients().map(client => ({
      id: client.id,
      label: clientLabel(client.name, styleOf(clientStyles, client)),
    })),
    selected,
    select: callId => ui.selectCall(callId),
    moveSelection: delta => {
      const index = movedSelection(rows, selected?.ordinal, delta);
      const ordinal = index === undefined ? undefined : rows[index];
      const record = ordinal === undefined ? undefined : log.at(ordinal);
      if (record) {
        ui.selectCall(record.callId);
      }
      return index;
    },
    notice: state.notice,
    dismissNotice: () => dispatch({type: 'notice', text: undefined}),
  };
}

function logActions(
  {store, ui}: InspectorServices,
  offline: OfflineRecording | undefined,
  serverVersion: string | undefined,
  dispatch: Dispatch<LogAction>,
): LogActions {
  const notice = (text: string | undefined): void => dispatch({type: 'notice', text});
  return {
    clear: () => {
      if (offline) {
        store.openOffline(undefined);
      } else {
        store.clearLog();
      }
      ui.selectCall(undefined);
    },
    exportRecording: () => {
      // The events as they are at the click, whatever arrives while the module loads.
      const events = offline ? eventsOf(offline.log, offline.telemetry) : store.exportEvents();
      const exportedAt = new Date();
      loadRecordings().then(
        ({logExport}) => {
          const saved = logExport(events, {
            exportedAt,
            serverVersion: offline?.serverVersion ?? serverVersion,
          });
          downloadText(saved.fileName, saved.text, 'application/x-ndjson');
        },
        (error: unknown) => notice(exportFailedNotice(error)),
      );
    },
    importFile: async file => {
      let recordings: typeof OfflineRecordingModule | undefined;
      try {
        recordings = await loadRecordings();
        const opened = recordings.openRecordingText(file.name, await file.text());
        store.openOffline(opened.offline);
        ui.selectCall(undefined);
        notice(importNotice(file.name, opened));
      } catch (error) {
        const known = recordings !== undefined && error instanceof recordings.RecordingFileError;
        notice(known ? error.message : openFailedNotice(file.name, error));
      }
    },
    closeOffline: () => {
      store.openOffline(undefined);
      ui.selectCall(undefined);
      notice(undefined);
    },
    runAgain: record => ui.draftRun(record.tool, record.args),
    openPanel: panel => ui.openPanel(panel),
  };
}

/** Saves text as a download (a recording). */
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
