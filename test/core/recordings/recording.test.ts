/**
 * Recording with a real engine, Chromium and MCP client: the file and its folder are
 * private, the header has the flags minus secrets, every call is in it within the flush interval,
 * and no token or Authorization value is ever written (not in arguments, results, console or
 * network text), even when the page and the agent put them there.
 *
 * Tests: src/core/recordings/Recorder.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {FLUSH_INTERVAL_MS} from '../../../src/core/recordings/Recorder.js';
import {parseRecordingText} from '../../../src/shared/recordingFile.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const TOKEN = 'recording-test-token-0123456789';
const HEADER_SECRET = 'sk-live-header-secret-abcdef';

const fx = useEngineWithFixtures({
  flags: ['--token', TOKEN],
  routes: server => {
    server.route('/secret.html', (_request, response) => {
      response.writeHead(200, {'Content-Type': 'text/html'}).end(`<!doctype html>
<title>secret</title><h1>Secret page</h1>
<script>
  console.log('token is ${TOKEN}');
  fetch('/api', {headers: {Authorization: 'Bearer ${HEADER_SECRET}'}});
</script>`);
    });
    server.route('/api', (request, response) => {
      response
        .writeHead(200, {'Content-Type': 'application/json'})
        .end(JSON.stringify({echo: request.headers.authorization ?? ''}));
    });
  },
});

function recordingsDir(): string {
  return path.join(fx.engine.configDir, 'sessions');
}

function allFiles(dir: string): string[] {
  return fs.readdirSync(dir, {withFileTypes: true}).flatMap(entry => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? allFiles(full) : [full];
  });
}

describe('the recorder', () => {
  it('records every call to a private recording with a header minus secrets', async () => {
    const pageId = await fx.openPage('/index.html');
    await call(fx.client, 'evaluate_script', {pageId, function: '() => document.title'});
    const recorder = fx.engine.engine.recordings.recorder;
    expect(recorder).toBeDefined();
    const file = recorder?.file ?? '';
    expect(path.dirname(file)).toBe(recordingsDir());
    expect(fs.statSync(recordingsDir()).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Flushed after the interval, without a stop (waited for with a generous factor of it: a
    // loaded machine runs the timer late).
    const parsed = await waitFor(
      () => {
        const recording = parseRecordingText(fs.readFileSync(file, 'utf8'));
        return recording.events.some(
          e => e.event.type === 'toolCallEnded' && e.event.tool === 'evaluate_script',
        )
          ? recording
          : undefined;
      },
      FLUSH_INTERVAL_MS * 100,
      'the evaluate_script call in the file',
    );
    expect(parsed.skippedLines).toBe(0);
    expect(parsed.header.appVersion).toBe('test');
    expect(parsed.header.flags).not.toHaveProperty('token');
    expect(parsed.header.flags).toMatchObject({stdio: false, recording: {enabled: true}});
    expect(parsed.header.browserVersion).toMatch(/Chrom/);
    const tools = parsed.events.flatMap(e =>
      e.event.type === 'toolCallStarted' ? [e.event.tool] : [],
    );
    expect(tools).toEqual(['new_page', 'evaluate_script']);
    // Same envelopes as the live hub.
    const ended = parsed.events.find(e => e.event.type === 'toolCallEnded');
    expect(fx.engine.engine.hub.get(ended?.seq ?? 0)?.event.type).toBe('toolCallEnded');
  });

  it('never writes the token or an Authorization value, wherever they appear', async () => {
    const pageId = await fx.openPage('/secret.html');
    await waitFor(async () => {
      const {text} = await call(fx.client, 'list_network_requests', {pageId});
      return text.includes('/api') && text.includes('200');
    });
    const {text: requests} = await call(fx.client, 'list_network_requests', {pageId});
    const reqid = /^reqid=(\d+) GET \S*\/api\b/m.exec(requests)?.[1];
    expect(reqid).toBeDefined();
    const detail = await call(fx.client, 'get_network_request', {pageId, reqid: Number(reqid)});
    // The agent sees the header (that is the tool's job); the recording must not keep it.
    expect(detail.text.toLowerCase()).toContain('authorization');
    expect(detail.text).toContain(HEADER_SECRET);
    await call(fx.client, 'list_console_messages', {pageId});
    const evaluated = await call(fx.client, 'evaluate_script', {
      pageId,
      function: `() => ({authorization: 'Bearer ${HEADER_SECRET}', token: '${TOKEN}', nested: JSON.stringify({Authorization: 'Basic ${HEADER_SECRET}'})})`,
    });
    expect(evaluated.text).toContain(TOKEN);
    fx.engine.engine.recordings.recorder?.flush();
    const files = allFiles(recordingsDir());
    expect(files.length).toBeGreaterThan(0);
    let checkedLines = 0;
    for (const file of files) {
      const content = fs.readFileSync(file, 'latin1');
      expect(content, file).not.toContain(TOKEN);
      expect(content, file).not.toContain(HEADER_SECRET);
      checkedLines += content.split('\n').length;
    }
    expect(checkedLines).toBeGreaterThan(5);
    const text = fs.readFileSync(fx.engine.engine.recordings.recorder?.file ?? '', 'utf8');
    expect(text).toContain('get_network_request');
    expect(text).toContain('[redacted]');
  });
});
