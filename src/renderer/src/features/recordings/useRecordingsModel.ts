/**
 * The Recordings panel's hook: the recordings (from the server), search across them, open
 * (in the Log panel, read-only), delete (after a confirm), and open a file from elsewhere.
 */
import {useCallback, useEffect, useState} from 'react';
import {
  type Request,
  useInspector,
  useRequest,
  useSnapshot,
} from '../../context/InspectorContext.js';
import type {
  RecordingList,
  RecordingSearchHit,
  UnreadRecording,
} from '../../../../shared/replies.js';
import {errorText} from '../../../../shared/values.js';
import {openServerRecording, openRecordingFile, type OpenResult} from './recordingLoader.js';

export interface RecordingsModel {
  list: RecordingList | undefined;
  listError: string | undefined;
  refreshing: boolean;
  refresh: () => void;
  search: (query: string) => void;
  searching: boolean;
  hits:
    | {
        query: string;
        hits: RecordingSearchHit[];
        truncated: boolean;
        notSearched?: UnreadRecording[] | undefined;
      }
    | undefined;
  clearSearch: () => void;
  open: (id: string, callId?: string) => void;
  opening: string | undefined;
  openFile: (file: File) => void;
  confirmingDelete: string | undefined;
  askDelete: (id: string | undefined) => void;
  remove: (id: string) => void;
  /** Stars a recording (retention never removes it) or takes the star off. */
  star: (id: string, starred: boolean) => void;
  notice: string | undefined;
  dismissNotice: () => void;
  connected: boolean;
}

function openedNotice(name: string, result: OpenResult): string | undefined {
  return result.skipped > 0
    ? `${name}: ${result.skipped} line${result.skipped === 1 ? '' : 's'} could not be read (a crash mid-write, a newer app, or longer than any recording's) and ${result.skipped === 1 ? 'was' : 'were'} skipped.`
    : undefined;
}

/** The list of recordings, fetched on connect and on refresh. */
function useRecordingList(request: Request, connected: boolean) {
  const [list, setList] = useState<RecordingList>();
  const [listError, setListError] = useState<string>();
  const [refreshing, setRefreshing] = useState(false);
  // Sets state only when the reply is in (never synchronously inside the effect below).
  const fetchList = useCallback(
    () =>
      request({type: 'recordingsList'}).then(reply => {
        setRefreshing(false);
        if (reply.ok) {
          setList(reply.value);
          setListError(undefined);
        } else {
          setListError(reply.error);
        }
      }),
    [request],
  );
  useEffect(() => {
    if (connected) {
      void fetchList();
    }
  }, [connected, fetchList]);
  const refresh = useCallback(() => {
    setRefreshing(true);
    void fetchList();
  }, [fetchList]);
  return {list, listError, refreshing, refresh};
}

function useRecordingSearch(request: Request, setNotice: (text: string | undefined) => void) {
  const [searching, setSearching] = useState(false);
  const [hits, setHits] = useState<RecordingsModel['hits']>();
  return {
    searching,
    hits,
    clearSearch: () => setHits(undefined),
    search: (query: string) => {
      const trimmed = query.trim();
      if (trimmed === '') {
        setHits(undefined);
        return;
      }
      setSearching(true);
      void request({type: 'recordingsSearch', query: trimmed}).then(reply => {
        setSearching(false);
        if (reply.ok) {
          setHits({query: trimmed, ...reply.value});
        } else {
          setNotice(reply.error);
        }
      });
    },
  };
}

export function useRecordingsModel(): RecordingsModel {
  const services = useInspector();
  const request = useRequest();
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const [opening, setOpening] = useState<string>();
  const [confirmingDelete, setConfirmingDelete] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const recordingList = useRecordingList(request, connected);
  const search = useRecordingSearch(request, setNotice);
  const {refresh} = recordingList;

  return {
    ...recordingList,
    ...search,
    open: (id, callId) => {
      setOpening(id);
      setNotice(undefined);
      openServerRecording(services, request, id, callId).then(
        result => {
          setOpening(undefined);
          setNotice(openedNotice(id, result));
        },
        (error: unknown) => {
          setOpening(undefined);
          setNotice(`Could not open ${id}: ${errorText(error)}`);
        },
      );
    },
    opening,
    openFile: file => {
      setNotice(undefined);
      openRecordingFile(services, file).then(
        result => setNotice(openedNotice(file.name, result)),
        (error: unknown) => setNotice(`Could not open ${file.name}: ${errorText(error)}`),
      );
    },
    confirmingDelete,
    askDelete: setConfirmingDelete,
    remove: id => {
      setConfirmingDelete(undefined);
      void request({type: 'recordingDelete', id}).then(reply => {
        if (!reply.ok) {
          setNotice(reply.error);
        }
        refresh();
      });
    },
    star: (id, starred) => {
      void request({type: 'recordingStar', id, starred}).then(reply => {
        if (!reply.ok) {
          setNotice(reply.error);
        }
        refresh();
      });
    },
    notice,
    dismissNotice: () => setNotice(undefined),
    connected,
  };
}
