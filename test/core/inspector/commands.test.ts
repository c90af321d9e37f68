/**
 * The inspector commands against a real engine and Chromium: every command type answers with a
 * value its reply schema (src/shared/replies.ts) accepts — the schema a UI checks it with — and
 * a failing handler answers with its message instead of throwing.
 *
 * Tests: src/core/inspectorCommands.ts, src/core/inspector/InspectorPeer.ts,
 *   src/core/inspector/InspectorSocket.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import type {
  EventEnvelope,
  InspectorCommand,
  InspectorCommandType,
} from '../../../src/shared/protocol.js';
import {commandReplySchemas} from '../../../src/shared/replies.js';
import {
  RECORDING_FORMAT,
  recordingLine,
  type RecordingHeader,
} from '../../../src/shared/recordingFile.js';
import {useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalWebmcp'],
  clientName: 'commands-test',
});

const answered = new Set<InspectorCommandType>();

/** Runs a command and checks its reply against the schema of its type; returns the value. */
async function accepted(command: InspectorCommand): Promise<unknown> {
  const reply = await fx.engine.engine.handleCommand(command);
  if (!reply.ok) {
    throw new Error(`${command.type} failed: ${reply.error}`);
  }
  const parsed = commandReplySchemas[command.type].safeParse(reply.value);
  expect(parsed.error?.issues ?? [], command.type).toEqual([]);
  answered.add(command.type);
  return reply.value;
}

/** Recordings: list, read, image, search, star and delete (an older recording); the server list. */
async function recordingCommands(): Promise<void> {
  const recording = fx.engine.engine.recordings;
  const dir = recording.dir;
  const old = 'session-2020-01-01T00-00-00-000Z-1.jsonl';
  fs.writeFileSync(
    path.join(dir, old),
    '{"format":"mcp-browser-inspector-session","formatVersion":1,"appVersion":"x","startedAt":1,"flags":{}}\n',
  );
  const list = commandReplySchemas.recordingsList.parse(await accepted({type: 'recordingsList'}));
  expect(list.recordings.map(s => s.id)).toEqual([recording.recorder?.id, old]);
  const id = recording.recorder?.id ?? '';
  await accepted({type: 'recordingRead', id});
  await accepted({type: 'recordingsSearch', query: 'list_pages'});
  const image = await waitFor(
    () => {
      recording.recorder?.flush();
      const images = recording.recorder?.imagesDir ?? '';
      return fs.existsSync(images) ? fs.readdirSync(images)[0] : undefined;
    },
    10_000,
    'a recorded screenshot',
  );
  await accepted({type: 'recordingImage', id, file: image});
  const starred = commandReplySchemas.recordingStar.parse(
    await accepted({type: 'recordingStar', id: old, starred: true}),
  );
  expect(starred).toEqual({id: old, starred: true});
  await accepted({type: 'recordingDelete', id: old});
  await accepted({type: 'listServers'});
}

describe('inspector commands', () => {
  it('answer every command type in the shape of its reply schema', async () => {
    await accepted({type: 'getState'});
    await accepted({type: 'setCategoryEnabled', category: 'network', enabled: false});
    await accepted({type: 'setCategoryEnabled', category: 'network', enabled: true});
    await accepted({type: 'setConditionEnabled', condition: 'experimentalVision', enabled: false});
    await accepted({type: 'getToolsList'});
    await accepted({type: 'getToken'});
    await accepted({type: 'runTool', tool: 'list_pages', args: {}});
    const imperative = await fx.openPage('/webmcp/imperative.html');
    const declarative = await fx.openPage('/webmcp/declarative.html');
    await accepted({type: 'startLiveView', pageId: imperative});
    await accepted({type: 'stopLiveView'});
    await accepted({type: 'webmcpListTools'});
    await waitFor(
      () =>
        fx.engine.engine.webmcp
          .tools()
          .some(tool => tool.pageId === imperative && tool.name === 'slow'),
      10_000,
      'the slow tool',
    );
    const page = fx.engine.engine.browser.pages.byId(imperative);
    const started = await accepted({
      type: 'webmcpExecute',
      pageId: imperative,
      frameId: page.mainFrameId,
      toolName: 'slow',
      input: '{}',
    });
    const invocationId = commandReplySchemas.webmcpExecute.parse(started).invocationId;
    await accepted({type: 'webmcpCancel', invocationId});
    await accepted({type: 'webmcpListTools', pageId: declarative});
    const form = fx.engine.engine.browser.pages.byId(declarative);
    await accepted({
      type: 'webmcpHighlightForm',
      pageId: declarative,
      frameId: form.mainFrameId,
      toolName: 'reserve_table',
    });
    await accepted({type: 'webmcpDoctor', pageId: imperative});
    // Hold rules: a held agent call, decided from here.
    await accepted({type: 'holdGetState'});
    await accepted({type: 'holdSetRules', rules: ['tool:list_pages']});
    const held = fx.client.callTool({name: 'list_pages', arguments: {}});
    const heldCall = await waitFor(
      () => fx.engine.engine.hold.state().queue[0],
      10_000,
      'the held call',
    );
    await accepted({type: 'holdDecide', callId: heldCall.callId, decision: 'allow'});
    await held;
    await accepted({type: 'holdSetRules', rules: []});
    await accepted({type: 'holdAllowAll'});
    await accepted({type: 'holdDenyAll', reason: 'nothing is held'});
    await accepted({type: 'holdSetOpenOnHeld', openOnHeld: true});
    await accepted({type: 'setIsolateClients', enabled: false});
    await recordingCommands();
    // Replay and export of a recording (one list_pages call).
    const recordingsDir = path.join(fx.engine.configDir, 'sessions');
    fs.mkdirSync(recordingsDir, {recursive: true});
    const client = {id: 'c', name: 'agent', version: '1', transport: 'http'} as const;
    const header: RecordingHeader = {
      format: RECORDING_FORMAT,
      formatVersion: 1,
      appVersion: 'test',
      startedAt: 0,
      flags: {},
    };
    const recordedCall: EventEnvelope = {
      seq: 1,
      time: 0,
      event: {type: 'toolCallStarted', callId: 'a', tool: 'list_pages', args: {}, client},
    };
    fs.writeFileSync(
      path.join(recordingsDir, 'one-call.jsonl'),
      recordingLine(header) + recordingLine(recordedCall),
    );
    await accepted({type: 'exportRecording', recordingId: 'one-call.jsonl', format: 'playwright'});
    await accepted({type: 'replayRecording', recordingId: 'one-call.jsonl'});
    expect([...answered].sort()).toEqual(Object.keys(commandReplySchemas).sort());
  });

  it('answer a failing command with its error, not a throw', async () => {
    const reply = await fx.engine.engine.handleCommand({
      type: 'webmcpExecute',
      pageId: 1,
      frameId: 'x',
      toolName: 'echo',
      input: '[1]',
    });
    expect(reply).toEqual({
      ok: false,
      error: 'The input must be a JSON object, e.g. {"query": "…"}.',
    });
    const slim = await fx.engine.engine.handleCommand({type: 'webmcpCancel', invocationId: 'nope'});
    expect(slim.ok).toBe(false);
  });
});
