/**
 * The server as a newcomer starts it: through npm (SIGTERM to npm must stop the server and its
 * Chromium), with a bad path flag (one line, exit 2), and in a terminal (the full inspector URL,
 * once, only there). Real processes and signals.
 *
 * Tests: src/cli/serve.ts, src/cli/index.ts, src/core/config/pathFlags.ts
 */
import {spawn, type ChildProcess} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {CLI, cliEnv} from '../helpers/cliRun.js';
import {ROOT, waitFor} from '../helpers/engine.js';
import {bundleBytes, staticallyLoadedBytes, staticallyLoadedFiles} from '../helpers/bundleGraph.js';
import {collectRun} from '../helpers/cliRun.js';
import {connectHttpClient} from '../helpers/httpClient.js';
import {waitForReadyFile} from '../helpers/readyFile.js';
import {scaled} from '../helpers/loadFactor.js';
import {startServerProcess, type ServerProcess} from '../helpers/serverProcess.js';

const children: ChildProcess[] = [];
const servers: ServerProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-proc-'));
  dirs.push(dir);
  return dir;
}

function env(configDir: string): NodeJS.ProcessEnv {
  return cliEnv(configDir, {MBI_SKIP_BUILD: '1'});
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Direct children of a process, from /proc. */
function childPids(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) {
        found.push(Number(entry));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map(server => server.stop('SIGKILL')));
  for (const child of children.splice(0)) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
  }
  for (const dir of dirs.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

async function startsBrowser(mcpUrl: string, token: string): Promise<void> {
  const client = await connectHttpClient({mcpUrl, token}, 'signal-test');
  await client.callTool({name: 'list_pages', arguments: {}});
  await client.close();
}

describe('SIGTERM to npm', () => {
  for (const script of ['serve', 'start']) {
    it(
      `npm ${script === 'start' ? 'start' : 'run serve'} stops the server and its Chromium`,
      async () => {
        const dir = tempDir();
        const readyFile = path.join(dir, 'ready.json');
        const args = [
          ...(script === 'start' ? ['start'] : ['run', 'serve']),
          '--',
          '--headless',
          '--isolated',
          '--port',
          '0',
          '--readyFile',
          readyFile,
        ];
        const npm = spawn('npm', args, {cwd: ROOT, env: env(dir), stdio: 'ignore', detached: true});
        children.push(npm);
        const ready = await waitForReadyFile(readyFile, 30_000);
        await startsBrowser(ready.mcpUrl, ready.token);
        const browsers = childPids(ready.pid);
        expect(browsers.length).toBeGreaterThan(0);

        process.kill(npm.pid ?? 0, 'SIGTERM');
        await waitFor(() => !alive(ready.pid), 15_000, 'the server to stop');
        await waitFor(() => browsers.every(pid => !alive(pid)), 15_000, 'Chromium to stop');
      },
      scaled(60_000),
    );
  }
});

describe('start-up checks', () => {
  /** One server start with these flags; it must end by itself, with one line on stderr. */
  async function startFails(flags: string[]): Promise<{status: number | null; lines: string[]}> {
    const dir = tempDir();
    const child = spawn(process.execPath, [CLI, '--port', '0', ...flags], {
      env: env(dir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A bound for a loaded machine: a start that hangs (recursive mkdir) never ends by itself.
    const result = await collectRun(child, 20_000);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    return {status: result.code, lines: result.stderr.trim().split('\n')};
  }

  it('a bad path flag is one line and exit code 2, before anything starts', async () => {
    const dir = tempDir();
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, 'x');
    const writable = 'Pass a path in a writable folder.';
    const existing = 'Pass an existing folder.';
    const binary = 'Point it at a Chrome or Chromium binary.';
    const under = path.join(blocker, 'ready.json');
    // Every path-taking flag of the flag schema, where the kernel refuses to make a folder
    // (/proc/nope: a recursive mkdir loops there forever) and under a file (/etc/passwd/x).
    const cases: [string[], string][] = [
      [['--recordDir', '/proc/nope'], `folders cannot be created there. ${writable}`],
      [['--recordDir', '/etc/passwd/x'], `a folder on its path is a file. ${writable}`],
      [['--telemetryLog', '/proc/nope/t.jsonl'], `folders cannot be created there. ${writable}`],
      [['--telemetryLog', '/etc/passwd/t.jsonl'], `a folder on its path is a file. ${writable}`],
      [['--readyFile', '/proc/nope/r.json'], `folders cannot be created there. ${writable}`],
      [['--readyFile', under], `a folder on its path is a file. ${writable}`],
      [['--userDataDir', '/proc/nope'], `folders cannot be created there. ${writable}`],
      [['--userDataDir', '/etc/passwd/x'], `a folder on its path is a file. ${writable}`],
      [['--workspace', '/proc/nope'], `it does not exist. ${existing}`],
      [['--filesystemRoot', '/etc/passwd/x'], `a folder on its path is a file. ${existing}`],
      [['--executablePath', '/proc/nope'], `it does not exist. ${binary}`],
      [['--executablePath', '/etc/passwd/x'], `a folder on its path is a file. ${binary}`],
    ];
    // Each ends at once; they start side by side rather than one after another.
    const results = await Promise.all(cases.map(([flags]) => startFails(flags)));
    for (const [index, [flags, reason]] of cases.entries()) {
      // An alias is named as the flag it stands for.
      const shown = flags[0] === '--filesystemRoot' ? '--workspace' : flags[0];
      expect(results[index], flags.join(' ')).toEqual({
        status: 2,
        lines: [`mcp-browser-inspector: Cannot use ${shown} ${flags[1]}: ${reason}`],
      });
    }
  });
});

describe('what a start loads before its checks', () => {
  it('is the flags and the path checks, not the engine', () => {
    // A bad flag or path ends the start after this much code, not after the whole server's
    // (puppeteer, the MCP SDK, the HTTP server): the difference is most of the start-up time.
    const entry = staticallyLoadedBytes(CLI);
    expect(entry).toBeLessThan(1_000_000);
    expect(bundleBytes(path.join(ROOT, 'out/node'))).toBeGreaterThan(4 * entry);
  });

  it('leaves out the proxy engine of browser downloads when the server starts', () => {
    // @puppeteer/browsers imports proxy-agent for downloads only; its PAC engine (QuickJS,
    // esprima) would be compiled on every start. The bundle gets scripts/no-proxy-agent.mjs.
    const chunks = path.join(ROOT, 'out/node/chunks');
    const serve = fs.readdirSync(chunks).find(name => /^serve-.*\.js$/.test(name));
    expect(serve).toBeDefined();
    const loaded = staticallyLoadedFiles(path.join(chunks, serve ?? ''));
    const withPacEngine = loaded.filter(file =>
      /QuickJS|esprima/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(withPacEngine).toEqual([]);
    expect(
      loaded.some(file =>
        fs.readFileSync(file, 'utf8').includes('Downloading a browser is not part'),
      ),
    ).toBe(true);
  });
});

describe('the inspector URL', () => {
  it('is printed in full (token in the fragment) only when stdout is a terminal', async () => {
    const dir = tempDir();
    const readyFile = path.join(dir, 'ready.json');
    const command = [CLI, '--headless', '--isolated', '--port', '0', '--readyFile', readyFile]
      .map(part => `'${part}'`)
      .join(' ');
    // `script` gives the server a real pseudo-terminal as stdout.
    const terminal = spawn('script', ['-qfec', `'${process.execPath}' ${command}`, '/dev/null'], {
      env: env(dir),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    children.push(terminal);
    let output = '';
    terminal.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ready = await waitForReadyFile(readyFile, 20_000);
    await waitFor(() => output.includes('Open the inspector:'), 10_000, 'the URL line');
    expect(output).toContain(`Open the inspector: ${ready.inspectorUrl}#token=${ready.token}`);

    // Piped (a log file, a supervisor): the token is never printed.
    const piped = await startServerProcess({readyWithinMs: 20_000});
    servers.push(piped);
    const all = (): string => piped.stdout() + piped.stderr();
    await waitFor(() => all().includes('MCP Browser Inspector'), 10_000, 'the startup line');
    expect(all()).not.toContain(piped.token);
    expect(all()).not.toContain('Open the inspector:');
  });
});
