/**
 * Every security case of the HTTP surface, against a real server on loopback.
 */
import http from 'node:http';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import WebSocket from 'ws';
import {startEngine, type TestEngine} from '../../helpers/engine.js';

let engine: TestEngine;
let port: number;

beforeAll(async () => {
  engine = await startEngine();
  port = Number(new URL(engine.mcpUrl).port);
});

afterAll(async () => {
  await engine.stop();
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: {name: 'raw', version: '1'},
  },
});

function request(options: {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/mcp',
        method: options.method ?? 'POST',
        // A fresh connection per request: rejected requests close theirs.
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...options.headers,
        },
      },
      res => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({status: res.statusCode ?? 0, headers: res.headers, body}));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.method === 'GET' ? undefined : (options.body ?? INIT));
  });
}

const auth = (): Record<string, string> => ({Authorization: `Bearer ${engine.token}`});

describe('/mcp authentication', () => {
  it('accepts the right bearer token', async () => {
    const response = await request({headers: auth()});
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).toContain('"serverInfo"');
  });

  it('401 without a token, with a wrong token, or with the token in the query string', async () => {
    const help = bearerHelp();
    const none = await request({});
    expect(none.status).toBe(401);
    const noneText = `Unauthorized: no Authorization header. ${help}`;
    expect(JSON.parse(none.body)).toEqual({error: 'invalid_token', error_description: noneText});
    expect(none.headers['www-authenticate']).toBe(
      `Bearer realm="mcp-browser-inspector", error="invalid_token", error_description="${noneText}"`,
    );

    const wrong = await request({headers: {Authorization: `Bearer ${'0'.repeat(64)}`}});
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toEqual({
      error: 'invalid_token',
      error_description: `Unauthorized: wrong token. ${help}`,
    });
    expect(wrong.body + JSON.stringify(wrong.headers)).not.toContain(engine.token);

    const query = await request({path: `/mcp?token=${engine.token}`});
    expect(query.status).toBe(401);
    expect(query.body).toContain('a token in the URL is not accepted');

    const queryWithHeader = await request({
      path: `/mcp?access_token=${engine.token}`,
      headers: auth(),
    });
    expect(queryWithHeader.status).toBe(401);

    const basic = await request({
      headers: {Authorization: `Basic ${Buffer.from(`x:${engine.token}`).toString('base64')}`},
    });
    expect(basic.status).toBe(401);
  });
});

/** What every refused client reads: bearer, not OAuth, the header, and this server's token file. */
function bearerHelp(): string {
  const file = path.join(engine.configDir, 'token');
  return `This server uses a bearer token, not OAuth: send the header 'Authorization: Bearer <token>' with the token in ${file}. OAuth discovery and client registration are not used.`;
}

describe('OAuth probes (what mcp-remote and the MCP Inspector ask for after a 401)', () => {
  it('get a 404 whose body says this server takes a bearer token, and where it is', async () => {
    const probes: [string, string][] = [
      ['/.well-known/oauth-protected-resource', 'GET'],
      ['/.well-known/oauth-protected-resource/mcp', 'GET'],
      ['/.well-known/oauth-authorization-server', 'GET'],
      ['/.well-known/openid-configuration', 'GET'],
      ['/register', 'POST'],
      ['/token', 'POST'],
    ];
    for (const [probe, method] of probes) {
      const response = await request({path: probe, method, body: '{}'});
      expect(response.status, probe).toBe(404);
      expect(response.headers['content-type'], probe).toBe('application/json');
      expect(JSON.parse(response.body), probe).toEqual({
        error: 'not_found',
        error_description: `A 401 from /mcp means the bearer token was missing or wrong. ${bearerHelp()}`,
      });
    }
  });
});

describe('where the token is (for the inspector page opened without it)', () => {
  it("names this server's token file, never the token, and only to a same-origin caller", async () => {
    const response = await request({path: '/token-location', method: 'GET'});
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(response.body)).toEqual({
      source: 'file',
      file: path.join(engine.configDir, 'token'),
    });
    expect(response.body).not.toContain(engine.token);
    const foreign = await request({
      path: '/token-location',
      method: 'GET',
      headers: {Origin: 'https://evil.example'},
    });
    expect(foreign.status).toBe(403);
    const rebinding = await request({
      path: '/token-location',
      method: 'GET',
      headers: {Host: `attacker.example:${port}`},
    });
    expect(rebinding.status).toBe(403);
  });

  it('says the token came from --token or the environment when it did', async () => {
    const given = await startEngine(['--token', 'a-given-token-of-this-test']);
    try {
      const response = await fetch(`${new URL(given.mcpUrl).origin}/token-location`);
      expect(await response.json()).toEqual({
        source: 'flag-or-env',
        env: 'MCP_BROWSER_INSPECTOR_TOKEN',
      });
    } finally {
      await given.stop();
    }
  });
});

describe('Host and Origin checks (before anything else)', () => {
  it('403 for a non-loopback Host, even with the right token', async () => {
    const rebinding = await request({headers: {...auth(), Host: `attacker.example:${port}`}});
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body)).toEqual({
      error: `Forbidden: Host "attacker.example:${port}" is not one this server answers to (127.0.0.1:${port}, localhost:${port}, [::1]:${port}). Connect to one of those.`,
    });
    const wrongPort = await request({headers: {...auth(), Host: `127.0.0.1:${port + 1}`}});
    expect(wrongPort.status).toBe(403);
    const ui = await request({path: '/', method: 'GET', headers: {Host: `evil.test:${port}`}});
    expect(ui.status).toBe(403);
  });

  it('403 for a foreign Origin, even with the right token; 403 comes before 401', async () => {
    const foreign = await request({headers: {...auth(), Origin: 'https://evil.example'}});
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain('cross-origin');
    const noToken = await request({headers: {Origin: 'http://evil.example'}});
    expect(noToken.status).toBe(403);
    const nullOrigin = await request({headers: {...auth(), Origin: 'null'}});
    expect(nullOrigin.status).toBe(403);
    const sameOrigin = await request({headers: {...auth(), Origin: `http://127.0.0.1:${port}`}});
    expect(sameOrigin.status).toBe(200);
    const localhostName = await request({
      headers: {...auth(), Host: `localhost:${port}`, Origin: `http://localhost:${port}`},
    });
    expect(localhostName.status).toBe(200);
  });
});

