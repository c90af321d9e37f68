/**
 * Tests: src/renderer/src/connection/IpcConnection.ts,
 *   src/renderer/src/connection/WebSocketConnection.ts,
 *   src/renderer/src/connection/ProtocolClient.ts, src/renderer/src/connection/protocolChecks.ts,
 *   src/renderer/src/connection/token.ts
 */
import {afterEach, describe, expect, it, vi} from 'vitest';
import {IpcConnection} from '../../src/renderer/src/connection/IpcConnection.js';
import {protocolChecks} from '../../src/renderer/src/connection/protocolChecks.js';
import type {ProtocolChecks} from '../../src/renderer/src/connection/ProtocolClient.js';
import {
  connectOnTokenFragment,
  takeToken,
  tokenFromFragment,
} from '../../src/renderer/src/connection/token.js';
import {
  MISSING_TOKEN_MESSAGE,
  type SocketLike,
  WebSocketConnection,
  WRONG_TOKEN_MESSAGE,
} from '../../src/renderer/src/connection/WebSocketConnection.js';
import type {ConnectionStatus, InspectorBridge} from '../../src/shared/connection.js';
import type {EventBatch, InspectorState} from '../../src/shared/protocol.js';
import type {ClientMessage, ServerMessage} from '../../src/shared/wire.js';
import {batchOf, startedEvent} from './fixtures.js';

const STATE: InspectorState = {
  serverVersion: '1.0.0',
  slim: false,
  categories: [],
  tools: [],
  pages: [],
  browser: {state: 'idle', mode: 'launch'},
  clients: [],
  webmcpTools: [],
};

class MemoryStorage {
  readonly values = new Map<string, string>();
  getItem(key: string): string | null {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.values.set(key, value);
  }
  removeItem(key: string): void {
    this.values.delete(key);
  }
}

describe('token from the URL fragment', () => {
  it('takes the token from #token=…, stores it for this tab and strips it from the address bar', () => {
    const storage = new MemoryStorage();
    const replaced: string[] = [];
    const token = takeToken(
      {hash: '#token=abc123def456ghi789', pathname: '/', search: '?x=1'},
      storage,
      url => replaced.push(url),
    );
    expect(token).toBe('abc123def456ghi789');
    expect(replaced).toEqual(['/?x=1']);
    expect([...storage.values.values()]).toEqual(['abc123def456ghi789']);
    // A reload has no fragment: the stored token is used.
    expect(takeToken({hash: '', pathname: '/', search: ''}, storage, () => undefined)).toBe(
      'abc123def456ghi789',
    );
  });

  it('connects on a #token= pasted later (hashchange), moving it out of the address bar', () => {
    const storage = new MemoryStorage();
    const replaced: string[] = [];
    let connects = 0;
    let onHashChange: () => void = () => undefined;
    const target = {
      location: {hash: '', pathname: '/', search: ''},
      addEventListener: (_type: 'hashchange', listener: () => void) => {
        onHashChange = listener;
      },
    };
    connectOnTokenFragment(
      target,
      storage,
      url => replaced.push(url),
      () => connects++,
    );
    // Another fragment: nothing happens.
    target.location.hash = '#log';
    onHashChange();
    expect([connects, replaced]).toEqual([0, []]);
    target.location.hash = '#token=abc123def456ghi789';
    onHashChange();
    expect(connects).toBe(1);
    expect(replaced).toEqual(['/']);
    expect([...storage.values.values()]).toEqual(['abc123def456ghi789']);
    // A malformed one is not kept: the new start reads it from the address bar and says so.
    target.location.hash = '#token=%3Ctoken%3E';
    onHashChange();
    expect(connects).toBe(2);
    expect(replaced).toEqual(['/']);
    expect([...storage.values.values()]).toEqual(['abc123def456ghi789']);
  });

  it('has no token when neither fragment nor storage has one', () => {
    expect(
      takeToken(
        {hash: '#other=1', pathname: '/', search: ''},
        new MemoryStorage(),
        () => undefined,
      ),
    ).toBeUndefined();
    expect(tokenFromFragment('#token=')).toBeUndefined();
  });
});

