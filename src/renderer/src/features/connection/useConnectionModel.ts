/**
 * View model of the Connection panel: MCP URL, the token (fetched only when revealed or copied),
 * client setup snippets, connected clients and browser status.
 */
import {useState} from 'react';
import {z} from 'zod';
import type {BrowserStatus, ConnectedClient} from '../../../../shared/protocol.js';
import type {ExpiredSession} from '../../store/InspectorStore.js';
import {useCommand, useSnapshot} from '../../app/InspectorContext.js';
import {type ClientSetup, clientSetups, MASKED_TOKEN} from './clientSetup.js';

const tokenReplySchema = z.object({token: z.string()});

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
  /** Sessions the server closed itself (idle or over the cap), newest last. */
  expiredSessions: readonly ExpiredSession[];
  browser: BrowserStatus | undefined;
  serverVersion: string | undefined;
}

export function useConnectionModel(): ConnectionModel {
  const send = useCommand();
  const server = useSnapshot(snapshot => snapshot.server);
  const clients = useSnapshot(snapshot => snapshot.clients);
  const expiredSessions = useSnapshot(snapshot => snapshot.expiredSessions);
  const browser = useSnapshot(snapshot => snapshot.browser);
  const [token, setToken] = useState<string | undefined>();
  const [revealed, setRevealed] = useState(false);
  const [tokenError, setTokenError] = useState<string | undefined>();
  const mcpUrl = server?.mcpUrl;

  const fetchToken = async (): Promise<string> => {
    if (token !== undefined) {
      return token;
    }
    const reply = await send({type: 'getToken'});
    const parsed = reply.ok ? tokenReplySchema.safeParse(reply.value) : undefined;
    if (!parsed?.success) {
      const message = reply.ok ? 'The server sent no token.' : reply.error;
      setTokenError(message);
      throw new Error(message);
    }
    setTokenError(undefined);
    setToken(parsed.data.token);
    return parsed.data.token;
  };

  const shownToken = revealed && token !== undefined ? token : MASKED_TOKEN;
  return {
    mcpUrl,
    token: revealed ? token : undefined,
    revealed,
    reveal: () => {
      void fetchToken().then(
        () => setRevealed(true),
        () => undefined,
      );
    },
    hide: () => setRevealed(false),
    fetchToken,
    tokenError,
    setups: mcpUrl === undefined ? [] : clientSetups(mcpUrl, shownToken),
    setupText: async id => {
      const real = await fetchToken();
      const setup = clientSetups(mcpUrl ?? '', real).find(candidate => candidate.id === id);
      return setup?.text ?? '';
    },
    clients,
    expiredSessions,
    browser,
    serverVersion: server?.serverVersion,
  };
}
