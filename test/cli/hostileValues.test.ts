/**
 * The real server process (out/node/cli) outlives what used to kill it: a script result nested
 * 7,000 deep and a tools/call whose arguments nest 6,000 deep. After each, the process is alive, a
 * second client is answered within a second, the first client's client session still works, and nothing
 * overflowed on the way (stderr stays free of RangeError).
 *
 * Tests: src/cli/serve.ts, src/core/mcp/ToolRunner.ts, src/core/tools/script.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {LOCK_WAIT_MS} from '../../src/core/browser/lock.js';
import {call, pageIdFrom, waitFor} from '../helpers/engine.js';
import {rawRequest, rawClientSession} from '../helpers/rawMcp.js';
import {connectHttpClient} from '../helpers/httpClient.js';
import {startServerProcess, type ServerProcess} from '../helpers/serverProcess.js';
import {boundUnder} from '../helpers/loadFactor.js';

let server: ServerProcess | undefined;
const clients: Client[] = [];

async function connect(name: string): Promise<Client> {
  const client = await connectHttpClient(running(), name);
  clients.push(client);
  return client;
}

function running(): ServerProcess {
  if (server === undefined) {
    throw new Error('The server starts in beforeAll.');
  }
  return server;
}

beforeAll(async () => {
  server = await startServerProcess({detached: true});
});

afterAll(async () => {
  for (const client of clients) {
    await client.close().catch(() => undefined);
  }
  await server?.stop();
});

/** Waits until the recording the server writes holds `text`. */
async function waitForRecorded(text: string): Promise<void> {
  const recordingsDir = path.join(running().configDir, 'sessions');
  await waitFor(
    () =>
      fs.existsSync(recordingsDir) &&
      fs
        .readdirSync(recordingsDir)
        .filter(name => name.endsWith('.jsonl'))
        .some(name => fs.readFileSync(path.join(recordingsDir, name), 'utf8').includes(text)),
    10_000,
    `the recording to hold ${text}`,
  );
}

describe('the server process', () => {
  it('keeps serving after a deep script result and deep arguments', async () => {
    const agent = await connect('agent');
    const bystander = await connect('bystander');
    const expectServing = async (): Promise<void> => {
      expect(running().child.exitCode).toBeNull();
      const started = performance.now();
      const listed = await call(bystander, 'list_pages');
      expect(listed.isError, listed.text).toBe(false);
      // Not held up by the agent's deep value: a call stuck behind it would wait out the lock
      // wait; this machine answers well before (the bound grows with its load, under the wait).
      expect(performance.now() - started).toBeLessThan(boundUnder(LOCK_WAIT_MS / 3, LOCK_WAIT_MS));
      expect((await call(agent, 'list_pages')).isError).toBe(false);
    };
    const opened = await call(agent, 'new_page', {url: 'about:blank'});
    const pageId = pageIdFrom(
      opened.text.split('\n').find(line => line.includes('[selected]')) ?? '',
      'about:blank',
    );
    const deep = await call(agent, 'evaluate_script', {
      pageId,
      function: '() => { let v = []; for (let i = 1; i < 7000; i++) v = [v]; return v; }',
    });
    expect(deep.isError, deep.text.slice(0, 200)).toBe(false);
    // Recorded (the flush is where the overflow used to end the process), then still serving.
    await waitForRecorded('"tool":"evaluate_script","status":"ok"');
    await expectServing();

    const raw = running();
    const sessionId = await rawClientSession(raw, 'deep-args');
    const nested = `${'{"a":'.repeat(6_000)}1${'}'.repeat(6_000)}`;
    const answer = await rawRequest(
      raw,
      sessionId,
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_pages","arguments":{"x":${nested}}}}`,
    );
    expect(JSON.stringify(answer.messages)).toContain('nest deeper than 64 levels');
    await waitForRecorded('nest deeper than 64 levels');
    await expectServing();
    expect(running().stderr()).not.toMatch(/RangeError|Internal error/);
  });
});
