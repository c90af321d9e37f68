/**
 * The Connection panel's hook: MCP URL, the token (connectionModel.ts), client setup snippets,
 * connected clients and browser status.
 */
import {useReducer} from 'react';
import type {BrowserStatus, ConnectedClient} from '../../../../shared/protocol.js';
import type {ExpiredClientSession} from '../../store/InspectorStore.js';
import {useRequest, useSnapshot} from '../../context/InspectorContext.js';
import type {ClientSetup} from './clientSetup.js';
import {
  INITIAL_CONNECTION,
  reduceConnection,
  setupWithToken,
  shownSetups,
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
  /** The same setups with the real token, for copying. */
  setupText: (id: string) => Promise<string>;
  clients: readonly ConnectedClient[];
  /** Client sessions the server closed itself (idle or over the cap), newest last. */
  expiredClientSessions: readonly ExpiredClientSession[];
  browser: BrowserStatus | undefined;
  serverVersion: string | undefined;
}

export function useConnectionModel(): ConnectionModel {
  const request = useRequest();
  const server = useSnapshot(snapshot => snapshot.server);
  const clients = useSnapshot(snapshot => snapshot.clients);
  const expiredClientSessions = useSnapshot(snapshot => snapshot.expiredClientSessions);
  const browser = useSnapshot(snapshot => snapshot.browser);
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
    setupText: async id => setupWithToken(mcpUrl, await fetchToken(), id),
    clients,
    expiredClientSessions,
    browser,
    serverVersion: server?.serverVersion,
  };
}
