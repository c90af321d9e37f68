/**
 * Streams that resume, over real HTTP: a tool call held by the hold gate while the client's TCP
 * connection is cut (destroyed from the client side) keeps running; the client resumes the stream
 * with Last-Event-ID and gets the answer exactly once. A stream nobody resumes cancels its call
 * after the resume window. JSON-RPC batches are refused on protocol versions that removed them.
 * The held tool works offline (heap snapshot analysis), so no browser is started.
 *
 * Tests: src/core/http/SessionStreams.ts, src/core/http/SessionEventStore.ts
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {CallToolResultSchema, LATEST_PROTOCOL_VERSION} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest';
import {cuttableFetch, type CuttableFetch} from '../../helpers/cuttableFetch.js';
import {startEngine, waitFor, type TestEngine} from '../../helpers/engine.js';
import {heldOf} from '../../helpers/hold.js';
import {mcpHeaders, messagesOf, rawClientSession} from '../../helpers/rawMcp.js';

const HELD_TOOL = 'get_heapsnapshot_summary';
const HELD_ARGS = {filePath: '/nonexistent/resume.heapsnapshot'};

/** Resumes within its window whatever the load; the other engine's window is short. */
let patient: TestEngine;
let impatient: TestEngine;
const fetches: CuttableFetch[] = [];

beforeAll(async () => {
  [patient, impatient] = await Promise.all([
    startEngine(['--memoryDebugging', '--resumeWindow', '600']),
    startEngine(['--memoryDebugging', '--resumeWindow', '1']),
  ]);
});

afterEach(() => {
  patient.engine.hold.setRules([]);
  impatient.engine.hold.setRules([]);
});

afterAll(async () => {
  for (const cuttable of fetches) {
    cuttable.close();
  }
  await Promise.all([patient.stop(), impatient.stop()]);
});

/** An SDK client whose connections the test can cut; it counts the answers per request id. */
async function cuttableClient(
  engine: TestEngine,
  name: string,
  maxRetries: number,
): Promise<{client: Client; cuttable: CuttableFetch; answers: Map<string | number, number>}> {
  const cuttable = cuttableFetch();
  fetches.push(cuttable);
  const transport = new StreamableHTTPClientTransport(new URL(engine.mcpUrl), {
    requestInit: {headers: {Authorization: `Bearer ${engine.token}`}},
    fetch: cuttable.fetch,
    reconnectionOptions: {
      initialReconnectionDelay: 200,
      maxReconnectionDelay: 2_000,
      reconnectionDelayGrowFactor: 1.5,
      maxRetries,
    },
  });
  const client = new Client({name, version: '1'});
  await client.connect(transport);
  const answers = new Map<string | number, number>();
  const deliver = transport.onmessage;
  transport.onmessage = message => {
    if (
      'id' in message &&
      message.id !== undefined &&
      ('result' in message || 'error' in message)
    ) {
      answers.set(message.id, (answers.get(message.id) ?? 0) + 1);
    }
    deliver?.(message);
  };

  return {client, cuttable, answers};
}

