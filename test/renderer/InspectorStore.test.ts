/**
 * Tests: src/renderer/src/store/InspectorStore.ts, src/renderer/src/store/replays.ts
 */
import {describe, expect, it} from 'vitest';
import {InspectorStore} from '../../src/renderer/src/store/InspectorStore.js';
import {REPLAY_CAPACITY} from '../../src/renderer/src/store/replays.js';
import type {InspectorEvent, InspectorState, ReplayCallReport} from '../../src/shared/protocol.js';
import {AGENT, batchOf, endedEvent, record, startedEvent} from './fixtures.js';

const STATE: InspectorState = {
  serverVersion: '1.2.3',
  mcpUrl: 'http://127.0.0.1:7624/mcp',
  slim: false,
  categories: [],
  tools: [],
  pages: [],
  browser: {state: 'idle', mode: 'launch'},
  clients: [{...AGENT, connectedAt: 1, calls: 5}],
  webmcpTools: [],
};

describe('InspectorStore', () => {
  it('applies a batch at once and notifies once', () => {
    const store = new InspectorStore();
    let notified = 0;
    store.subscribe(() => notified++);
    store.applyBatch(
      batchOf(
        [
          startedEvent('a', 'click'),
          endedEvent('a', 'click'),
          {type: 'telemetry', callId: 'a', record: record('click')},
          {type: 'pagesChanged', pages: [{id: 1, url: 'about:blank', title: '', selected: true}]},
        ],
        1,
      ),
    );
    expect(notified).toBe(1);
    const snapshot = store.getSnapshot();
    expect(snapshot.lastSeq).toBe(4);
    expect(snapshot.log.size).toBe(1);
    expect(snapshot.telemetry).toHaveLength(1);
    expect(snapshot.pages[0]?.selected).toBe(true);
  });

  it('keeps unchanged slices identical, so selectors do not re-render', () => {
    const store = new InspectorStore();
    store.applyState(STATE);
    const before = store.getSnapshot();
    store.applyBatch(batchOf([startedEvent('a', 'click')], 1));
    const after = store.getSnapshot();
    expect(after.tools).toBe(before.tools);
    expect(after.pages).toBe(before.pages);
    expect(after.log).not.toBe(before.log);
  });

  it('ignores events it already has (a resumed stream repeats nothing)', () => {
    const store = new InspectorStore();
    store.applyBatch(batchOf([startedEvent('a', 'click'), startedEvent('b', 'click')], 1));
    store.applyBatch(batchOf([startedEvent('b', 'click'), startedEvent('c', 'click')], 2));
    expect(store.log.size).toBe(3);
    expect(store.getSnapshot().lastSeq).toBe(3);
  });

  it('counts calls per client and tracks connects and disconnects', () => {
    const store = new InspectorStore();
    store.applyState(STATE);
    store.applyBatch(batchOf([startedEvent('a', 'click')], 1));
    expect(store.getSnapshot().clients[0]?.calls).toBe(5);
    store.applyBatch(
      batchOf(
        [
          {type: 'clientConnected', client: {...AGENT, id: 'new', name: 'gemini-cli'}},
          {type: 'clientDisconnected', clientId: AGENT.id},
        ],
        2,
      ),
    );
    expect(store.getSnapshot().clients.map(client => client.name)).toEqual(['gemini-cli']);
  });

  it('remembers the last acted-on element for the live view', () => {
    const store = new InspectorStore();
    const ended = endedEvent('a', 'click');
    if (ended.type === 'toolCallEnded') {
      ended.actedOn = {pageId: 2, rect: {x: 1, y: 2, width: 3, height: 4}};
    }
    store.applyBatch(batchOf([startedEvent('a', 'click'), ended], 1));
    expect(store.getSnapshot().lastActedOn).toMatchObject({pageId: 2, callId: 'a', tool: 'click'});
  });

  it('on a new stream (server restarted) keeps the log, ends orphaned calls and restarts sequence ids', () => {
    const store = new InspectorStore();
    store.applyBatch(batchOf([startedEvent('a', 'click'), startedEvent('b', 'click')], 1, 'run-1'));
    store.applyBatch(batchOf([startedEvent('c', 'list_pages')], 1, 'run-2'));
    expect(store.log.size).toBe(3);
    expect(store.log.byCallId('a')?.status).toBe('cancelled');
    expect(store.log.byCallId('a')?.errorText).toMatch(/server restarted/);
    expect(store.log.byCallId('c')?.status).toBe('running');
    expect(store.getSnapshot().lastSeq).toBe(1);
  });

  it('keeps WebMCP invocations by id, latest state wins', () => {
    const store = new InspectorStore();
    const invocation = {
      invocationId: 'i1',
      pageId: 1,
      frameId: 'f',
      toolName: 'search',
      input: '{}',
      invoker: {kind: 'inspector' as const},
      status: 'running' as const,
      startedAt: 1,
    };
    store.applyBatch(batchOf([{type: 'webmcpInvocation', invocation}], 1));
    store.applyBatch(
      batchOf([{type: 'webmcpInvocation', invocation: {...invocation, status: 'Completed'}}], 2),
    );
    expect(store.getSnapshot().webmcpInvocations).toEqual([{...invocation, status: 'Completed'}]);
  });

  it('exports the calls and telemetry it holds as events in sequence order', () => {
    const store = new InspectorStore();
    store.applyBatch(
      batchOf(
        [
          startedEvent('a', 'click'),
          endedEvent('a', 'click'),
          {type: 'telemetry', callId: 'a', record: record('click')},
          startedEvent('b', 'hover'),
        ],
        1,
      ),
    );
    const events = store.exportEvents();
    expect(events.map(envelope => [envelope.seq, envelope.event.type])).toEqual([
      [1, 'toolCallStarted'],
      [2, 'toolCallEnded'],
      [3, 'telemetry'],
      [4, 'toolCallStarted'],
    ]);
  });

  describe('replays of recordings', () => {
    const report = (index: number): ReplayCallReport => ({
      index,
      tool: 'click',
      client: 'agent',
      outcome: 'same',
      recordedStatus: 'ok',
      replayedStatus: 'ok',
      replayMs: 10,
      recordedMs: 9,
    });
    const progress = (replayId: string, index: number): InspectorEvent => ({
      type: 'replayProgress',
      replayId,
      recordingId: 'rec',
      total: 3,
      call: report(index),
    });
    const finished = (replayId: string): InspectorEvent => ({
      type: 'replayFinished',
      replayId,
      recordingId: 'rec',
      summary: {total: 2, same: 2, different: 0, failed: 0, recordedMs: 18, replayMs: 20},
    });

    it('keeps each replay by id from its progress to its summary', () => {
      const store = new InspectorStore();
      store.applyBatch(batchOf([progress('r1', 1), progress('r2', 1), progress('r1', 2)], 1));
      const running = store.getSnapshot().replays;
      expect(
        running.map(replay => [replay.replayId, replay.calls.length, replay.finished]),
      ).toEqual([
        ['r1', 2, false],
        ['r2', 1, false],
      ]);
      store.applyBatch(batchOf([finished('r1')], 4));
      const done = store.getSnapshot().replays;
      expect(done[0]).toMatchObject({replayId: 'r1', total: 3, finished: true});
      expect(done[0]?.summary?.same).toBe(2);
      // The other replay's entry is the same object: its views do not re-render.
      expect(done[1]).toBe(running[1]);
    });

    it('keeps the newest replays only', () => {
      const store = new InspectorStore();
      const ids = Array.from({length: REPLAY_CAPACITY + 2}, (_, index) => `r${index}`);
      store.applyBatch(
        batchOf(
          ids.map(id => progress(id, 1)),
          1,
        ),
      );
      const kept = store.getSnapshot().replays.map(replay => replay.replayId);
      expect(kept).toEqual(ids.slice(2));
    });

    it('ends a replay the server never finished when the server restarts', () => {
      const store = new InspectorStore();
      store.applyBatch(batchOf([progress('r1', 1)], 1, 'run-1'));
      store.applyBatch(batchOf([], 1, 'run-2'));
      expect(store.getSnapshot().replays[0]).toMatchObject({
        finished: true,
        error: 'The server restarted before this replay ended.',
      });
    });
  });

  it('counts events the server left out, and keeps call elements out of the log', () => {
    const store = new InspectorStore();
    store.applyBatch(
      batchOf(
        [
          startedEvent('a', 'click'),
          {type: 'callElements', callId: 'a', elements: []},
          {type: 'eventOmitted', omittedType: 'toolCallEnded', reason: 'too deep'},
        ],
        1,
      ),
    );
    const snapshot = store.getSnapshot();
    expect(snapshot.log.serverOmitted).toBe(1);
    expect(snapshot.log.size).toBe(1);
    expect(snapshot.lastSeq).toBe(3);
  });
});
