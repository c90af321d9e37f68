/**
 * The Connection panel's panel model, pure: the token (fetched only when revealed or copied, and
 * shown only while revealed), the client setups built from the MCP URL with it, masked unless
 * revealed, and whether their section is open. The hook (useConnectionModel.ts) wires it to the store and the engine.
 */
import type {CommandResult} from '../../../../shared/replies.js';
import {type ClientSetup, clientSetups, MASKED_TOKEN} from './clientSetup.js';

export interface ConnectionState {
  token: string | undefined;
  revealed: boolean;
  tokenError: string | undefined;
  /** The person opened or closed the setup section (undefined: it follows setupsOpen's rule). */
  setupsOpen: boolean | undefined;
}

export type ConnectionAction =
  | {type: 'token'; result: CommandResult<'getToken'>}
  | {type: 'reveal'; revealed: boolean}
  | {type: 'setupsOpen'; open: boolean};

export const INITIAL_CONNECTION: ConnectionState = {
  token: undefined,
  revealed: false,
  tokenError: undefined,
  setupsOpen: undefined,
};

export function reduceConnection(
  state: ConnectionState,
  action: ConnectionAction,
): ConnectionState {
  switch (action.type) {
    case 'token':
      return action.result.ok
        ? {...state, token: action.result.value.token, tokenError: undefined}
        : {...state, tokenError: action.result.error};
    case 'reveal':
      return {...state, revealed: action.revealed};
    case 'setupsOpen':
      return {...state, setupsOpen: action.open};
  }
}

/**
 * Whether the setup section (endpoint, token, snippets) is open: as the person left it, else open
 * only while no client is connected (then setting one up is what the panel is opened for).
 */
export function setupsOpen(state: ConnectionState, liveClients: number): boolean {
  return state.setupsOpen ?? liveClients === 0;
}

/** The token as shown: only while revealed. */
export function shownToken(state: ConnectionState): string | undefined {
  return state.revealed ? state.token : undefined;
}

/** The setups as shown (the token masked unless revealed); none before the URL is known. */
export function shownSetups(mcpUrl: string | undefined, state: ConnectionState): ClientSetup[] {
  return mcpUrl === undefined ? [] : clientSetups(mcpUrl, shownToken(state) ?? MASKED_TOKEN);
}

/** One setup with the real token, for copying. */
export function setupWithToken(mcpUrl: string | undefined, token: string, id: string): string {
  return clientSetups(mcpUrl ?? '', token).find(setup => setup.id === id)?.text ?? '';
}
