/**
 * The --readyFile as a supervisor reads it: a file left by an earlier run (dead pid, old token) is
 * gone as soon as the next run starts, even one that then fails, and this run's file is gone when
 * it exits, however it exits (SIGTERM, SIGINT, stdin closed in --stdio mode). Real processes.
 *
 * Tests: src/core/config/readyFiles.ts, src/shared/readyFile.ts, src/cli/serve.ts
 */
import {spawnSync, type ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {CLI, cliEnv} from '../helpers/cliRun.js';
import {startServerProcess, type ServerProcess} from '../helpers/serverProcess.js';

const STALE = {
  mcpUrl: 'http://127.0.0.1:1/mcp',
  inspectorUrl: 'http://127.0.0.1:1/',
  token: 'old-token-of-a-dead-run-0123456789',
  pid: 2_147_483_000,
};
/** Generous bounds for a loaded machine; a run that hangs fails them. */
const START_MS = 30_000;
const EXIT_MS = 20_000;

const servers: ServerProcess[] = [];
const dirs: string[] = [];

function staleReadyFile(): {dir: string; file: string} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-ready-'));
  dirs.push(dir);
  const file = path.join(dir, 'ready.json');
  fs.writeFileSync(file, JSON.stringify(STALE));
  return {dir, file};
}

/**
 * A server writing its ready file over the stale one in `dir`, once the file is its own (until
 * it removed the stale one, it is not).
 */
async function startOver(
  stale: {dir: string; file: string},
  flags: string[],
  stdin: 'pipe' | 'ignore' = 'ignore',
): Promise<ServerProcess> {
  const server = await startServerProcess({
    configDir: stale.dir,
    readyFile: stale.file,
    flags: [...flags, '--no-record'],
    stdin,
    readyWithinMs: START_MS,
  });
  servers.push(server);
  return server;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null) {
      resolve(child.exitCode);
      return;
    }
    const timer = setTimeout(() => reject(new Error('the server did not exit')), EXIT_MS);
    child.once('exit', code => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map(server => server.stop('SIGKILL')));
  for (const dir of dirs.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

describe('a stale ready file', () => {
  it('is removed at start, before a start that then fails (busy port, bad path)', async () => {
    const blocker = net.createServer();
    await new Promise<void>(resolve => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const busy = staleReadyFile();
      const result = spawnSync(
        process.execPath,
        [CLI, '--headless', '--no-record', '--port', String(port), '--readyFile', busy.file],
        {env: cliEnv(busy.dir), encoding: 'utf8', timeout: START_MS},
      );
      expect(result.status, result.stderr).toBe(1);
      expect(fs.existsSync(busy.file)).toBe(false);
    } finally {
      blocker.close();
    }
    const badPath = staleReadyFile();
    const result = spawnSync(
      process.execPath,
      [CLI, '--port', '0', '--readyFile', badPath.file, '--recordDir', '/proc/nope'],
      {env: cliEnv(badPath.dir), encoding: 'utf8', timeout: START_MS},
    );
    expect(result.status, result.stderr).toBe(2);
    expect(fs.existsSync(badPath.file)).toBe(false);
  });
});

describe("this run's ready file", () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`is replaced at start and removed on ${signal}`, async () => {
      const stale = staleReadyFile();
      const ready = await startOver(stale, []);
      expect(ready.token).not.toBe(STALE.token);
      expect(fs.readdirSync(stale.dir).filter(name => name.includes('ready'))).toEqual([
        'ready.json',
      ]);
      ready.child.kill(signal);
      expect(await exited(ready.child)).toBe(0);
      expect(fs.existsSync(stale.file)).toBe(false);
    });
  }

  it('is removed when the client closes stdin in --stdio mode', async () => {
    const stale = staleReadyFile();
    const ready = await startOver(stale, ['--stdio'], 'pipe');
    expect(ready.token).not.toBe(STALE.token);
    ready.child.stdin?.end();
    expect(await exited(ready.child)).toBe(0);
    expect(fs.existsSync(stale.file)).toBe(false);
  });
});