class FakeSocket implements SocketLike {
  readyState = 0;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  readonly sent: ClientMessage[] = [];
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data) as ClientMessage);
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  drop(): void {
    this.readyState = 3;
    this.onclose?.({code: 1006} as CloseEvent);
  }
  /** Delivers a message and lets the (asynchronous) decoding finish. */
  async receive(message: ServerMessage | string): Promise<void> {
    this.onmessage?.({
      data: typeof message === 'string' ? message : JSON.stringify(message),
    } as MessageEvent);
    await new Promise(resolve => setTimeout(resolve, 0));
  }
}

function setup(probe: 'ok' | 'unauthorized' | 'unreachable' = 'ok') {
  const sockets: FakeSocket[] = [];
  const statuses: ConnectionStatus[] = [];
  const connection = new WebSocketConnection({
    origin: 'http://127.0.0.1:7624',
    token: 'secret-token-0123456789',
    createSocket: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    probe: () => Promise.resolve(probe),
    checks: protocolChecks,
    initialBackoffMs: 10,
    maxBackoffMs: 40,
  });
  connection.onStatus(status => statuses.push(status));
  const batches: EventBatch[] = [];
  connection.subscribe(0, batch => batches.push(batch));
  const last = (): FakeSocket => {
    const socket = sockets.at(-1);
    if (!socket) {
      throw new Error('no socket');
    }
    return socket;
  };
  return {connection, sockets, statuses, batches, last};
}

afterEach(() => {
  vi.useRealTimers();
});

