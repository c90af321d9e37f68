/**
 * Find your inspector: every server running for this user announces itself in the per-user
 * runtime folder, and `mcp-browser-inspector list` and every inspector (the `listServers`
 * command behind the Servers tab) show them with their clients and inspector links. Real server
 * processes (a headless server and a stdio server started by a real SDK client, whose inspector is
 * on a random port), a real `list`, a real inspector WebSocket.
 *
 * Tests: src/cli/listCommand.ts, src/core/serverAnnouncements.ts, src/shared/runningServers.ts
 */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterAll, describe, expect, it} from 'vitest';
import {runtimeFileSchema, runningServerSchema} from '../../src/shared/runningServers.js';
import {runList} from '../../src/cli/listCommand.js';
import {CLI, cliEnv} from '../helpers/cliRun.js';
import {waitFor} from '../helpers/engine.js';
import {openInspectorSocket} from '../helpers/inspectorSocket.js';
import {startServerProcess, type ServerProcess} from '../helpers/serverProcess.js';

const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-list-'));
const runtime = path.join(configDir, 'servers');
const started: ServerProcess[] = [];

function env(): Record<string, string> {
  return cliEnv(configDir);
}

function list(args: string[] = []): string {
  const result = spawnSync(process.execPath, [CLI, 'list', ...args], {
    env: env(),
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

function runtimeEntries(): unknown[] {
  return fs
    .readdirSync(runtime)
    .filter(name => /^\d+\.json$/.test(name))
    .map(name => JSON.parse(fs.readFileSync(path.join(runtime, name), 'utf8')) as unknown);
}

/** One inspector command over the inspector's own WebSocket, as the UI sends it. */
async function inspectorCommand(server: ServerProcess, type: string): Promise<unknown> {
  const socket = await openInspectorSocket(server, {subscribe: false});
  try {
    return (await socket.command({type}, 30_000)).reply;
  } finally {
    socket.close();
  }
}

afterAll(async () => {
  await Promise.all(started.map(server => server.stop('SIGKILL')));
  fs.rmSync(configDir, {recursive: true, force: true});
});

describe('mcp-browser-inspector list', () => {
  it('lists every running server with its clients and inspector link, and forgets them when they stop', async () => {
    const first = await startServerProcess({configDir});
    started.push(first);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--stdio', '--headless', '--isolated', '--port', new URL(first.mcpUrl).port],
      env: env(),
      stderr: 'ignore',
    });
    const agent = new Client({name: 'list-test-agent', version: '1'});
    await agent.connect(transport);
    const stdioPid = transport.pid ?? -1;
    // The stdio server's client shows up once the file is rewritten after it connected.
    await waitFor(
      () =>
        runtimeEntries().some(entry => {
          const parsed = runtimeFileSchema.safeParse(entry);
          return parsed.success && parsed.data.clients.some(c => c.name === 'list-test-agent');
        }),
      20_000,
      "the stdio server's client in its runtime file",
    );
    const second = runtimeFileSchema.parse(
      runtimeEntries().find(entry => runtimeFileSchema.parse(entry).pid === stdioPid),
    );
    // Its default port was taken (by the first server): it serves its inspector elsewhere.
    expect(second.inspectorUrl).not.toBe(first.inspectorUrl);

    // Exactly the announced fields: nothing else of the server's (its options, its token file's
    // content beside the token) is written.
    for (const entry of runtimeEntries()) {
      expect(Object.keys(entry as object).every(key => key in runtimeFileSchema.shape)).toBe(true);
    }
    // The folder and files are private.
    expect(fs.statSync(runtime).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(runtime)) {
      expect(fs.statSync(path.join(runtime, name)).mode & 0o777).toBe(0o600);
    }

    const text = list();
    expect(text).toContain('2 MCP Browser Inspector servers running:');
    expect(text).toContain(`PID ${first.pid}  headless  since `);
    expect(text).toContain(`PID ${stdioPid}  headless, started by an agent over stdio  since `);
    const tokenFile = path.join(configDir, 'token');
    expect(text).toContain(`  inspector  ${first.inspectorUrl}#token=<token in ${tokenFile}>`);
    expect(text).toContain(`  inspector  ${second.inspectorUrl}#token=<token in ${tokenFile}>`);
    expect(text).toContain(`  MCP        ${second.mcpUrl}`);
    expect(text).toContain('  clients    list-test-agent (stdio, live)');
    // Into a pipe, never the token itself.
    expect(text).not.toContain(first.token);

    const json = JSON.parse(list(['--json'])) as Record<string, unknown>[];
    expect(json.map(entry => entry.pid)).toEqual([first.pid, stdioPid]);
    expect(json.every(entry => !('token' in entry))).toBe(true);

    // The same list in the inspector (on the first server), each with a link that opens it.
    const reply = (await inspectorCommand(first, 'listServers')) as {
      ok: boolean;
      value: {servers: unknown[]};
    };
    expect(reply.ok).toBe(true);
    const servers = reply.value.servers.map(server => runningServerSchema.parse(server));
    expect(servers.map(server => [server.pid, server.self])).toEqual([
      [first.pid, true],
      [stdioPid, false],
    ]);
    expect(servers[1]?.openUrl).toBe(`${second.inspectorUrl}#token=${second.token}`);
    expect((await fetch(servers[1]?.inspectorUrl ?? '')).status).toBe(200);

    await agent.close();
    await waitFor(
      () => !fs.existsSync(path.join(runtime, `${stdioPid}.json`)),
      20_000,
      "the stdio server's runtime file to go",
    );
    first.child.kill('SIGTERM');
    await waitFor(
      () => !fs.existsSync(path.join(runtime, `${first.pid}.json`)),
      20_000,
      "the headless server's runtime file to go",
    );
    expect(list()).toContain('No MCP Browser Inspector is running for you on this machine');
  });

  it('on a terminal, the link carries the token (one click), as the start-up line does', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-list-tty-'));
    try {
      const dir = path.join(own, 'servers');
      fs.mkdirSync(dir, {mode: 0o700});
      fs.writeFileSync(
        path.join(dir, `${process.pid}.json`),
        JSON.stringify({
          mcpUrl: 'http://127.0.0.1:5/mcp',
          inspectorUrl: 'http://127.0.0.1:5/',
          token: 'secret-token',
          pid: process.pid,
          version: '0.1.0',
          kind: 'desktop',
          stdio: false,
          startedAt: Date.now(),
          cwd: '/home/me/project',
          tokenWhere: 'in /home/me/.config/mcp-browser-inspector/token',
          clients: [{name: 'evil\u001b[31mname', transport: 'http', live: false}],
          moreClients: 3,
        }),
        {mode: 0o600},
      );
      let out = '';
      const io = {
        version: '0.1.0',
        out: (text: string) => (out += text),
        log: () => undefined,
        env: {MCP_BROWSER_INSPECTOR_CONFIG_DIR: own},
      };
      expect(await runList([], {...io, terminal: true})).toBe(0);
      expect(out).toContain(`PID ${process.pid}  desktop app  since `);
      expect(out).toContain('  inspector  http://127.0.0.1:5/#token=secret-token\n');
      // A client's name is the client's to choose: printed inert.
      expect(out).toContain('  clients    evil\\u001b[31mname (http), and 3 more\n');
      out = '';
      expect(await runList([], io)).toBe(0);
      expect(out).toContain(
        '  inspector  http://127.0.0.1:5/#token=<token in /home/me/.config/mcp-browser-inspector/token>',
      );
    } finally {
      fs.rmSync(own, {recursive: true, force: true});
    }
  });

  it("drops a dead process's file and never lists another user's or a link", () => {
    fs.mkdirSync(runtime, {recursive: true, mode: 0o700});
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const entry = (pid: number) => ({
      mcpUrl: 'http://127.0.0.1:1/mcp',
      inspectorUrl: 'http://127.0.0.1:1/',
      token: 't',
      pid,
      version: '0',
      kind: 'headless',
      stdio: false,
      startedAt: Date.now(),
      cwd: '/',
      tokenWhere: 'in /x',
      clients: [],
      moreClients: 0,
    });
    const write = (pid: number) => {
      const file = path.join(runtime, `${pid}.json`);
      fs.writeFileSync(file, JSON.stringify(entry(pid)), {mode: 0o600});
      return file;
    };
    const stale = write(gone);
    // A live process (this test's), as if announced by another user.
    const foreign = write(process.pid);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      fs.chownSync(foreign, 4242, 4242);
    } else {
      fs.rmSync(foreign);
    }
    // A link named like a runtime file, to a file that would otherwise pass.
    const target = path.join(configDir, 'elsewhere.json');
    fs.writeFileSync(target, JSON.stringify(entry(process.ppid)), {mode: 0o600});
    fs.symlinkSync(target, path.join(runtime, `${process.ppid}.json`));

    expect(list()).toContain('No MCP Browser Inspector is running for you on this machine');
    expect(fs.existsSync(stale)).toBe(false);
    if (asRoot) {
      // Not ours to remove either.
      expect(fs.existsSync(foreign)).toBe(true);
    }
  });
});
