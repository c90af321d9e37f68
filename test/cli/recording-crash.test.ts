/**
 * A recording survives a crash: the real server process (out/node/cli) is killed with
 * SIGKILL mid-run, and its recording still has every call its timer had flushed (no close,
 * no exit handler runs); a line torn by the kill is skipped, not fatal. How soon a flush follows a
 * call is a timing target for a quiet machine; here the kill waits until the calls are on disk.
 *
 * Tests: src/core/recordings/Recorder.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {parseRecordingText} from '../../src/shared/recordingFile.js';
import {FixtureServer} from '../helpers/fixtureServer.js';
import {pageIdFrom, textOf, waitFor} from '../helpers/engine.js';
import {connectHttpClient} from '../helpers/httpClient.js';
import {startServerProcess, type ServerProcess} from '../helpers/serverProcess.js';
import {scaled} from '../helpers/loadFactor.js';

let dir = '';
let server: FixtureServer | undefined;
let recorder: ServerProcess | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-crash-'));
  server = await new FixtureServer().start();
});

afterAll(async () => {
  await recorder?.stop('SIGKILL');
  await server?.stop();
  fs.rmSync(dir, {recursive: true, force: true});
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The tools of the calls that ended well, as the recording on disk has them now. */
function endedCalls(recordDir: string): string[] {
  const files = fs.existsSync(recordDir)
    ? fs.readdirSync(recordDir).filter(name => name.endsWith('.jsonl'))
    : [];
  if (files.length !== 1) {
    return [];
  }
  const recording = parseRecordingText(
    fs.readFileSync(path.join(recordDir, files[0] ?? ''), 'utf8'),
  );
  return recording.events.flatMap(e =>
    e.event.type === 'toolCallEnded' && e.event.status === 'ok' ? [e.event.tool] : [],
  );
}

describe('kill -9 mid-run', () => {
  it(
    'keeps every flushed call, and reads past a torn line',
    async () => {
      const recordDir = path.join(dir, 'recorded');
      const ready = await startServerProcess({flags: ['--recordDir', recordDir], detached: true});
      recorder = ready;
      const client = await connectHttpClient(ready, 'crash-test');
      const url = server?.url('/index.html') ?? '';
      const opened = await client.callTool({name: 'new_page', arguments: {url}});
      const pageId = pageIdFrom(textOf(opened), '/index.html');
      for (let i = 0; i < 5; i++) {
        await client.callTool({
          name: 'evaluate_script',
          arguments: {pageId, function: `() => ${i} * 7`},
        });
      }
      // The guarantee under test: what the running server flushed (on its timer) is kept by a kill.
      await waitFor(() => endedCalls(recordDir).length >= 6, 20_000, 'the calls to reach the disk');
      // Calls in flight at the kill may be lost or torn; they must not break reading.
      void client.callTool({name: 'list_pages', arguments: {}}).catch(() => undefined);
      void client.callTool({name: 'take_snapshot', arguments: {pageId}}).catch(() => undefined);
      process.kill(ready.pid, 'SIGKILL');
      await waitFor(() => !alive(ready.pid), 10_000, 'the server to die');
      // Its Chromium is orphaned by the kill; the group kill cleans it up.
      await ready.stop('SIGKILL');

      const files = fs.readdirSync(recordDir).filter(name => name.endsWith('.jsonl'));
      expect(files).toHaveLength(1);
      const file = path.join(recordDir, files[0] ?? '');
      const text = fs.readFileSync(file, 'utf8');
      const recording = parseRecordingText(text);
      expect(endedCalls(recordDir).slice(0, 6)).toEqual([
        'new_page',
        ...Array<string>(5).fill('evaluate_script'),
      ]);
      const results = recording.events.flatMap(e =>
        e.event.type === 'toolCallEnded' && e.event.tool === 'evaluate_script'
          ? [e.event.result.text]
          : [],
      );
      expect(results.join('\n')).toContain('28');

      // A torn last line (the kill landing mid-write) is counted and skipped.
      fs.appendFileSync(file, '{"seq":99999,"time":1,"event":{"type":"toolCallSta');
      const torn = parseRecordingText(fs.readFileSync(file, 'utf8'));
      expect(torn.skippedLines).toBe(recording.skippedLines + 1);
      expect(torn.events).toHaveLength(recording.events.length);
      await client.close().catch(() => undefined);
    },
    scaled(90_000),
  );
});
