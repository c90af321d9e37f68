/**
 * The Connection panel's hook: MCP URL, the token (connectionModel.ts), client setup snippets,
 * live clients and the ones that are not (clientsModel.ts), the isolation switch and the
 * browser's status.
 */
import {useMemo, useReducer, useState} from 'react';
import type {BrowserStatus} from '../../../../shared/protocol.js';
import {useRequest, useSnapshot} from '../../context/InspectorContext.js';
import type {ClientSetup} from './clientSetup.js';
import {clientLists, webmcpLine, type ClientLists} from './clientsModel.js';
import {
  INITIAL_CONNECTION,
  reduceConnection,
  setupWithToken,
  shownSetups,
  setupsOpen,
  shownToken,
} from './connectionModel.js';

export interface ConnectionModel {
  mcpUrl: string | undefined;
  token: string | undefined;
  revealed: boolean;
  reveal: () => void;
  hide: () => void;
  /** Fetches the token (for copy buttons) without revealing it. */
  fetchToken: () => Promise<string>;
  tokenError: string | undefined;
  setups: ClientSetup[];
  /** The setup section (endpoint, token, snippets) is open. */
  setupsOpen: boolean;
  /** The person opened or closed it (a toggle that changes nothing is ignored). */
  toggleSetups: (open: boolean) => void;
  /** The same setups with the real token, for copying. */
  setupText: (id: string) => Promise<string>;
  /** Live clients, and the ones that are not (quiet or ended) with when and why. */
  clients: ClientLists;
  /** New client sessions get a browser context of their own. */
  isolateClients: boolean;
  setIsolateClients: (enabled: boolean) => void;
  isolateError: string | undefined;
  browser: BrowserStatus | undefined;
  /** The WebMCP line, in agreement with the WebMCP tab. */
  webmcp: string | undefined;
  serverVersion: string | undefined;
}

export function useConnectionModel(): ConnectionModel {
  const request = useRequest();
  const server = useSnapshot(snapshot => snapshot.server);
  const clients = useSnapshot(snapshot => snapshot.clients);
  const closedClients = useSnapshot(snapshot => snapshot.closedClients);
  const isolateClients = useSnapshot(snapshot => snapshot.isolateClients);
  const listedTools = useSnapshot(snapshot => snapshot.webmcpTools.length);
  const browser = useSnapshot(snapshot => snapshot.browser);
  const lists = useMemo(() => clientLists(clients, closedClients), [clients, closedClients]);
  const [isolateError, setIsolateError] = useState<string | undefined>(undefined);
  const [state, dispatch] = useReducer(reduceConnection, INITIAL_CONNECTION);
  const mcpUrl = server?.mcpUrl;

  const fetchToken = async (): Promise<string> => {
    if (state.token !== undefined) {
      return state.token;
    }
    const result = await request({type: 'getToken'});
    dispatch({type: 'token', result});
    if (!result.ok) {
      throw new Error(result.error);
    }
    return result.value.token;
  };

  return {
    mcpUrl,
    token: shownToken(state),
    revealed: state.revealed,
    reveal: () => {
      void fetchToken().then(
        () => dispatch({type: 'reveal', revealed: true}),
        () => undefined,
      );
    },
    hide: () => dispatch({type: 'reveal', revealed: false}),
    fetchToken,
    tokenError: state.tokenError,
    setups: shownSetups(mcpUrl, state),
    setupsOpen: setupsOpen(state, lists.live.length),
    toggleSetups: open => {
      if (open !== setupsOpen(state, lists.live.length)) {
        dispatch({type: 'setupsOpen', open});
      }
    },
    setupText: async id => setupWithToken(mcpUrl, await fetchToken(), id),
    clients: lists,
    isolateClients,
    setIsolateClients: enabled => {
      void request({type: 'setIsolateClients', enabled}).then(result =>
        setIsolateError(result.ok ? undefined : result.error),
      );
    },
    isolateError,
    browser,
    webmcp: browser === undefined ? undefined : webmcpLine(browser, listedTools),
    serverVersion: server?.serverVersion,
  };
}
