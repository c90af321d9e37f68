/**
 * Benchmark plumbing: start this server or chrome-devtools-mcp over stdio on the same Chromium, call
 * tools, take medians.
 */
import {spawn, type ChildProcessByStdio} from 'node:child_process';
import type {Readable, Writable} from 'node:stream';
import type {CallToolResult, Tool} from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** This server, chrome-devtools-mcp, and Playwright MCP (a second peer for snapshot timing). */
export type ServerKind = 'ours' | 'peer' | 'playwright';

/**
 * A lean JSON-RPC client over the server's stdin/stdout. Both servers are measured through the
 * same client, so a ratio compares the servers, not the SDK client's own parsing (which costs
 * milliseconds on large answers).
 */
export class RawStdioClient {
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  readonly #pending = new Map<number, (message: JsonRpcReply) => void>();
  #buffer = '';
  #nextId = 1;

  constructor(command: string, args: string[], env: Record<string, string>) {
    this.#child = spawn(command, args, {env, stdio: ['pipe', 'pipe', 'ignore']});
    this.#child.stdout.setEncoding('utf8');
    this.#child.stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let newline = this.#buffer.indexOf('\n');
      while (newline >= 0) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        newline = this.#buffer.indexOf('\n');
        this.#onLine(line);
      }
    });
  }

  #onLine(line: string): void {
    if (!line.trim()) {
      return;
    }
    const message = JSON.parse(line) as JsonRpcReply & {method?: string};
    if (message.method !== undefined) {
      // A request from the server (roots/list, ping): this client declares no capabilities.
      if (message.id !== undefined) {
        this.#send({jsonrpc: '2.0', id: message.id, result: {}});
      }
      return;
    }
    if (typeof message.id === 'number') {
      this.#pending.get(message.id)?.(message);
      this.#pending.delete(message.id);
    }
  }

  /** The server process (for its memory). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  #send(message: unknown): void {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(method: string, params: unknown, timeoutMs = 120_000): Promise<JsonRpcReply> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method} timed out`));
      }, timeoutMs);
      this.#pending.set(id, reply => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.#send({jsonrpc: '2.0', id, method, params});
    });
  }

  async initialize(): Promise<void> {
    await this.request(
      'initialize',
      {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: {name: 'bench', version: '1.0.0'},
      },
      60_000,
    );
    this.#send({jsonrpc: '2.0', method: 'notifications/initialized'});
  }

  async callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
  }): Promise<CallToolResult> {
    const reply = await this.request('tools/call', params);
    if (reply.error) {
      return {content: [{type: 'text', text: reply.error.message}], isError: true};
    }
    return reply.result as CallToolResult;
  }

  async listTools(): Promise<{tools: Tool[]}> {
    const reply = await this.request('tools/list', {});
    return reply.result as {tools: Tool[]};
  }

  async close(): Promise<void> {
    this.#child.stdin.end();
    if (this.#child.exitCode === null) {
      await new Promise(resolve => {
        const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5_000);
        this.#child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
  }
}

interface JsonRpcReply {
  id?: number | string;
  result?: unknown;
  error?: {code: number; message: string};
}

export interface Server {
  kind: ServerKind;
  client: RawStdioClient;
  close(): Promise<void>;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) {
      env[key] = value;
    }
  }
  return {...env, ...extra};
}

/**
 * This server's headless entry as built in this checkout (`BENCH_OURS_BIN` runs another build,
 * an older commit's, for before/after numbers).
 */
export const OURS_BIN = process.env.BENCH_OURS_BIN ?? path.join(ROOT, 'out/node/cli/index.js');

/**
 * Both servers over stdio (the peer has no HTTP transport), headless, isolated, same Chromium.
 * `oursBin` runs another build of this server (an older commit's, for before/after numbers).
 */
