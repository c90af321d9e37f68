/**
 * A real engine in the test process, listening on a random loopback port, with real MCP clients
 * connected over HTTP. One engine (one Chromium) per test file keeps the suite fast.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {McpError, type CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, beforeAll, expect} from 'vitest';
import {parseFlags} from '../../src/core/config/flags.js';
import {Engine, type EngineOptions} from '../../src/core/Engine.js';
import {findRendererDir} from '../../src/core/http/static.js';
import {FixtureServer} from './fixtureServer.js';
import {scaled} from './loadFactor.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface TestEngine {
  engine: Engine;
  mcpUrl: string;
  token: string;
  configDir: string;
  logs: string[];
  connect(name?: string, options?: ConstructorParameters<typeof Client>[1]): Promise<Client>;
  stop(): Promise<void>;
}

/** Engine options a test may set besides the flags (bounds it wants lower than the product's). */
export type TestEngineOptions = Pick<EngineOptions, 'browserAcquireTimeoutMs'>;

export async function startEngine(
  flags: string[] = [],
  engineOptions: TestEngineOptions = {},
): Promise<TestEngine> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-config-'));
  const parsed = parseFlags(['--headless', '--isolated', '--port', '0', ...flags], {
    env: {},
    hasDisplay: false,
  });
  if (parsed.kind !== 'config') {
    throw new Error(`bad test flags: ${JSON.stringify(parsed)}`);
  }
  const logs: string[] = [];
  const engine = new Engine(parsed.config, {
    version: 'test',
    log: line => logs.push(line),
    rendererDir: findRendererDir(ROOT),
    configDir,
    env: {CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium'},
    ...engineOptions,
  });
  const http = await engine.startHttp(false);
  const clients: Client[] = [];
  return {
    engine,
    mcpUrl: http.mcpUrl,
    token: engine.token.token,
    configDir,
    logs,
    async connect(name = 'test-client', options) {
      const client = new Client({name, version: '1.0.0'}, options);
      const transport = new StreamableHTTPClientTransport(new URL(http.mcpUrl), {
        requestInit: {headers: {Authorization: `Bearer ${engine.token.token}`}},
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) {
        await client.close().catch(() => undefined);
      }
      await engine.stop();
      fs.rmSync(configDir, {recursive: true, force: true});
    },
  };
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.flatMap(item => (item.type === 'text' ? [item.text] : [])).join('\n');
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{text: string; isError: boolean; result: CallToolResult}> {
  // The SDK gives up on a request after 60 s; a busy machine's Lighthouse run takes longer.
  const result = (await client.callTool({name, arguments: args}, undefined, {
    timeout: scaled(60_000),
  })) as CallToolResult;
  return {text: textOf(result), isError: result.isError === true, result};
}

/**
 * The JSON-RPC error a tools/call is answered with (a tool that is not listed): its code and its
 * message as the server sent it. Fails when the call is answered with a result instead.
 */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{code: number; message: string}> {
  try {
    const result = await client.callTool({name, arguments: args});
    throw new Error(`${name} was answered with a result, not an error: ${textOf(result)}`);
  } catch (error) {
    if (!(error instanceof McpError)) {
      throw error;
    }
    // The client's McpError prefixes the server's message with "MCP error <code>: ".
    return {code: error.code, message: error.message.replace(/^MCP error -?\d+: /, '')};
  }
}

/**
 * Polls a condition without fixed sleeps, bounded by `timeoutMs` on an idle machine (scaled by
 * the run's load factor: a bound here only keeps a broken test from hanging).
 */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + scaled(timeoutMs);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`);
    }
    await new Promise(resolve => setTimeout(resolve, 20));
  }
}

/** The id of the page whose URL contains `fragment`, from a ## Pages listing. */
export function pageIdFrom(text: string, fragment: string): number {
  const line = text.split('\n').find(l => /^\d+: /.test(l) && l.includes(fragment));
  if (!line) {
    throw new Error(`No page containing ${fragment} in:\n${text}`);
  }
  return Number(line.split(':')[0]);
}

export interface EngineFixtureOptions {
  /** Extra engine flags, as for startEngine. */
  flags?: string[];
  /** The MCP client's name. */
  clientName?: string;
  /** When set, a temporary directory with this prefix is made before and removed after. */
  tmpPrefix?: string;
  /** Adds dynamic routes to the fixture server once it listens, before the engine starts. */
  routes?: (server: FixtureServer) => void;
}

/** A fixture server, an engine and a connected client; the fields are valid inside tests only. */
export interface EngineFixture {
  readonly server: FixtureServer;
  readonly engine: TestEngine;
  readonly client: Client;
  /** The temporary directory; throws unless `tmpPrefix` was given. */
  readonly tmp: string;
  /** Opens `pathname` on the fixture server; the page is found by `fragment` (the pathname). */
  openPage(pathname: string, fragment?: string): Promise<number>;
}

/**
 * Registers beforeAll/afterAll hooks on the current suite (call it at the top level of a test file
 * or a describe block) that start a fixture server, an engine and a client, and stop them after.
 */
export function useEngineWithFixtures(options: EngineFixtureOptions = {}): EngineFixture {
  let server: FixtureServer | undefined;
  let engine: TestEngine | undefined;
  let client: Client | undefined;
  let tmp: string | undefined;

  beforeAll(async () => {
    server = await new FixtureServer().start();
    options.routes?.(server);
    engine = await startEngine(options.flags);
    client = await engine.connect(options.clientName);
    if (options.tmpPrefix !== undefined) {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), options.tmpPrefix));
    }
  });

  afterAll(async () => {
    await engine?.stop();
    await server?.stop();
    if (tmp !== undefined) {
      fs.rmSync(tmp, {recursive: true, force: true});
    }
  });

  function ready<T>(value: T | undefined, what: string): T {
    if (value === undefined) {
      throw new Error(`The fixture ${what} is only available inside tests (after beforeAll).`);
    }
    return value;
  }

  return {
    get server() {
      return ready(server, 'server');
    },
    get engine() {
      return ready(engine, 'engine');
    },
    get client() {
      return ready(client, 'client');
    },
    get tmp() {
      return ready(tmp, 'tmp (pass tmpPrefix)');
    },
    openPage(pathname, fragment = pathname) {
      return openPage(ready(client, 'client'), ready(server, 'server').url(pathname), fragment);
    },
  };
}

/**
 * Opens `url` with new_page, expects no error, and returns its id (the selected page whose URL
 * contains `fragment`, by default the URL itself).
 */
export async function openPage(client: Client, url: string, fragment = url): Promise<number> {
  const {text, isError} = await call(client, 'new_page', {url});
  expect(isError, text).toBe(false);
  // The page just opened is the selected one; an older page may have the same URL.
  const opened = text.split('\n').find(l => l.includes(' [selected]') && l.includes(fragment));
  return opened === undefined ? pageIdFrom(text, fragment) : pageIdFrom(opened, fragment);
}
