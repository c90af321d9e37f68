/**
 * Picks the transport: the desktop app's preload bridge when present (IPC), else the inspector
 * WebSocket of the server that served this page (web mode).
 */
import type {InspectorConnection} from '../../../shared/connection.js';
import {IpcConnection} from './IpcConnection.js';
import type {ProtocolChecks} from './ProtocolClient.js';
import {takeToken} from './token.js';
import {WebSocketConnection} from './WebSocketConnection.js';

/** `checks` checks what the connection receives; messages wait for it to load. */
export function selectConnection(checks: Promise<ProtocolChecks>): InspectorConnection {
  const bridge = window.inspectorBridge;
  if (bridge) {
    return new IpcConnection(bridge, checks);
  }
  const token = takeToken(window.location, window.sessionStorage, url =>
    window.history.replaceState(window.history.state, '', url),
  );
  return new WebSocketConnection({origin: window.location.origin, token, checks});
}
