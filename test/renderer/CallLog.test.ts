/**
 * Tests: src/renderer/src/store/CallLog.ts, src/renderer/src/store/LogQuery.ts,
 *   src/renderer/src/store/callLine.ts, src/renderer/src/store/logEvents.ts
 */
import {describe, expect, it} from 'vitest';
import {CallLog} from '../../src/renderer/src/store/CallLog.js';
import {EMPTY_FILTER, LogQuery, matches} from '../../src/renderer/src/store/LogQuery.js';
import {callLine} from '../../src/renderer/src/store/callLine.js';
import {eventsOf} from '../../src/renderer/src/store/logEvents.js';
import {AGENT, endedEvent, OTHER, startedEvent} from './fixtures.js';

function start(log: CallLog, id: string, tool: string, seq: number, client = AGENT): void {
  const event = startedEvent(id, tool, client, {url: `https://example.com/${id}`});
  if (event.type === 'toolCallStarted') {
    log.started(event, seq, seq);
  }
}

function end(
  log: CallLog,
  id: string,
  tool: string,
  seq: number,
  status: 'ok' | 'error' = 'ok',
): void {
  const event = endedEvent(id, tool, status);
  if (event.type === 'toolCallEnded') {
    log.ended(event, seq, seq);
  }
}

describe('CallLog', () => {
  it('appends calls, then replaces (never mutates) a record when its call ends', () => {
    const log = new CallLog();
    start(log, 'a', 'navigate_page', 1);
    const running = log.byCallId('a');
    expect(running?.status).toBe('running');
    end(log, 'a', 'navigate_page', 2);
    const ended = log.byCallId('a');
    expect(ended).not.toBe(running);
    expect(running?.status).toBe('running');
    expect(ended).toMatchObject({status: 'ok', durationMs: 12, endSeq: 2, seq: 1});
    expect(ended?.telemetry?.tool_invocation.tool_name).toBe('navigate_page');
    expect(log.size).toBe(1);
  });

  it('keeps a call whose start it never saw (evicted upstream)', () => {
    const log = new CallLog();
    end(log, 'orphan', 'click', 9);
    expect(log.byCallId('orphan')).toMatchObject({status: 'ok', client: {name: 'unknown'}});
  });

  it('trims the oldest calls in chunks beyond its capacity and counts them', () => {
    const log = new CallLog(100);
    for (let index = 0; index < 111; index++) {
      start(log, `c${index}`, 'click', index + 1);
    }
    expect(log.size).toBe(100);
    expect(log.dropped).toBe(11);
    expect(log.byCallId('c10')).toBeUndefined();
    expect(log.byCallId('c11')?.ordinal).toBe(11);
    expect(log.at(log.firstOrdinal)?.callId).toBe('c11');
  });

  it('lists tools and clients for the filter menus, and forgets them on clear', () => {
    const log = new CallLog();
    start(log, 'a', 'take_screenshot', 1);
    start(log, 'b', 'click', 2, OTHER);
    expect(log.toolNames()).toEqual(['click', 'take_screenshot']);
    expect(log.clients().map(client => client.name)).toEqual(['claude-code', 'cursor']);
    log.clear();
    expect(log.size).toBe(0);
    expect(log.toolNames()).toEqual([]);
  });
});

describe("a call in a person's words", () => {
  it('says what the call acted on once its elements are known, finds it by them, exports them', () => {
    const log = new CallLog();
    const started = startedEvent('k', 'click', AGENT, {pageId: 2, uid: '2_4'});
    if (started.type === 'toolCallStarted') {
      log.started(started, 1, 1);
    }
    const first = log.byCallId('k');
    expect(first && callLine(first)).toBe('click uid 2_4');
    const query = new LogQuery(log, {...EMPTY_FILTER, text: 'press me'});
    expect(query.current().ordinals).toEqual([]);
    log.attach({
      type: 'callElements',
      callId: 'k',
      elements: [
        {param: 'uid', uid: '2_4', role: 'button', name: 'Press me', ancestry: [], nth: 0},
      ],
    });
    const record = log.byCallId('k');
    expect(record && callLine(record)).toBe('click button "Press me"');
    // The search follows the record that learnt its elements.
    expect(query.current().ordinals).toEqual([0]);
    end(log, 'k', 'click', 3);
    const exported = eventsOf(log, []).map(envelope => envelope.event.type);
    expect(exported).toEqual(['toolCallStarted', 'callElements', 'toolCallEnded']);
  });
});

describe('LogQuery', () => {
  it('filters by tool, status, client and free text', () => {
    const log = new CallLog();
    start(log, 'a', 'navigate_page', 1);
    start(log, 'b', 'click', 2, OTHER);
    end(log, 'b', 'click', 3, 'error');
    const ids = (filter: Partial<typeof EMPTY_FILTER>): string[] =>
      new LogQuery(log, {...EMPTY_FILTER, ...filter})
        .current()
        .ordinals.map(ordinal => log.at(ordinal)?.callId ?? '?');
    expect(ids({})).toEqual(['a', 'b']);
    expect(ids({tool: 'click'})).toEqual(['b']);
    expect(ids({status: 'running'})).toEqual(['a']);
    expect(ids({status: 'error'})).toEqual(['b']);
    expect(ids({clientId: AGENT.id})).toEqual(['a']);
    expect(ids({text: 'EXAMPLE.COM/A'})).toEqual(['a']);
    expect(ids({text: 'click failed'})).toEqual(['b']);
    expect(ids({text: 'nothing like this'})).toEqual([]);
  });

  it('updates incrementally: appends new matches and re-checks calls that ended', () => {
    const log = new CallLog();
    const query = new LogQuery(log, {...EMPTY_FILTER, status: 'running'});
    start(log, 'a', 'click', 1);
    start(log, 'b', 'click', 2);
    const first = query.current();
    expect(first.ordinals).toEqual([0, 1]);
    expect(query.current()).toBe(first);
    end(log, 'a', 'click', 3);
    start(log, 'c', 'click', 4);
    expect(query.current().ordinals).toEqual([1, 2]);

    const errors = new LogQuery(log, {...EMPTY_FILTER, status: 'error'});
    expect(errors.current().ordinals).toEqual([]);
    end(log, 'c', 'click', 5, 'error');
    end(log, 'b', 'click', 6, 'error');
    expect(errors.current().ordinals).toEqual([1, 2]);
  });

  it('rescans after the log trims, so no row points at a dropped call', () => {
    const log = new CallLog(10);
    const query = new LogQuery(log, EMPTY_FILTER);
    for (let index = 0; index < 5; index++) {
      start(log, `c${index}`, 'click', index + 1);
    }
    expect(query.current().ordinals).toHaveLength(5);
    for (let index = 5; index < 20; index++) {
      start(log, `c${index}`, 'click', index + 1);
    }
    const ordinals = query.current().ordinals;
    expect(ordinals.every(ordinal => log.at(ordinal) !== undefined)).toBe(true);
    expect(ordinals.at(-1)).toBe(19);
  });

  it('matches() needs every filter to agree', () => {
    const log = new CallLog();
    start(log, 'a', 'click', 1);
    const recorded = log.byCallId('a');
    expect(
      recorded && matches(recorded, {...EMPTY_FILTER, tool: 'click', clientId: OTHER.id}),
    ).toBe(false);
  });
});
