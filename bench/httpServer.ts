/**
 * The real headless server as a child process over HTTP (`out/node`), as users run it: its own
 * config folder and profile, port 0, ready when its `--readyFile` appears (bounded).
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {readyFileSchema, type ReadyFile} from '../src/shared/readyFile.js';

export interface BenchServer extends ReadyFile {
  stop: () => Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export async function startHttpServer(
  root: string,
  chromium: string,
  flags: string[] = [],
): Promise<BenchServer> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-bench-server-'));
  const readyFile = path.join(work, 'ready.json');
  const server = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
      path.join(root, 'out/node/cli/index.js'),
      '--headless',
      '--isolated',
      '--port',
      '0',
      '--readyFile',
      readyFile,
      ...flags,
    ],
    {
      env: {...process.env, CHROME_PATH: chromium, MCP_BROWSER_INSPECTOR_CONFIG_DIR: work},
      stdio: 'ignore',
    },
  );
  const stop = async (): Promise<void> => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise(resolve => server.once('exit', resolve));
    }
    fs.rmSync(work, {recursive: true, force: true});
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!fs.existsSync(readyFile)) {
    if (Date.now() > deadline || server.exitCode !== null) {
      await stop();
      throw new Error('the server did not start');
    }
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  const ready = readyFileSchema.parse(JSON.parse(fs.readFileSync(readyFile, 'utf8')));
  return {...ready, stop};
}
