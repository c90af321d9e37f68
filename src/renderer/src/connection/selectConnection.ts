/**
 * Picks the transport: the desktop app's preload bridge when present (IPC), else the inspector
 * WebSocket of the server that served this page (web mode).
 */
import type {InspectorConnection} from '../../../shared/connection.js';
import type {Decoder} from './decode.js';
import {IpcConnection} from './IpcConnection.js';
import {takeToken} from './token.js';
import {WebSocketConnection} from './WebSocketConnection.js';

/** `decode` checks what the WebSocket receives; the socket opens once it has loaded. */
export function selectConnection(decode: Promise<Decoder>): InspectorConnection {
  const bridge = window.inspectorBridge;
  if (bridge) {
    return new IpcConnection(bridge);
  }
  const token = takeToken(window.location, window.sessionStorage, url =>
    window.history.replaceState(window.history.state, '', url),
  );
  return new WebSocketConnection({origin: window.location.origin, token, decode});
}
