/**
 * The Servers panel's hook: the running servers, fetched when the panel opens (and the inspector
 * is connected), every few seconds while it stays open, and on Refresh.
 */
import {useCallback, useEffect, useState} from 'react';
import {useRequest, useSnapshot} from '../../context/InspectorContext.js';
import type {RunningServer} from '../../../../shared/runningServers.js';

/** Servers come and go (agents start them): the open panel follows at this pace. */
const REFRESH_EVERY_MS = 5_000;

export interface ServersModel {
  servers: RunningServer[] | undefined;
  error: string | undefined;
  refresh: () => void;
  connected: boolean;
}

export function useServersModel(): ServersModel {
  const request = useRequest();
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const [servers, setServers] = useState<RunningServer[]>();
  const [error, setError] = useState<string>();
  const fetchServers = useCallback(
    () =>
      request({type: 'listServers'}).then(reply => {
        if (reply.ok) {
          setServers(reply.value.servers);
          setError(undefined);
        } else {
          setError(reply.error);
        }
      }),
    [request],
  );
  useEffect(() => {
    if (!connected) {
      return undefined;
    }
    void fetchServers();
    const timer = setInterval(() => void fetchServers(), REFRESH_EVERY_MS);
    return () => clearInterval(timer);
  }, [connected, fetchServers]);
  return {servers, error, refresh: () => void fetchServers(), connected};
}