describe('WebSocketConnection', () => {
  it('connects to /inspector with the token as a sub-protocol and subscribes', () => {
    const {last, statuses} = setup();
    const socket = last();
    expect(socket.url).toBe('ws://127.0.0.1:7624/inspector');
    expect(socket.protocols).toEqual([
      'mcp-browser-inspector.v1',
      'bearer.secret-token-0123456789',
    ]);
    socket.open();
    expect(statuses.at(-1)).toEqual({state: 'open'});
    expect(socket.sent).toEqual([{kind: 'subscribe', id: 1, fromSeq: 0}]);
  });

  it('reports a missing token without connecting', () => {
    const created: unknown[] = [];
    const connection = new WebSocketConnection({
      origin: 'http://127.0.0.1:1',
      token: undefined,
      createSocket: () => {
        created.push(1);
        return new FakeSocket('', []);
      },
      checks: protocolChecks,
    });
    expect(connection.status).toEqual({state: 'unauthorized', message: MISSING_TOKEN_MESSAGE});
    expect(created).toEqual([]);
  });

  it('connects at once while the checks load; what arrives meanwhile is checked, in order', async () => {
    const sockets: FakeSocket[] = [];
    let arrive: (checks: ProtocolChecks) => void = () => undefined;
    const connection = new WebSocketConnection({
      origin: 'http://127.0.0.1:7624',
      token: 'secret-token-0123456789',
      createSocket: (url, protocols) => {
        const socket = new FakeSocket(url, protocols);
        sockets.push(socket);
        return socket;
      },
      checks: new Promise(resolve => (arrive = resolve)),
    });
    const batches: EventBatch[] = [];
    connection.subscribe(0, batch => batches.push(batch));
    expect(sockets).toHaveLength(1);
    const socket = sockets[0];
    socket?.open();
    expect(connection.status).toEqual({state: 'open'});
    await socket?.receive({kind: 'batch', id: 1, batch: batchOf([startedEvent('c1', 'click')], 1)});
    await socket?.receive('{"kind":"batch","id":1,"batch":{"not":"a batch"}}');
    await socket?.receive({kind: 'batch', id: 1, batch: batchOf([startedEvent('c2', 'click')], 2)});
    expect(batches).toEqual([]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    arrive(protocolChecks);
    await new Promise(resolve => setTimeout(resolve, 0));
    // The malformed one is dropped by the checks; the others arrive in order.
    expect(batches.flatMap(batch => batch.events.map(envelope => envelope.seq))).toEqual([1, 2]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('closes when the checks cannot load', async () => {
    const sockets: FakeSocket[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const connection = new WebSocketConnection({
      origin: 'http://127.0.0.1:7624',
      token: 'secret-token-0123456789',
      createSocket: (url, protocols) => {
        const socket = new FakeSocket(url, protocols);
        sockets.push(socket);
        return socket;
      },
      checks: Promise.reject(new Error('Failed to fetch dynamically imported module')),
    });
    await new Promise(resolve => setTimeout(resolve, 0));
    expect(sockets.at(-1)?.readyState).toBe(3);
    expect(connection.status).toEqual({state: 'closed'});
    expect(String(errors.mock.calls[0]?.[0])).toContain('could not load its message checks');
    errors.mockRestore();
    expect(await connection.command({type: 'getState'})).toMatchObject({ok: false});
  });

  it('reports a refused token (checked over HTTP) and stops retrying', async () => {
    vi.useFakeTimers();
    const {last, statuses, sockets} = setup('unauthorized');
    last().drop();
    await vi.waitFor(() =>
      expect(statuses.at(-1)).toEqual({state: 'unauthorized', message: WRONG_TOKEN_MESSAGE}),
    );
    // No reconnect is scheduled: running every timer there is opens no other socket.
    expect(vi.getTimerCount()).toBe(0);
    vi.runAllTimers();
    expect(sockets).toHaveLength(1);
  });

  it('reconnects with backoff and resumes after the last delivered sequence id', async () => {
    const {last, statuses, batches, sockets} = setup();
    last().open();
    await last().receive({
      kind: 'batch',
      id: 1,
      batch: batchOf([startedEvent('a', 'click'), startedEvent('b', 'click')], 1),
    });
    expect(batches.at(-1)?.events.map(event => event.seq)).toEqual([1, 2]);
    last().drop();
    expect(statuses.at(-1)).toEqual({state: 'reconnecting', attempt: 1});
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    last().open();
    expect(last().sent).toEqual([{kind: 'subscribe', id: 1, fromSeq: 3, streamId: 'stream-1'}]);
    // A repeated event is not delivered twice.
    await last().receive({
      kind: 'batch',
      id: 1,
      batch: batchOf([startedEvent('b', 'click'), startedEvent('c', 'click')], 2),
    });
    expect(batches.at(-1)?.events.map(event => event.seq)).toEqual([3]);
  });

  it('starts over when the stream id changes (the server restarted)', async () => {
    const {last, batches} = setup();
    last().open();
    await last().receive({
      kind: 'batch',
      id: 1,
      batch: batchOf([startedEvent('a', 'click')], 1, 'run-1'),
    });
    await last().receive({
      kind: 'batch',
      id: 1,
      batch: batchOf([startedEvent('z', 'click')], 1, 'run-2'),
    });
    expect(batches.at(-1)?.events.map(event => event.seq)).toEqual([1]);
    expect(batches.at(-1)?.streamId).toBe('run-2');
  });

  it('queues commands until open, matches replies by id, and fails unanswered ones on close', async () => {
    const {connection, last} = setup();
    const early = connection.command({type: 'getState'});
    const socket = last();
    socket.open();
    const sent = socket.sent.find(message => message.kind === 'command');
    expect(sent).toMatchObject({kind: 'command', command: {type: 'getState'}});
    await socket.receive({
      kind: 'reply',
      id: sent?.kind === 'command' ? sent.id : -1,
      reply: {ok: true, value: STATE},
    });
    await expect(early).resolves.toEqual({ok: true, value: STATE});

    const pending = connection.command({type: 'getToken'});
    socket.drop();
    const reply = await pending;
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toMatch(/closed/);
  });

  it('ignores malformed server messages', async () => {
    const {last, batches} = setup();
    last().open();
    await last().receive('{"kind":"batch","id":1,"batch":{"events":"nope"}}');
    await last().receive('not json');
    expect(batches).toEqual([]);
  });

  it('close() stops everything and answers later commands with an error', async () => {
    const {connection, last, statuses} = setup();
    last().open();
    connection.close();
    expect(statuses.at(-1)).toEqual({state: 'closed'});
    await expect(connection.command({type: 'getState'})).resolves.toMatchObject({ok: false});
  });
});

describe('the shared wire, as the UI speaks it', () => {
  it('acknowledges each batch once handled, even when the listener throws', async () => {
    const {connection, last} = setup();
    const socket = last();
    socket.open();
    const errors: unknown[] = [];
    const stop = connection.subscribe(0, () => {
      throw new Error('a broken listener');
    });
    const second = socket.sent.at(-1);
    expect(second).toMatchObject({kind: 'subscribe', fromSeq: 0});
    const id = second?.kind === 'subscribe' ? second.id : -1;
    try {
      await socket.receive({kind: 'batch', id, batch: batchOf([startedEvent('a', 'click')], 1)});
    } catch (error) {
      errors.push(error);
    }
    expect(socket.sent).toContainEqual({kind: 'batchAck', id});
    stop();
    expect(socket.sent.at(-1)).toEqual({kind: 'unsubscribe', id});
  });

  it('answers a reply that does not fit its command’s schema with an error, never the value', async () => {
    const {connection, last} = setup();
    const socket = last();
    socket.open();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const pending = connection.command({type: 'getToken'});
    const sent = socket.sent.find(message => message.kind === 'command');
    await socket.receive({
      kind: 'reply',
      id: sent?.kind === 'command' ? sent.id : -1,
      reply: {ok: true, value: {token: 42}},
    });
    const reply = await pending;
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error).toContain('getToken');
    expect(!reply.ok && reply.error).toContain('Reload the inspector');
    warn.mockRestore();
  });

  it('asks for frames while someone listens, acknowledges each, and asks again after a reconnect', async () => {
    const {connection, last, sockets} = setup();
    last().open();
    const frames: unknown[] = [];
    const stopFirst = connection.onFrame(frame => frames.push(frame));
    const stopSecond = connection.onFrame(() => undefined);
    expect(last().sent.filter(message => message.kind === 'frames')).toEqual([
      {kind: 'frames', enabled: true},
    ]);
    const liveFrame = {pageId: 1, mimeType: 'image/jpeg', data: 'abc'};
    await last().receive({kind: 'frame', frame: liveFrame});
    expect(frames).toEqual([liveFrame]);
    expect(last().sent.at(-1)).toEqual({kind: 'frameAck'});
    last().drop();
    await vi.waitFor(() => expect(sockets).toHaveLength(2));
    last().open();
    expect(last().sent).toContainEqual({kind: 'frames', enabled: true});
    stopFirst();
    expect(last().sent.at(-1)).not.toEqual({kind: 'frames', enabled: false});
    stopSecond();
    expect(last().sent.at(-1)).toEqual({kind: 'frames', enabled: false});
  });
});

/** A preload bridge in memory: what the UI sent, and a way to deliver what main sends. */
function fakeBridge(): {
  bridge: InspectorBridge;
  sent: ClientMessage[];
  deliver: (m: unknown) => void;
} {
  const sent: ClientMessage[] = [];
  const listeners = new Set<(message: unknown) => void>();
  return {
    sent,
    bridge: {
      send: message => sent.push(message),
      onMessage: listener => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    deliver: message => {
      for (const listener of listeners) {
        listener(message);
      }
    },
  };
}

describe('IpcConnection', () => {
  it('checks what main sends exactly like the WebSocket: a malformed batch is dropped', () => {
    const {bridge, sent, deliver} = fakeBridge();
    const connection = new IpcConnection(bridge, protocolChecks);
    const batches: EventBatch[] = [];
    connection.subscribe(0, batch => batches.push(batch));
    expect(sent).toEqual([{kind: 'subscribe', id: 1, fromSeq: 0}]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    deliver({kind: 'batch', id: 1, batch: {events: 'nope'}});
    deliver({kind: 'batch', id: 1, batch: batchOf([startedEvent('a', 'click')], 1)});
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
    expect(batches.map(batch => batch.events.map(envelope => envelope.seq))).toEqual([[1]]);
    // Only the batch is acknowledged: the other was not a message at all.
    expect(sent.filter(message => message.kind === 'batchAck')).toEqual([
      {kind: 'batchAck', id: 1},
    ]);
  });

  it('matches replies by id and checks them against the command’s schema', async () => {
    const {bridge, sent, deliver} = fakeBridge();
    const connection = new IpcConnection(bridge, protocolChecks);
    const state = connection.command({type: 'getState'});
    const token = connection.command({type: 'getToken'});
    const [first, second] = sent.flatMap(message => (message.kind === 'command' ? [message] : []));
    deliver({kind: 'reply', id: second?.id, reply: {ok: true, value: {token: 'T'}}});
    deliver({kind: 'reply', id: first?.id, reply: {ok: true, value: STATE}});
    await expect(token).resolves.toEqual({ok: true, value: {token: 'T'}});
    await expect(state).resolves.toEqual({ok: true, value: STATE});
  });

  it('waits for the checks to load before it takes anything from main', async () => {
    const {bridge, deliver} = fakeBridge();
    let arrive: (checks: ProtocolChecks) => void = () => undefined;
    const connection = new IpcConnection(bridge, new Promise(resolve => (arrive = resolve)));
    const batches: EventBatch[] = [];
    connection.subscribe(0, batch => batches.push(batch));
    deliver({kind: 'batch', id: 1, batch: batchOf([startedEvent('a', 'click')], 1)});
    expect(batches).toEqual([]);
    arrive(protocolChecks);
    await vi.waitFor(() => expect(batches).toHaveLength(1));
  });

  it('answers commands after close() with an error, and tells main what it stopped', async () => {
    const {bridge, sent} = fakeBridge();
    const connection = new IpcConnection(bridge, protocolChecks);
    connection.subscribe(0, () => undefined);
    connection.onFrame(() => undefined);
    const pending = connection.command({type: 'getState'});
    connection.close();
    await expect(pending).resolves.toMatchObject({ok: false});
    await expect(connection.command({type: 'getState'})).resolves.toEqual({
      ok: false,
      error: 'The inspector connection is closed.',
    });
    expect(sent.slice(-2)).toEqual([
      {kind: 'unsubscribe', id: 1},
      {kind: 'frames', enabled: false},
    ]);
  });
});

describe('a malformed token (the "<token>" placeholder opened as printed)', () => {
  it('is not stored, and the connection shows the token help instead of throwing', async () => {
    const {MALFORMED_TOKEN_MESSAGE, WebSocketConnection} =
      await import('../../src/renderer/src/connection/WebSocketConnection.js');
    const stored = new Map<string, string>();
    const storage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    };
    const token = takeToken(
      {hash: '#token=<token>', pathname: '/', search: ''},
      storage,
      () => undefined,
    );
    expect(token).toBe('<token>');
    expect(stored.size).toBe(0);
    let created = 0;
    const connection = new WebSocketConnection({
      origin: 'http://127.0.0.1:7624',
      token,
      checks: protocolChecks,
      createSocket: () => {
        created++;
        throw new Error("Failed to construct 'WebSocket': The subprotocol is invalid");
      },
    });
    expect(created).toBe(0);
    expect(connection.status).toEqual({state: 'unauthorized', message: MALFORMED_TOKEN_MESSAGE});
    // A well-formed token the browser still refuses as a sub-protocol gets the same screen.
    const refused = new WebSocketConnection({
      origin: 'http://127.0.0.1:7624',
      token: 'well-formed-token-0123',
      checks: protocolChecks,
      createSocket: () => {
        throw new Error('SyntaxError');
      },
    });
    expect(refused.status).toEqual({state: 'unauthorized', message: MALFORMED_TOKEN_MESSAGE});
  });
});
