/**
 * Picks the transport: the desktop app's preload bridge when present (IPC), else the inspector
 * WebSocket of the server that served this page (web mode).
 */
import type {InspectorConnection} from '../../../shared/connection.js';
import {IpcConnection} from './IpcConnection.js';
import type {ProtocolChecks} from './ProtocolClient.js';
import {connectOnTokenFragment, takeToken} from './token.js';
import {WebSocketConnection} from './WebSocketConnection.js';

/** `checks` checks what the connection receives; messages wait for it to load. */
export function selectConnection(checks: Promise<ProtocolChecks>): InspectorConnection {
  const bridge = window.inspectorBridge;
  if (bridge) {
    return new IpcConnection(bridge, checks);
  }
  const replaceUrl = (url: string): void =>
    window.history.replaceState(window.history.state, '', url);
  const token = takeToken(window.location, window.sessionStorage, replaceUrl);
  // A token pasted later (a hash-only navigation) connects too: the page starts again with it,
  // as after a token typed into the token screen.
  connectOnTokenFragment(window, window.sessionStorage, replaceUrl, () => window.location.reload());
  return new WebSocketConnection({origin: window.location.origin, token, checks});
}
