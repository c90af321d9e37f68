/**
 * Benchmark plumbing: start this server or chrome-devtools-mcp over stdio on the same Chromium, call
 * tools, take medians.
 */
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export type ServerKind = 'ours' | 'peer';

export interface Server {
  kind: ServerKind;
  client: Client;
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

/** Both servers over stdio (the peer has no HTTP transport), headless, isolated, same Chromium. */
export async function startServer(kind: ServerKind, extraFlags: string[] = []): Promise<Server> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-'));
  const transport =
    kind === 'ours'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [
            path.join(ROOT, 'out/node/cli/index.js'),
            '--stdio',
            '--headless',
            '--isolated',
            '--port',
            '0',
            ...extraFlags,
          ],
          env: cleanEnv({CHROME_PATH: CHROMIUM, MCP_BROWSER_INSPECTOR_CONFIG_DIR: configDir}),
          stderr: 'ignore',
        })
      : new StdioClientTransport({
          command: process.execPath,
          args: [
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
          env: cleanEnv({
            CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
            CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
          }),
          stderr: 'ignore',
        });
  const client = new Client({name: 'bench', version: '1.0.0'});
  await client.connect(transport);
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
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{text: string; isError: boolean}> {
  const result = (await client.callTool({name, arguments: args}, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
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
  const match = line === undefined ? null : /uid=(\S+)/.exec(line);
  if (!match?.[1]) {
    throw new Error(`No line with ${fragment} in snapshot:\n${snapshot.slice(0, 2000)}`);
  }
  return match[1];
}
