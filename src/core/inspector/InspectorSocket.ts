/**
 * Carries one inspector WebSocket: each text message is one client message of the shared wire
 * (JSON, checked with zod), each server message goes out as JSON text. Streams, frames, flow
 * control and commands are the connection's InspectorPeer, as on the desktop IPC bridge.
 */
import type {RawData, WebSocket} from 'ws';
import {errorText, isRecord} from '../../shared/values.js';
import {clientMessageSchema, type ClientMessage, type ServerMessage} from '../../shared/wire.js';
import {InspectorPeer, type InspectorEndpoint} from './InspectorPeer.js';

/** A received message: a checked one, or why the socket must answer or close instead. */
type Received =
  | {kind: 'message'; message: ClientMessage}
  | {kind: 'invalidCommand'; id: number; error: string}
  | {kind: 'close'; code: number; reason: string};

function textOf(data: RawData): string {
  const buffer = Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.from(data);
  return buffer.toString('utf8');
}

function readMessage(data: RawData, isBinary: boolean): Received {
  if (isBinary) {
    return {kind: 'close', code: 1003, reason: 'Binary messages are not supported'};
  }
  let json: unknown;
  try {
    json = JSON.parse(textOf(data));
  } catch {
    return {kind: 'close', code: 1007, reason: 'Invalid JSON'};
  }
  const parsed = clientMessageSchema.safeParse(json);
  if (parsed.success) {
    return {kind: 'message', message: parsed.data};
  }
  // A command that does not fit still gets an answer, so the UI can say what was wrong.
  if (isRecord(json) && json.kind === 'command' && typeof json.id === 'number') {
    const issues = parsed.error.issues.map(issue => issue.message).join('; ');
    return {kind: 'invalidCommand', id: json.id, error: `Invalid command: ${issues}`};
  }
  return {kind: 'close', code: 1008, reason: 'Invalid message'};
}

/**
 * The message as JSON text. Events are bounded by the hub, so this cannot fail for them; a reply
 * that cannot be serialized still answers, with an error; anything else is left out (logged).
 */
function serialized(message: ServerMessage, log: (line: string) => void): string | undefined {
  try {
    return JSON.stringify(message);
  } catch (error) {
    log(`An inspector ${message.kind} could not be sent: ${errorText(error)}`);
    if (message.kind !== 'reply') {
      return undefined;
    }
    const reply = {ok: false, error: `The answer could not be sent: ${errorText(error)}`};
    return JSON.stringify({kind: 'reply', id: message.id, reply});
  }
}

export function attachInspectorSocket(
  socket: WebSocket,
  endpoint: InspectorEndpoint,
  log: (line: string) => void = () => undefined,
): void {
  const send = (message: ServerMessage): boolean => {
    if (socket.readyState !== socket.OPEN) {
      return false;
    }
    const text = serialized(message, log);
    if (text !== undefined) {
      socket.send(text);
    }
    return true;
  };
  const peer = new InspectorPeer({endpoint, send, log});

  socket.on('message', (data, isBinary) => {
    const received = readMessage(data, isBinary);
    switch (received.kind) {
      case 'close':
        socket.close(received.code, received.reason);
        return;
      case 'invalidCommand':
        send({kind: 'reply', id: received.id, reply: {ok: false, error: received.error}});
        return;
      case 'message':
        if (received.message.kind === 'command') {
          void peer.command(received.message).then(send);
        } else {
          peer.receive(received.message);
        }
    }
  });
  socket.on('close', () => peer.release());
  socket.on('error', () => socket.terminate());
}
