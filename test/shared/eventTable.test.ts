/** The event table against the protocol: a row for every event type, and what recordings read. */
import {describe, expect, it} from 'vitest';
import {EVENT_TABLE, inRecordedLog, pagesShown} from '../../src/shared/eventTable.js';
import {inspectorEventSchema, type InspectorEvent} from '../../src/shared/protocol.js';

describe('event table', () => {
  it('has one row per event type of the protocol', () => {
    const types = inspectorEventSchema.options.map(option => option.shape.type.value);
    expect(Object.keys(EVENT_TABLE).sort()).toEqual([...new Set(types)].sort());
  });

  it('shows calls, their parts and telemetry in a recorded log, and no live state', () => {
    const shown = Object.entries(EVENT_TABLE)
      .filter(([, row]) => row.inRecordedLog)
      .map(([type]) => type)
      .sort();
    expect(shown).toEqual([
      'callActivity',
      'callElements',
      'callScreenshots',
      'telemetry',
      'toolCallEnded',
      'toolCallStarted',
    ]);
    const pages: InspectorEvent = {type: 'pagesChanged', pages: []};
    expect(inRecordedLog(pages)).toBe(false);
  });

  it('gives a replay the pages an event shows, with their openers', () => {
    expect(
      pagesShown('pagesChanged', {
        type: 'pagesChanged',
        pages: [
          {id: 1, url: 'about:blank', title: '', selected: true},
          {id: 2, url: 'about:blank', title: '', selected: false, openedBy: 1},
        ],
      }),
    ).toEqual([{id: 1}, {id: 2, openedBy: 1}]);
    expect(
      pagesShown('toolCallEnded', {
        type: 'toolCallEnded',
        callId: 'c1',
        tool: 'click',
        status: 'ok',
        durationMs: 1,
        result: {text: '', images: []},
        pageId: 3,
      }),
    ).toEqual([{id: 3}]);
    expect(
      pagesShown('browserStatus', {type: 'browserStatus', status: {state: 'idle', mode: 'launch'}}),
    ).toEqual([]);
  });
});