export async function startServer(
  kind: ServerKind,
  extraFlags: string[] = [],
  oursBin = OURS_BIN,
): Promise<Server> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-'));
  const client =
    kind === 'playwright'
      ? new RawStdioClient(
          process.execPath,
          [
            path.join(ROOT, 'node_modules/@playwright/mcp/cli.js'),
            '--headless',
            '--isolated',
            '--no-sandbox',
            `--executable-path=${CHROMIUM}`,
            // Its files (snapshots, console logs) go to the temporary directory, not the repository.
            `--output-dir=${configDir}`,
            ...extraFlags,
          ],
          cleanEnv({}),
        )
      : kind === 'ours'
        ? new RawStdioClient(
            process.execPath,
            [oursBin, '--stdio', '--headless', '--isolated', '--port', '0', ...extraFlags],
            cleanEnv({CHROME_PATH: CHROMIUM, MCP_BROWSER_INSPECTOR_CONFIG_DIR: configDir}),
          )
        : new RawStdioClient(
            process.execPath,
            [
              path.join(
                ROOT,
                'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js',
              ),
              '--headless',
              '--isolated',
              `--executablePath=${CHROMIUM}`,
              '--chromeArg=--no-sandbox',
              '--chromeArg=--disable-background-networking',
              '--chromeArg=--disable-component-update',
              ...extraFlags,
            ],
            cleanEnv({
              CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
              CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
            }),
          );
  await client.initialize();
  return {
    kind,
    client,
    async close() {
      await client.close().catch(() => undefined);
      fs.rmSync(configDir, {recursive: true, force: true});
    },
  };
}

export async function callTool(
  client: RawStdioClient,
  name: string,
  args: Record<string, unknown>,
): Promise<{text: string; isError: boolean}> {
  const result = await client.callTool({name, arguments: args});
  const text = result.content.flatMap(item => (item.type === 'text' ? [item.text] : [])).join('\n');
  return {text, isError: result.isError === true};
}

export async function timed<T>(work: () => Promise<T>): Promise<{ms: number; value: T}> {
  const start = performance.now();
  const value = await work();
  return {ms: performance.now() - start, value};
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) {
    return Number.NaN;
  }
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The id of the selected page in a "## Pages" listing. */
export function selectedPageId(text: string): number {
  const match = /^(\d+): .*\[selected\]/m.exec(text);
  if (!match?.[1]) {
    throw new Error(`No selected page in:\n${text}`);
  }
  return Number(match[1]);
}

/** The uid on the snapshot line that contains `fragment`. */
export function uidOf(snapshot: string, fragment: string): string {
  const line = snapshot.split('\n').find(candidate => candidate.includes(fragment));
  // chrome-devtools-mcp prints `uid=1_4 role…`, this server `4 role…`.
  const match = line === undefined ? null : /uid=(\S+)|^ *(\d+) /.exec(line);
  const uid = match?.[1] ?? match?.[2];
  if (!uid) {
    throw new Error(`No line with ${fragment} in snapshot:\n${snapshot.slice(0, 2000)}`);
  }
  return uid;
}

/**
 * A minimal MCP client over Streamable HTTP on one keep-alive connection: what the server itself
 * costs per call, without the SDK client's fetch and SSE parsing.
 */
export class RawHttpClient {
  readonly #agent = new http.Agent({keepAlive: true, maxSockets: 1});
  #nextId = 1;

  private constructor(
    private readonly url: URL,
    private readonly token: string,
    private sessionId = '',
  ) {}

  static async connect(mcpUrl: string, token: string): Promise<RawHttpClient> {
    const client = new RawHttpClient(new URL(mcpUrl), token);
    const init = await client.#post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: {name: 'raw', version: '1'},
      },
    });
    client.sessionId = String(init.headers['mcp-session-id']);
    await client.#post({jsonrpc: '2.0', method: 'notifications/initialized'});
    return client;
  }

  /** Returns the raw response body (JSON or one SSE message). */
  async callTool(name: string, args: Record<string, unknown>): Promise<string> {
    const reply = await this.#post({
      jsonrpc: '2.0',
      id: this.#nextId++,
      method: 'tools/call',
      params: {name, arguments: args},
    });
    return reply.body;
  }

  close(): void {
    this.#agent.destroy();
  }

  #post(body: unknown): Promise<{headers: http.IncomingHttpHeaders; body: string}> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path: this.url.pathname,
          method: 'POST',
          agent: this.#agent,
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            Authorization: `Bearer ${this.token}`,
            ...(this.sessionId
              ? {'mcp-session-id': this.sessionId, 'mcp-protocol-version': '2025-06-18'}
              : {}),
          },
        },
        response => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({headers: response.headers, body: text}));
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify(body));
    });
  }
}
