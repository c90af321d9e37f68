/**
 * Sessions are reaped (idle expiry, a cap with the oldest idle first), shown in the inspector;
 * after a browser restart every client is told once; the HTTP edge answers what mcp-remote and
 * fetch expect (404 for unknown paths, an RFC 6750 challenge, a readable 413).
 * Real engine, real Chromium, real MCP clients, a real client process killed with SIGKILL.
 *
 * Tests: src/core/http/ClientSessionTable.ts, src/core/mcp/ClientSession.ts,
 *   src/core/mcp/clientRoster.ts
 */
import {spawn} from 'node:child_process';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import type {EventEnvelope} from '../../../src/shared/protocol.js';
import {call, ROOT, startEngine, waitFor, type TestEngine} from '../../helpers/engine.js';
import {postMcp, rawClientSession, sessionHeaders} from '../../helpers/rawMcp.js';

let engine: TestEngine;
const events: EventEnvelope[] = [];

beforeAll(async () => {
  engine = await startEngine(['--sessionIdleTimeout', '1', '--maxSessions', '3']);
  engine.engine.hub.onEvent(envelope => events.push(envelope));
});

afterAll(async () => {
  await engine.stop();
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: {name: 'raw', version: '1'},
  },
};

async function listTools(sessionId: string, on: TestEngine = engine): Promise<number> {
  const response = await postMcp(
    on,
    JSON.stringify({jsonrpc: '2.0', id: 2, method: 'tools/list'}),
    sessionHeaders(sessionId),
  );
  await response.text();
  return response.status;
}

function expired(seen: readonly EventEnvelope[] = events): {name: string; reason: string}[] {
  return seen.flatMap(({event}) =>
    event.type === 'clientSessionExpired' ? [{name: event.client.name, reason: event.reason}] : [],
  );
}

describe('session reaping', () => {
  it('closes the oldest idle session when the cap is reached', async () => {
    // Its own server with the cap and the default idle expiry (minutes): the 1 s expiry of the
    // shared one would race this test's own requests on a busy machine. It never needs a browser.
    const capped = await startEngine(['--maxSessions', '3']);
    const seen: EventEnvelope[] = [];
    capped.engine.hub.onEvent(envelope => seen.push(envelope));
    try {
      const ids = [];
      for (let index = 0; index < 5; index++) {
        ids.push(await rawClientSession(capped, `capped-${index}`));
      }
      // Only the three newest still answer; the two oldest were closed to make room.
      const statuses = [];
      for (const id of ids) {
        statuses.push(await listTools(id, capped));
      }
      expect(statuses).toEqual([404, 404, 200, 200, 200]);
      expect(expired(seen)).toEqual([
        {name: 'capped-0', reason: 'limit'},
        {name: 'capped-1', reason: 'limit'},
      ]);
    } finally {
      await capped.stop();
    }
  });

  it('expires sessions left idle, and a client killed with SIGKILL disappears from the inspector', async () => {
    const script = `
      import {Client} from '@modelcontextprotocol/sdk/client/index.js';
      import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
      const client = new Client({name: 'doomed-client', version: '1'});
      await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(engine.mcpUrl)}), {
        requestInit: {headers: {Authorization: 'Bearer ${engine.token}'}},
      }));
      await client.listTools();
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) {
          resolve();
        }
      });
      child.once('exit', code => reject(new Error(`client exited early (${code})`)));
    });
    const listed = (): boolean =>
      engine.engine.state().clients.some(client => client.name === 'doomed-client');
    expect(listed()).toBe(true);
    child.kill('SIGKILL');
    await waitFor(() => !listed(), 10_000, 'the killed client to be reaped');
    expect(expired()).toContainEqual({name: 'doomed-client', reason: 'idle'});

    // A session that just sits there is gone after the idle timeout too.
    const idle = await rawClientSession(engine, 'idle-raw');
    expect(await listTools(idle)).toBe(200);
    await waitFor(
      () => expired().some(entry => entry.name === 'idle-raw'),
      10_000,
      'the idle session to expire',
    );
    expect(await listTools(idle)).toBe(404);
  });

  it('keeps a session with an open stream (a live client) past the idle timeout', async () => {
    const client = await engine.connect('live-client');
    // The latch: an idle session opened after it expires, so the idle timeout has passed for both.
    await rawClientSession(engine, 'idle-witness');
    await waitFor(
      () => expired().some(entry => entry.name === 'idle-witness'),
      10_000,
      'the idle witness session to expire',
    );
    const tools = await client.listTools();
    expect(tools.tools.length).toBeGreaterThan(0);
    expect(expired().some(entry => entry.name === 'live-client')).toBe(false);
  });
});

describe('after a browser restart', () => {
  it('every client with a session gets the note once; a newer client does not', async () => {
    const fresh = await startEngine();
    try {
      const first = await fresh.connect('first');
      const second = await fresh.connect('second');
      await call(first, 'list_pages');
      await call(second, 'list_pages');
      fresh.engine.browser.chromium?.process()?.kill('SIGKILL');
      await waitFor(() => fresh.engine.browser.status.state === 'disconnected', 10_000, 'gone');
      const note = 'Note: the browser was restarted or reconnected since the last call.';
      const firstAgain = await call(first, 'list_pages');
      expect(firstAgain.text.startsWith(note)).toBe(true);
      expect((await call(first, 'list_pages')).text).not.toContain(note);
      const secondAgain = await call(second, 'list_pages');
      expect(secondAgain.text.startsWith(note)).toBe(true);
      expect((await call(second, 'list_pages')).text).not.toContain(note);
      const third = await fresh.connect('third');
      expect((await call(third, 'list_pages')).text).not.toContain(note);
    } finally {
      await fresh.stop();
    }
  });
});

describe('the HTTP edge', () => {
  const origin = (): string => new URL(engine.mcpUrl).origin;

  it('answers unknown paths with 404, as mcp-remote probes them', async () => {
    const probes = [
      fetch(`${origin()}/.well-known/oauth-protected-resource`),
      fetch(`${origin()}/.well-known/oauth-authorization-server`),
      fetch(`${origin()}/register`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({client_name: 'mcp-remote', redirect_uris: ['http://127.0.0.1/cb']}),
      }),
      fetch(`${origin()}/token`, {method: 'POST', body: 'grant_type=x'}),
    ];
    const statuses = await Promise.all(probes.map(async r => (await r).status));
    expect(statuses).toEqual([404, 404, 404, 404]);
    // A wrong method on a real page of the UI is still 405.
    expect((await fetch(`${origin()}/`, {method: 'POST', body: 'x'})).status).toBe(405);
  });

  it('sends an RFC 6750 challenge with a description for a missing or wrong token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789']) {
      const response = await fetch(engine.mcpUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(authorization === undefined ? {} : {Authorization: authorization}),
        },
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toMatch(/error_description="Unauthorized: [^"]+"/);
      await response.text();
    }
  });

  it('lets a client that sends 5 MB read the 413 instead of failing with EPIPE', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'x',
      params: {pad: 'a'.repeat(5 * 1024 * 1024)},
    });
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await postMcp(engine, big);
      expect(response.status).toBe(413);
      expect(await response.text()).toContain('Request body larger than');
    }
  });
});
