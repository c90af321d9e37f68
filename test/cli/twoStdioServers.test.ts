/**
 * Two agents set up with the README's stdio snippet each start their own server on the same
 * default profile. The second uses a fresh profile next to the default one for that run (saying
 * so in one stderr line) and removes it when it exits; an explicit --userDataDir in use still
 * fails, saying what to do. Real server processes (out/node/cli), real MCP clients over stdio.
 *
 * Tests: src/cli/serve.ts, src/core/browser/launch/runProfile.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js';
import {afterEach, describe, expect, it} from 'vitest';
import {CLI, cliEnv} from '../helpers/cliRun.js';
import {textOf, waitFor} from '../helpers/engine.js';
import {FixtureServer} from '../helpers/fixtureServer.js';

const tempDirs: string[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) {
    await client.close().catch(() => undefined);
  }
  for (const dir of tempDirs.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

interface Agent {
  client: Client;
  stderr: () => string;
  pid: number | undefined;
}

/** One agent's server, started as the README's snippet does (`--stdio`), on a shared cache dir. */
async function startAgent(cacheDir: string, name: string, flags: string[] = []): Promise<Agent> {
  // No display (cliEnv): the browser runs headless, as on a CI box.
  const env = cliEnv(tempDir(`mbi-${name}-config-`), {XDG_CACHE_HOME: cacheDir});
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, '--stdio', ...flags],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({name, version: '1'});
  await client.connect(transport);
  clients.push(client);
  return {client, stderr: () => stderr, pid: transport.pid ?? undefined};
}

/** The command line of the browser a server launched: its child whose cmdline names a profile. */
function browserCommandLine(serverPid: number): string[] {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (parent === serverPid && args.some(arg => arg.startsWith('--user-data-dir='))) {
        return args;
      }
    } catch {
      // The process ended while we read it.
    }
  }
  return [];
}

async function listPages(agent: Agent): Promise<{text: string; isError: boolean}> {
  const result = await agent.client.callTool({name: 'list_pages', arguments: {}});
  return {text: textOf(result), isError: result.isError === true};
}

describe('two stdio servers on one default profile', () => {
  it('the second runs on a fresh profile of its own, says so once, and removes it on exit', async () => {
    const cache = tempDir('mbi-cache-');
    const defaultProfile = path.join(cache, 'mcp-browser-inspector', 'chrome-profile');
    const first = await startAgent(cache, 'first-agent');
    const firstPages = await listPages(first);
    expect(firstPages.isError, firstPages.text).toBe(false);
    // Chromium's lock: a symlink to <host>-<pid> (existsSync would follow it).
    expect(fs.lstatSync(path.join(defaultProfile, 'SingletonLock')).isSymbolicLink()).toBe(true);

    const second = await startAgent(cache, 'second-agent');
    const secondPages = await listPages(second);
    expect(secondPages.isError, secondPages.text).toBe(false);
    expect(secondPages.text).toContain('## Pages');
    const lines = second
      .stderr()
      .split('\n')
      .filter(line => line.includes('is in use by another browser'));
    expect(lines).toHaveLength(1);
    const runProfile = /uses its own profile (\S+), removed when it exits/.exec(
      lines[0] ?? '',
    )?.[1];
    expect(runProfile).toBeDefined();
    expect(path.dirname(runProfile ?? '')).toBe(path.dirname(defaultProfile));
    expect(fs.existsSync(runProfile ?? '')).toBe(true);
    expect(first.stderr()).not.toContain('is in use by another browser');

    // Both keep working side by side.
    expect((await listPages(first)).isError).toBe(false);
    expect((await listPages(second)).isError).toBe(false);

    await second.client.close();
    await waitFor(
      () => !fs.existsSync(runProfile ?? ''),
      20_000,
      "the second run's profile to be removed",
    );
    expect(fs.existsSync(defaultProfile)).toBe(true);
    expect((await listPages(first)).isError).toBe(false);
  });

  (process.platform === 'linux' ? it : it.skip)(
    "the second server's browser keeps WebMCP and the user's --chromeArg features",
    async () => {
      const fixtures = await new FixtureServer().start();
      try {
        const cache = tempDir('mbi-cache-');
        const flags = [
          '--categoryExperimentalWebmcp',
          '--chromeArg=--enable-features=ParallelDownloading',
        ];
        const first = await startAgent(cache, 'first-agent', flags);
        expect((await listPages(first)).isError).toBe(false);
        const second = await startAgent(cache, 'second-agent', flags);
        const opened = await second.client.callTool({
          name: 'navigate_page',
          arguments: {pageId: 1, url: fixtures.url('/webmcp/imperative.html')},
        });
        expect(opened.isError, textOf(opened)).not.toBe(true);
        // The retry (a run profile) happened: this is the path puppeteer's in-place edits broke.
        expect(second.stderr()).toContain('is in use by another browser');
        const tools = await waitFor(
          async () => {
            const listed = await second.client.callTool({
              name: 'list_webmcp_tools',
              arguments: {pageId: 1},
            });
            const text = textOf(listed);
            // Either the tools, or the answer that says WebMCP is off (the bug this guards).
            return text.includes('name="echo"') || text.includes('switched off') ? text : undefined;
          },
          15_000,
          "the page's WebMCP tools on the second server",
        );
        expect(tools).not.toContain('switched off');
        expect(tools).toContain('name="echo"');
        const features = browserCommandLine(second.pid ?? -1)
          .filter(arg => arg.startsWith('--enable-features='))
          .flatMap(arg => arg.slice('--enable-features='.length).split(','));
        expect(features).toContain('WebMCP');
        expect(features).toContain('ParallelDownloading');
      } finally {
        await fixtures.stop();
      }
    },
  );

  it('an explicit --userDataDir in use fails clearly', async () => {
    const cache = tempDir('mbi-cache-');
    const profile = tempDir('mbi-explicit-profile-');
    const first = await startAgent(cache, 'first-agent', ['--userDataDir', profile]);
    expect((await listPages(first)).isError).toBe(false);
    const second = await startAgent(cache, 'second-agent', ['--userDataDir', profile]);
    const refused = await listPages(second);
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(
      `The browser is already running for --userDataDir ${profile}. Close the browser that uses it, or start this server with another --userDataDir (or --isolated for a temporary profile).`,
    );
    expect(second.stderr()).not.toContain('is in use by another browser');
  });
});
