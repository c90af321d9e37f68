/**
 * The headless entry as users run it: `node out/node/cli/index.js [flags]`.
 *
 * Tests: src/cli/index.ts, src/cli/serve.ts, src/core/config/flags.ts
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterEach, describe, expect, it} from 'vitest';
import {CLI, cliEnv, runCli} from '../helpers/cliRun.js';
import {textOf, waitFor} from '../helpers/engine.js';
import {connectHttpClient} from '../helpers/httpClient.js';
import {startServerProcess, type ServerProcess} from '../helpers/serverProcess.js';
import type {ReadyFile} from '../../src/shared/readyFile.js';

const servers: ServerProcess[] = [];
const tempDirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-cli-'));
  tempDirs.push(dir);
  return dir;
}

async function startCli(flags: string[] = []): Promise<ServerProcess> {
  const started = await startServerProcess({flags, stdin: 'pipe', readyWithinMs: 20_000});
  servers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map(server => server.stop('SIGKILL')));
  for (const dir of tempDirs.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

describe('flags on the command line', () => {
  it('--help lists the flags and exits 0', () => {
    const result = spawnSync(process.execPath, [CLI, '--help'], {encoding: 'utf8'});
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: mcp-browser-inspector');
    expect(result.stdout).toContain('--categoryExperimentalWebmcp');
    expect(result.stdout).toContain('--readyFile');
  });

  it('a bad value exits with code 2 and names the flag', () => {
    const result = spawnSync(process.execPath, [CLI, '--port', 'eighty'], {encoding: 'utf8'});
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'Invalid value for --port: "eighty". Expected an integer 0-65535',
    );
    expect(result.stdout).toBe('');
  });

  it('a flag without its value says it needs one (not "Invalid value")', async () => {
    const argvs = [['--port'], ['--port', '--headless'], ['--readyFile=']];
    // Each exits at once; they start side by side rather than one after another.
    const results = await Promise.all(argvs.map(argv => runCli(argv, tempDir())));
    for (const [index, argv] of argvs.entries()) {
      const result = results[index] ?? {code: null, stdout: '', stderr: ''};
      expect(result.code, argv.join(' ')).toBe(2);
      const flag = argv[0]?.replace(/=$/, '') ?? '';
      expect(result.stderr.split('\n')[0], argv.join(' ')).toMatch(
        new RegExp(`^mcp-browser-inspector: ${flag} needs a value: `),
      );
      expect(result.stderr).not.toContain('Invalid value');
    }
  });

  it('a bad --hold rule exits with code 2 saying what is accepted', () => {
    const result = spawnSync(process.execPath, [CLI, '--hold=sometimes'], {encoding: 'utf8'});
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'Invalid value for --hold: Unknown hold rule "sometimes". Expected a comma-separated list of: all, not-read-only, tool:<name>',
    );
  });

  it('an unknown flag warns but the server starts', async () => {
    const started = await startCli(['--frobnicate']);
    // The ready file can be seen before the stderr pipe has delivered the line written before it.
    await waitFor(() => started.stderr().includes('Warning:'), 10_000, 'the warning');
    expect(started.stderr()).toContain('Warning: Unknown flag --frobnicate was ignored.');
  });
});

describe('startup contract', () => {
  it('writes the ready file, prints one line without the token, and keeps the token file private', async () => {
    const started = await startCli();
    const ready: ReadyFile = started;
    expect(ready.mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(ready.inspectorUrl).toBe(ready.mcpUrl.replace(/mcp$/, ''));
    expect(ready.token).toMatch(/^[0-9a-f]{64}$/);
    expect(ready.pid).toBe(started.child.pid);
    expect((fs.statSync(started.readyFile).mode & 0o777).toString(8)).toBe('600');
    await waitFor(() => started.stderr().includes('MCP Browser Inspector'), 10_000, 'startup line');
    const line = started
      .stderr()
      .split('\n')
      .find(l => l.startsWith('MCP Browser Inspector'));
    expect(line).toContain(ready.mcpUrl);
    expect(line).toContain('token in');
    expect(started.stderr()).not.toContain(ready.token);
    const tokenFile = path.join(started.configDir, 'token');
    expect(fs.readFileSync(tokenFile, 'utf8').trim()).toBe(ready.token);
    expect((fs.statSync(tokenFile).mode & 0o777).toString(8)).toBe('600');
  });

  it('serves MCP over HTTP to a real client and stops cleanly on SIGTERM, closing its browser', async () => {
    const started = await startCli();
    const client = await connectHttpClient(started, 'cli-test');
    const listing = await client.callTool({name: 'list_pages', arguments: {}});
    expect(textOf(listing)).toContain('## Pages');
    await client.close();
    const browserPids = spawnSync('pgrep', ['-P', String(started.child.pid)], {encoding: 'utf8'})
      .stdout.trim()
      .split('\n')
      .filter(Boolean);
    expect(browserPids.length).toBeGreaterThan(0);
    expect(await started.stop('SIGTERM')).toBe(0);
    for (const pid of browserPids) {
      expect(() => process.kill(Number(pid), 0)).toThrow();
    }
  });

  it('an explicit busy port exits 1 with a clear message', async () => {
    const blocker = net.createServer();
    await new Promise<void>(resolve => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const result = spawnSync(process.execPath, [CLI, '--headless', '--port', String(port)], {
        encoding: 'utf8',
        env: cliEnv(tempDir()),
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(result.stderr).toContain('--port 0');
    } finally {
      blocker.close();
    }
  });
});

describe('--stdio', () => {
  it('speaks MCP on stdin/stdout with nothing else on stdout', async () => {
    const dir = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--stdio', '--headless', '--isolated', '--port', '0'],
      env: cliEnv(dir),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({name: 'stdio-test', version: '1'});
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.map(tool => tool.name)).toContain('navigate_page');
    const names = tools.tools.map(tool => tool.name);
    expect(names).toEqual([...names].sort());
    const pages = await client.callTool({name: 'list_pages', arguments: {}});
    expect(textOf(pages)).toContain('## Pages');
    await client.close();
    // The stdio transport rejects any non-JSON-RPC line, so a clean close means stdout stayed clean.
    expect(stderr).toContain('MCP Browser Inspector');
  });

  it('falls back to a free port for the inspector when the default port is busy', async () => {
    const blocker = net.createServer();
    await new Promise<void>(resolve => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const server = await startServerProcess({
        flags: ['--stdio'],
        port,
        isolated: false,
        stdin: 'pipe',
        readyWithinMs: 20_000,
      });
      servers.push(server);
      expect(server.mcpUrl).not.toContain(`:${port}/`);
      expect(server.stderr()).toContain(`Port ${port} is busy`);
      server.child.stdin?.end();
      expect(await server.exited).toBe(0);
    } finally {
      blocker.close();
    }
  });
});