describe('request limits and malformed input', () => {
  it('413 for a huge body', async () => {
    const huge = Buffer.alloc(5 * 1024 * 1024, 'a');
    const response = await request({headers: auth(), body: huge});
    expect(response.status).toBe(413);
    expect(response.body).toContain('larger than');
  });

  it('400 for invalid JSON and for a non-initialize request without a client session; 404 for an unknown client session', async () => {
    const invalid = await request({headers: auth(), body: '{nope'});
    expect(invalid.status).toBe(400);
    expect(invalid.body).toContain('Parse error');
    const noSessionId = await request({
      headers: auth(),
      body: JSON.stringify({jsonrpc: '2.0', id: 2, method: 'tools/list'}),
    });
    expect(noSessionId.status).toBe(400);
    const unknown = await request({
      headers: {...auth(), 'mcp-session-id': '00000000-0000-0000-0000-000000000000'},
      body: JSON.stringify({jsonrpc: '2.0', id: 2, method: 'tools/list'}),
    });
    expect(unknown.status).toBe(404);
  });

  it('the UI routes are read-only and carry a strict CSP', async () => {
    const post = await request({path: '/', method: 'POST', body: 'x'});
    expect(post.status).toBe(405);
    const index = await request({path: '/', method: 'GET'});
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(index.headers['x-frame-options']).toBe('DENY');
    const traversal = await request({path: '/../../package.json', method: 'GET'});
    expect(traversal.status).toBe(404);
    const encoded = await request({path: '/%2e%2e/%2e%2e/package.json', method: 'GET'});
    expect(encoded.status).toBe(404);
  });
});

describe('inspector WebSocket', () => {
  function connect(
    protocols: string[],
    headers: Record<string, string>,
  ): Promise<{opened: boolean; status?: number}> {
    return new Promise(resolve => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/inspector`, protocols, {headers});
      socket.on('open', () => {
        socket.close();
        resolve({opened: true});
      });
      socket.on('unexpected-response', (_request, response) => {
        resolve({opened: false, status: response.statusCode ?? 0});
      });
      socket.on('error', () => undefined);
    });
  }
  const origin = (): string => `http://127.0.0.1:${port}`;

  it('opens with the token sub-protocol and a same-origin Origin', async () => {
    expect(
      await connect(['mcp-browser-inspector.v1', `bearer.${engine.token}`], {Origin: origin()}),
    ).toEqual({opened: true});
  });

  it('refuses a missing or wrong token (401), and a foreign or missing Origin (403)', async () => {
    expect(await connect(['mcp-browser-inspector.v1'], {Origin: origin()})).toEqual({
      opened: false,
      status: 401,
    });
    expect(
      await connect(['mcp-browser-inspector.v1', 'bearer.wrongwrongwrongwrong'], {
        Origin: origin(),
      }),
    ).toEqual({opened: false, status: 401});
    expect(
      await connect(['mcp-browser-inspector.v1', `bearer.${engine.token}`], {
        Origin: 'http://evil.example',
      }),
    ).toEqual({opened: false, status: 403});
    expect(await connect(['mcp-browser-inspector.v1', `bearer.${engine.token}`], {})).toEqual({
      opened: false,
      status: 403,
    });
    expect(
      await connect(['mcp-browser-inspector.v1', `bearer.${engine.token}`], {
        Origin: origin(),
        Host: `evil.example:${port}`,
      }),
    ).toEqual({opened: false, status: 403});
  });

  it('closes a socket that sends something that is not the protocol', async () => {
    const socket = new WebSocket(
      `ws://127.0.0.1:${port}/inspector`,
      ['mcp-browser-inspector.v1', `bearer.${engine.token}`],
      {headers: {Origin: origin()}},
    );
    await new Promise(resolve => socket.on('open', resolve));
    const closed = new Promise<number>(resolve => socket.on('close', code => resolve(code)));
    socket.send(JSON.stringify({kind: 'rm -rf'}));
    expect(await closed).toBe(1008);
  });

  it('answers a malformed command with an error reply instead of running it', async () => {
    const socket = new WebSocket(
      `ws://127.0.0.1:${port}/inspector`,
      ['mcp-browser-inspector.v1', `bearer.${engine.token}`],
      {headers: {Origin: origin()}},
    );
    await new Promise(resolve => socket.on('open', resolve));
    const reply = new Promise<string>(resolve =>
      socket.on('message', data => resolve(Buffer.isBuffer(data) ? data.toString('utf8') : '')),
    );
    socket.send(
      JSON.stringify({
        kind: 'command',
        id: 7,
        command: {type: 'setCategoryEnabled', category: 'nope', enabled: true},
      }),
    );
    const message = JSON.parse(await reply) as {
      kind: string;
      id: number;
      reply: {ok: boolean; error: string};
    };
    expect(message.kind).toBe('reply');
    expect(message.id).toBe(7);
    expect(message.reply.ok).toBe(false);
    expect(message.reply.error).toContain('Invalid command');
    socket.close();
  });
});
