/**
 * Nothing outlives the client. A real stdio server (out/node/cli) started by the MCP SDK's stdio
 * client launches its Chromium (a dozen processes); then its life ends each way it can — the
 * client closes stdin, a signal (SIGINT, SIGTERM, SIGHUP), the parent that holds its pipes is
 * killed, an uncaught error — and within a bound no process of its tree (read from /proc: its
 * descendants and Chromium's process group) is left.
 *
 * Tests: src/cli/serve.ts, src/cli/parentWatch.ts, src/core/processGuard.ts,
 *   src/core/browser/launch/processGroup.ts
 */
import {execFileSync, spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterAll, describe, expect, it} from 'vitest';
import {CLI, cliEnv} from '../helpers/cliRun.js';
import {ROOT, waitFor} from '../helpers/engine.js';
import {PROTOCOL_VERSION} from '../helpers/rawMcp.js';
import {stillRunning, treeOf, type ProcessEntry} from '../helpers/processTree.js';

/** How long the whole tree may take to go once its end started (the server's own bound is 5 s). */
const GONE_WITHIN_MS = 10_000;
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-tree-'));

function serverEnv(name: string): Record<string, string> {
  const configDir = fs.mkdtempSync(path.join(tempRoot, `${name}-`));
  // Not as if npm started it (cliEnv drops npm's marker): the stdio rules alone are tested.
  return cliEnv(configDir, {XDG_CACHE_HOME: configDir});
}

/** A preload that turns SIGUSR2 into an error nothing catches (the server's guard removed). */
function crashPreload(): string {
  const file = path.join(tempRoot, 'crash-on-usr2.mjs');
  fs.writeFileSync(
    file,
    `process.on('SIGUSR2', () => {
      process.removeAllListeners('uncaughtException');
      setImmediate(() => { throw new Error('an error nothing catches'); });
    });\n`,
  );
  return file;
}

interface Server {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
}

/** A launcher between client and server (as npx is): it passes its pipes on and waits. */
const LAUNCHER = `
  const {spawn} = require('node:child_process');
  const child = spawn(process.execPath, process.argv.slice(1), {stdio: 'inherit'});
  child.on('exit', code => process.exit(code ?? 1));
`;

async function startServer(name: string, nodeFlags: string[] = []): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeFlags, CLI, '--stdio', '--headless', '--port', '0'],
    env: serverEnv(name),
    stderr: 'ignore',
  });
  const client = new Client({name, version: '1'});
  await client.connect(transport);
  const pid = transport.pid ?? -1;
  // Two pages: a browser with renderers, a GPU/utility process, zygotes.
  await client.callTool({name: 'new_page', arguments: {url: 'data:text/html,<p>one</p>'}});
  await client.callTool({name: 'new_page', arguments: {url: 'data:text/html,<p>two</p>'}});
  return {client, transport, pid};
}

