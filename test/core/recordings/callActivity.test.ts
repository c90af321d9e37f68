/**
 * What each call did, with a real Chromium and MCP client: a click whose page logs, fetches and
 * navigates gets a callActivity event listing all three (linked by callId, on the hub and in the
 * recording); a click that changes the page's text says how many nodes changed and what appeared; and before/after screenshots stored as image files of the recording.
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {EventEnvelope, InspectorEvent} from '../../../src/shared/protocol.js';
import {parseRecordingText} from '../../../src/shared/recordingFile.js';
import {imagesDirOf} from '../../../src/core/recordings/Recorder.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {uidOf} from '../../helpers/snapshotText.js';

const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalWebmcp'],
  routes: server => {
    server.html(
      '/dialog.html',
      `<!doctype html><title>dialog</title><button onclick="alert('hello from the page')">Warn</button>`,
    );
    server.html(
      '/act.html',
      `<!doctype html><title>act</title>
<button onclick="console.log('clicked go'); fetch('/api/data?x=1').then(r => r.text()).then(() => { location.href = '/other.html'; })">Go</button>`,
    );
    server.html(
      '/count.html',
      `<!doctype html><title>count</title><button onclick="document.getElementById('out').textContent = 'clicked ' + (++window.clicks || (window.clicks = 1)); document.getElementById('list').append(...['a', 'b', 'c'].map(t => Object.assign(document.createElement('li'), {textContent: t})))">Press me</button><p id="out"></p><ul id="list"></ul><button onclick="">Nothing</button>`,
    );
    server.route('/api/data', (_request, response) => {
      response.writeHead(200, {'Content-Type': 'application/json'}).end('{"ok":true}');
    });
  },
});

type Of<T extends InspectorEvent['type']> = Extract<InspectorEvent, {type: T}>;

function eventsOf<T extends InspectorEvent['type']>(events: EventEnvelope[], type: T): Of<T>[] {
  return events.flatMap(({event}) => (event.type === type ? [event as Of<T>] : []));
}

describe('call activity', () => {
  it('links the console message, the request and the navigation a click caused', async () => {
    const hub = fx.engine.engine.hub;
    const opened = hub.nextSeq;
    const pageId = await fx.openPage('/act.html');
    // The page's image after new_page (taken once the page is quiet) is the click's "before".
    await waitFor(
      () => eventsOf(hub.range(opened, 10_000), 'callScreenshots').find(e => e.after),
      10_000,
      'the image after new_page',
    );
    const snapshot = await call(fx.client, 'take_snapshot', {pageId});
    const uid = uidOf(snapshot.text, 'button', 'Go');
    const from = hub.nextSeq;
    const clicked = await call(fx.client, 'click', {pageId, uid});
    expect(clicked.isError, clicked.text).toBe(false);
    await waitFor(
      () => fx.engine.engine.browser.pages.byId(pageId).url.includes('/other.html'),
      10_000,
      'the navigation',
    );
    const events = hub.range(from, 10_000);
    const callId = eventsOf(events, 'toolCallStarted').find(e => e.tool === 'click')?.callId;
    expect(callId).toBeDefined();
    const activity = eventsOf(events, 'callActivity').find(e => e.callId === callId);
    expect(activity?.pageId).toBe(pageId);
    const items = activity?.items ?? [];
    expect(items).toContainEqual(
      expect.objectContaining({kind: 'console', level: 'log', text: 'clicked go'}),
    );
    expect(items).toContainEqual(
      expect.objectContaining({
        kind: 'request',
        method: 'GET',
        url: fx.server.url('/api/data?x=1'),
        status: '200',
      }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({kind: 'navigation', url: fx.server.url('/other.html')}),
    );
    const times = items.map(item => item.time);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const ended = eventsOf(events, 'toolCallEnded').find(e => e.callId === callId);
    expect(ended?.actedOn?.rect.width).toBeGreaterThan(0);

    // Before/after screenshots: one small capture (no live view here), in the recording as files.
    const shots = await waitFor(
      () => eventsOf(hub.range(from, 10_000), 'callScreenshots').find(e => e.callId === callId),
      10_000,
      'the screenshots of the click',
    );
    expect(shots.after?.mimeType).toBe('image/jpeg');
    expect(shots.after?.data.length).toBeGreaterThan(100);
    expect(shots.after?.viewport?.width).toBeGreaterThan(0);
    // The snapshot before the click did not change the page: the click's "before" is new_page's after.
    expect(shots.before?.data.length).toBeGreaterThan(100);

    const recorder = fx.engine.engine.recordings.recorder;
    recorder?.flush();
    const file = recorder?.file ?? '';
    const recording = parseRecordingText(fs.readFileSync(file, 'utf8'));
    const recorded = eventsOf(recording.events, 'callScreenshots').find(e => e.callId === callId);
    expect(recorded?.after?.data).toBe('');
    const imageFile = recorded?.after?.file ?? '';
    expect(imageFile).toMatch(/^\d+-after\.jpeg$/);
    const bytes = fs.readFileSync(path.join(imagesDirOf(file), imageFile));
    expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(fs.statSync(path.join(imagesDirOf(file), imageFile)).mode & 0o777).toBe(0o600);
    expect(
      eventsOf(recording.events, 'callActivity').find(e => e.callId === callId)?.items,
    ).toEqual(items);
    // And the UI reads the image back by id and name only.
    const image = fx.engine.engine.recordings.image(recorder?.id ?? '', imageFile);
    expect(image.data).toBe(bytes.toString('base64'));
  });

  it('counts the nodes a click changed and the text that appeared; a click that changes nothing has none', async () => {
    const hub = fx.engine.engine.hub;
    const pageId = await fx.openPage('/count.html');
    const snapshot = await call(fx.client, 'take_snapshot', {pageId});
    const from = hub.nextSeq;
    const clicked = await call(fx.client, 'click', {
      pageId,
      uid: uidOf(snapshot.text, 'button', 'Press me'),
    });
    expect(clicked.isError, clicked.text).toBe(false);
    const idle = await call(fx.client, 'click', {
      pageId,
      uid: uidOf(snapshot.text, 'button', 'Nothing'),
    });
    expect(idle.isError, idle.text).toBe(false);
    const events = hub.range(from, 10_000);
    const [pressId, nothingId] = eventsOf(events, 'toolCallStarted')
      .filter(e => e.tool === 'click')
      .map(e => e.callId);
    const dom = eventsOf(events, 'callActivity')
      .find(e => e.callId === pressId)
      ?.items.find(item => item.kind === 'dom');
    // The paragraph's new text node and three list items (their text came with them).
    expect(dom).toMatchObject({kind: 'dom', nodes: 4, texts: ['clicked 1', 'a', 'b']});
    const quiet = eventsOf(events, 'callActivity').find(e => e.callId === nothingId);
    expect(quiet?.items.filter(item => item.kind === 'dom')).toEqual([]);
    // The page cannot see the watch: it runs in the engine's own world.
    const seen = await call(fx.client, 'evaluate_script', {
      pageId,
      function: '() => typeof globalThis.__mbiCallChanges',
    });
    expect(seen.text).toContain('"undefined"');
  });

  it('lists the dialog a call opened and the WebMCP invocation it ran', async () => {
    const hub = fx.engine.engine.hub;
    const pageId = await fx.openPage('/dialog.html');
    const snapshot = await call(fx.client, 'take_snapshot', {pageId});
    const from = hub.nextSeq;
    await call(fx.client, 'click', {pageId, uid: uidOf(snapshot.text, 'button', 'Warn')});
    await call(fx.client, 'handle_dialog', {pageId, action: 'accept'});
    const events = hub.range(from, 10_000);
    const clickId = eventsOf(events, 'toolCallStarted').find(e => e.tool === 'click')?.callId;
    const clickActivity = eventsOf(events, 'callActivity').find(e => e.callId === clickId);
    expect(clickActivity?.items).toContainEqual(
      expect.objectContaining({
        kind: 'dialog',
        dialogType: 'alert',
        message: 'hello from the page',
      }),
    );

    const webmcpPage = await fx.openPage('/webmcp/imperative.html');
    await waitFor(async () => {
      const {text} = await call(fx.client, 'list_webmcp_tools', {pageId: webmcpPage});
      return text.includes('echo');
    });
    const start = hub.nextSeq;
    const executed = await call(fx.client, 'execute_webmcp_tool', {
      pageId: webmcpPage,
      toolName: 'echo',
      input: '{"text":"hi"}',
    });
    expect(executed.isError, executed.text).toBe(false);
    const after = hub.range(start, 10_000);
    const executeId = eventsOf(after, 'toolCallStarted').find(
      e => e.tool === 'execute_webmcp_tool',
    )?.callId;
    const activity = eventsOf(after, 'callActivity').find(e => e.callId === executeId);
    expect(activity?.items).toContainEqual(
      expect.objectContaining({kind: 'webmcp', toolName: 'echo', status: 'Completed'}),
    );
  });
});