describe('a dropped connection', () => {
  it('is resumed with Last-Event-ID: the held call keeps running and its answer arrives once', async () => {
    const engine = patient.engine;
    engine.hold.setRules([`tool:${HELD_TOOL}`]);
    const {client, cuttable, answers} = await cuttableClient(patient, 'resumer', 5);
    const ended: string[] = [];
    engine.hub.onEvent(({event}) => {
      if (event.type === 'toolCallEnded' && event.tool === HELD_TOOL) {
        ended.push(event.status);
      }
    });
    let cursor: string | undefined;
    const pending = client.callTool({name: HELD_TOOL, arguments: HELD_ARGS}, CallToolResultSchema, {
      onresumptiontoken: token => (cursor = token),
    });
    const held = await heldOf(engine, HELD_TOOL, candidate => candidate.client.name === 'resumer');
    // The client holds an event id of the call's stream (the priming event) before the cut.
    await waitFor(() => cursor, 10_000, 'the first event id of the stream');
    const resumesBefore = cuttable.requests().filter(request => request.lastEventId).length;

    const atCut = cursor;
    expect(cuttable.cut()).toBeGreaterThan(0);
    // The client comes back on a new connection, naming the last event it got.
    await waitFor(
      () => cuttable.requests().filter(request => request.lastEventId).length > resumesBefore,
      20_000,
      'the client to resume its stream',
    );
    // Not cancelled by the drop: still held, still running.
    expect(engine.hold.state().queue.map(entry => entry.callId)).toContain(held.callId);
    expect(ended).toEqual([]);

    engine.hold.decide(held.callId, 'allow');
    const result = await pending;
    expect(JSON.stringify(result.content)).toContain('resume.heapsnapshot');
    await waitFor(() => ended.length > 0, 10_000, 'the call to end');
    expect(ended).toEqual([result.isError === true ? 'error' : 'ok']);
    // Exactly once.
    expect([...answers.values()]).toEqual([1]);
    const resume = cuttable.requests().find(request => request.lastEventId);
    expect(resume?.method).toBe('GET');
    expect(resume?.lastEventId).toBe(atCut);
    await client.close();
  }, 60_000);

  it('not resumed within the window: the call is cancelled', async () => {
    const engine = impatient.engine;
    engine.hold.setRules([`tool:${HELD_TOOL}`]);
    // A client that does not reconnect at all.
    const {client, cuttable} = await cuttableClient(impatient, 'leaver', 0);
    const ended: string[] = [];
    engine.hub.onEvent(({event}) => {
      if (event.type === 'toolCallEnded' && event.tool === HELD_TOOL) {
        ended.push(event.status);
      }
    });
    let cursor: string | undefined;
    const pending = client
      .callTool({name: HELD_TOOL, arguments: HELD_ARGS}, CallToolResultSchema, {
        onresumptiontoken: token => (cursor = token),
      })
      .catch(() => 'gone');
    const held = await heldOf(engine, HELD_TOOL, candidate => candidate.client.name === 'leaver');
    // It could resume (it holds an event id), but it does not.
    await waitFor(() => cursor, 10_000, 'the first event id of the stream');
    cuttable.cut();
    await waitFor(
      () => !engine.hold.state().queue.some(entry => entry.callId === held.callId),
      20_000,
      'the call to leave the hold queue',
    );
    await waitFor(() => ended.length > 0, 10_000, 'the call to end');
    expect(ended).toEqual(['cancelled']);
    await client.close();
    expect(await pending).toBe('gone');
  }, 60_000);
});