/** Kills what is left of `tree` (a test that failed before its server ended). */
function killLeft(tree: ProcessEntry[]): void {
  for (const entry of stillRunning(tree)) {
    try {
      process.kill(entry.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/**
 * The server's tree now: at least the server and a Chromium with helpers. What is left of it is
 * killed when the test ends: `finished` is the test's own onTestFinished, so a test running
 * concurrently with it never has its processes killed.
 */
function snapshotTree(pid: number, finished: (cleanup: () => void) => void): ProcessEntry[] {
  const tree = treeOf(pid);
  finished(() => killLeft(tree));
  expect(tree.filter(entry => entry.pid !== pid).length).toBeGreaterThan(3);
  return tree;
}

/**
 * The server ends within the bound, and by the time it is gone, so is every process it started:
 * it waits for them, so nothing of its tree is left for anyone to find a moment later.
 */
async function expectAllGone(tree: ProcessEntry[], serverPid: number): Promise<void> {
  const server = tree.filter(entry => entry.pid === serverPid);
  expect(server).toHaveLength(1);
  await waitFor(() => stillRunning(server).length === 0, GONE_WITHIN_MS, 'the server to end');
  const left = stillRunning(tree).map(entry => `${entry.pid} ${entry.command}`);
  expect(left, `${left.length} of ${tree.length} processes still run`).toEqual([]);
}

afterAll(() => fs.rmSync(tempRoot, {recursive: true, force: true}));

const linuxOnly = process.platform === 'linux' ? describe : describe.skip;

linuxOnly('a stdio server leaves no process behind', () => {
  it('when the client closes (stdin ends)', async ({onTestFinished}) => {
    const server = await startServer('stdin-end');
    const tree = snapshotTree(server.pid, onTestFinished);
    // The SDK's close ends the server's stdin, then waits for it (2 s before a SIGTERM).
    const closing = server.client.close();
    await expectAllGone(tree, server.pid);
    await closing;
  });

  // These four start their servers at once (each its own server, Chromium and process group):
  // a server's start is mostly waiting, so together they take little more than one.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it.concurrent(`on ${signal}`, async ({onTestFinished}) => {
      const server = await startServer(signal);
      const tree = snapshotTree(server.pid, onTestFinished);
      process.kill(server.pid, signal);
      await expectAllGone(tree, server.pid);
      await server.client.close();
    });
  }

  it.concurrent('on an uncaught error', async ({onTestFinished}) => {
    const server = await startServer('uncaught', ['--import', crashPreload()]);
    const tree = snapshotTree(server.pid, onTestFinished);
    process.kill(server.pid, 'SIGUSR2');
    await expectAllGone(tree, server.pid);
    await server.client.close();
  });

  it('when its parent dies while its stdin stays open (a launcher killed)', async ({
    onTestFinished,
  }) => {
    // Its stdin is a FIFO that this test holds open, and Node's child_process does not close when
    // the launcher dies: only the parent's death tells the server. MCP is spoken by hand.
    const fifo = path.join(tempRoot, 'stdin.fifo');
    const output = path.join(tempRoot, 'stdout.jsonl');
    execFileSync('mkfifo', [fifo]);
    const stdin = fs.openSync(fifo, 'r+');
    const writer = fs.openSync(fifo, 'w');
    const stdout = fs.openSync(output, 'w');
    const launcher = spawn(
      process.execPath,
      ['-e', LAUNCHER, CLI, '--stdio', '--headless', '--port', '0'],
      {env: serverEnv('launcher'), stdio: [stdin, stdout, 'ignore']},
    );
    const send = (message: object) => fs.writeSync(writer, `${JSON.stringify(message)}\n`);
    const answered = (id: number) => fs.readFileSync(output, 'utf8').includes(`"id":${id}`);
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: {name: 'raw', version: '1'},
        },
      });
      await waitFor(() => answered(1), 30_000, 'the initialize answer');
      send({jsonrpc: '2.0', method: 'notifications/initialized'});
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {name: 'new_page', arguments: {url: 'data:text/html,<p>x</p>'}},
      });
      await waitFor(() => answered(2), 60_000, 'the new_page answer');
      const tree = snapshotTree(launcher.pid ?? -1, onTestFinished);
      const server = tree.find(entry => entry.ppid === launcher.pid && entry.command === 'node');
      expect(server).toBeDefined();
      launcher.kill('SIGKILL');
      await expectAllGone(tree, server?.pid ?? -1);
    } finally {
      for (const fd of [stdin, writer, stdout]) {
        fs.closeSync(fd);
      }
    }
  });

  it('when the client process dies (its parent, holding its pipes, is killed)', async ({
    onTestFinished,
  }) => {
    // The client in a process of its own: it starts the server, makes a call, prints the pid.
    const sdk = (file: string) =>
      JSON.stringify(
        pathToFileURL(path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm', file))
          .href,
      );
    const script = `
      import {Client} from ${sdk('client/index.js')};
      import {StdioClientTransport} from ${sdk('client/stdio.js')};
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [${JSON.stringify(CLI)}, '--stdio', '--headless', '--port', '0'],
        env: JSON.parse(process.env.SERVER_ENV),
        stderr: 'ignore',
      });
      const client = new Client({name: 'parent', version: '1'});
      await client.connect(transport);
      await client.callTool({name: 'new_page', arguments: {url: 'data:text/html,<p>x</p>'}});
      process.stdout.write(String(transport.pid) + '\\n');
      setInterval(() => undefined, 1000);
    `;
    const file = path.join(tempRoot, 'parent.mjs');
    fs.writeFileSync(file, script);
    {
      const parent = spawn(process.execPath, [file], {
        env: {...process.env, SERVER_ENV: JSON.stringify(serverEnv('parent-dies'))},
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      parent.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const pid = await waitFor(
        () => /^(\d+)\n/.exec(out)?.[1],
        60_000,
        'the server started by the parent',
      );
      const tree = snapshotTree(Number(pid), onTestFinished);
      parent.kill('SIGKILL');
      await expectAllGone(tree, Number(pid));
    }
  });
});