describe('on the wire', () => {
  /** Reads an SSE response until `until` holds for the text read so far (bounded). */
  async function readUntil(
    response: Response,
    until: (text: string) => boolean,
    what: string,
  ): Promise<string> {
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (!reader) {
      throw new Error('no body');
    }
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Timed out reading ${what}; got:\n${text}`)),
        20_000,
      );
    });
    try {
      while (!until(text)) {
        const {value, done} = await Promise.race([reader.read(), timeout]);
        if (done) {
          break;
        }
        text += value;
      }
    } finally {
      clearTimeout(timer);
      reader.releaseLock();
    }
    return text;
  }

  function headers(sessionId: string, version: string): Record<string, string> {
    return mcpHeaders(patient, {'mcp-session-id': sessionId, 'mcp-protocol-version': version});
  }

  function initializeParams(version: string): string {
    return JSON.stringify({
      protocolVersion: version,
      capabilities: {},
      clientInfo: {name: `raw-${version}`, version: '1'},
    });
  }

  it('2025-06-18: event ids on every message; a cut stream resumes from its last id, answer once', async () => {
    const engine = patient.engine;
    engine.hold.setRules([`tool:${HELD_TOOL}`]);
    const version = '2025-06-18';
    const sessionId = await rawClientSession(patient, 'raw', initializeParams(version));
    const cuttable = cuttableFetch();
    fetches.push(cuttable);
    const post = await cuttable.fetch(patient.mcpUrl, {
      method: 'POST',
      headers: headers(sessionId, version),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'held-1',
        method: 'tools/call',
        // Progress: the hold gate says at once that the call waits, on an event with an id.
        params: {name: HELD_TOOL, arguments: HELD_ARGS, _meta: {progressToken: 'p-1'}},
      }),
    });
    const before = await readUntil(post, text => /^id: /m.test(text), 'the first event');
    // No priming event on this version (its clients would not expect an empty one).
    expect(before).toContain('"method":"notifications/progress"');
    const lastEventId = /^id: (.+)$/m.exec(before)?.[1] ?? '';
    expect(lastEventId).toMatch(/_\d+$/);
    const held = await heldOf(
      engine,
      HELD_TOOL,
      candidate => candidate.client.name === `raw-${version}`,
    );
    cuttable.cut();

    // Until the server has seen the old connection go, the stream is still its (409): retry.
    const resumed = await waitFor(
      async () => {
        const response = await fetch(patient.mcpUrl, {
          headers: {...headers(sessionId, version), 'last-event-id': lastEventId},
        });
        if (response.status === 409) {
          await response.body?.cancel();
          return undefined;
        }
        return response;
      },
      10_000,
      'the server to let the stream resume',
    );
    expect(resumed.status).toBe(200);
    expect(engine.hold.state().queue.map(entry => entry.callId)).toContain(held.callId);
    engine.hold.decide(held.callId, 'allow');
    // The server ends the resumed stream once the answer is on it.
    const after = await readUntil(resumed, () => false, 'the resumed stream to end');
    expect(after).toContain('"id":"held-1"');
    const answers = messagesOf(after).filter(
      message => typeof message === 'object' && message !== null && 'result' in message,
    );
    expect(answers).toHaveLength(1);
    expect(after).toMatch(/^id: .+_\d+$/m);
    // The answer was delivered whole: the stream is forgotten, a second resume is refused.
    await waitFor(
      async () => {
        const again = await fetch(patient.mcpUrl, {
          headers: {...headers(sessionId, version), 'last-event-id': lastEventId},
        });
        if (again.status !== 400) {
          await again.body?.cancel();
          return false;
        }
        return (await again.text()).includes('is not an event of a stream this session can resume');
      },
      10_000,
      'the delivered stream to be forgotten',
    );
  }, 60_000);

  it(`${LATEST_PROTOCOL_VERSION}: each stream opens with a priming event id and the retry interval`, async () => {
    const version = LATEST_PROTOCOL_VERSION;
    const sessionId = await rawClientSession(patient, 'raw-latest', initializeParams(version));
    const response = await fetch(patient.mcpUrl, {
      method: 'POST',
      headers: headers(sessionId, version),
      body: JSON.stringify({jsonrpc: '2.0', id: 7, method: 'tools/list'}),
    });
    const text = await response.text();
    expect(text).toMatch(/^id: [0-9a-f-]{36}_\d+\nretry: 1000\ndata: \n/);
    expect(text).toMatch(/event: message\nid: [0-9a-f-]{36}_\d+\ndata: \{"result"/);
  });

  it('an unknown Last-Event-ID gets a clear 400', async () => {
    const version = '2025-06-18';
    const sessionId = await rawClientSession(patient, 'raw-guess', initializeParams(version));
    const response = await fetch(patient.mcpUrl, {
      headers: {...headers(sessionId, version), 'last-event-id': 'guessed_42'},
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {error: {code: number; message: string}};
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(
      /^Last-Event-ID "guessed_42" is not an event of a stream this session can resume: .* Send the request again\.$/,
    );
  });

  it('refuses JSON-RPC batches from 2025-06-18 on, and keeps them on 2025-03-26', async () => {
    const batch = JSON.stringify([
      {jsonrpc: '2.0', id: 1, method: 'ping'},
      {jsonrpc: '2.0', id: 2, method: 'tools/list'},
    ]);
    for (const version of ['2025-06-18', LATEST_PROTOCOL_VERSION]) {
      const sessionId = await rawClientSession(
        patient,
        `batch-${version}`,
        initializeParams(version),
      );
      const refused = await fetch(patient.mcpUrl, {
        method: 'POST',
        headers: headers(sessionId, version),
        body: batch,
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: `Invalid Request: JSON-RPC batches were removed in MCP protocol version 2025-06-18, and this session uses ${version}. Send each message in its own POST.`,
        },
        id: null,
      });
    }
    const old = '2025-03-26';
    const sessionId = await rawClientSession(patient, 'batch-old', initializeParams(old));
    const accepted = await fetch(patient.mcpUrl, {
      method: 'POST',
      headers: headers(sessionId, old),
      body: batch,
    });
    expect(accepted.status).toBe(200);
    const ids = messagesOf(await accepted.text()).map(message =>
      typeof message === 'object' && message !== null && 'id' in message ? message.id : undefined,
    );
    expect(ids.sort()).toEqual([1, 2]);
  });
});
