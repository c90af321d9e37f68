/**
 * The Log panel's panel model (features/log/logModel.ts) and the app frame's (app/frameModel.ts).
 *
 * Tests: src/renderer/src/features/log/logModel.ts, src/renderer/src/app/frameModel.ts,
 *   src/renderer/src/store/LogQuery.ts
 */
import {describe, expect, it} from 'vitest';
import {connectionLabel, documentTitle, opensHold} from '../../src/renderer/src/app/frameModel.js';
import {
  exportFailedNotice,
  importNotice,
  INITIAL_LOG,
  movedSelection,
  openFailedNotice,
  reduceLog,
} from '../../src/renderer/src/features/log/logModel.js';
import {EMPTY_FILTER} from '../../src/renderer/src/store/LogQuery.js';

describe('Log panel model', () => {
  it('changes the filter one field at a time, and resets it', () => {
    const byTool = reduceLog(INITIAL_LOG, {type: 'filter', patch: {tool: 'click'}});
    const both = reduceLog(byTool, {type: 'filter', patch: {status: 'error'}});
    expect(both.filter).toEqual({...EMPTY_FILTER, tool: 'click', status: 'error'});
    expect(reduceLog(both, {type: 'resetFilter'}).filter).toEqual(EMPTY_FILTER);
  });

  it('moves the selection within the rows shown, and stays inside them', () => {
    const rows = [3, 5, 8, 13];
    expect(movedSelection([], 5, 1)).toBeUndefined();
    expect(movedSelection(rows, undefined, 1)).toBe(0);
    expect(movedSelection(rows, undefined, -1)).toBe(3);
    expect(movedSelection(rows, 5, 1)).toBe(2);
    expect(movedSelection(rows, 5, -10)).toBe(0);
    expect(movedSelection(rows, 5, 10)).toBe(3);
    expect(movedSelection(rows, 5, 'first')).toBe(0);
    expect(movedSelection(rows, 5, 'last')).toBe(3);
    // A selected call the filter hides counts as no selection.
    expect(movedSelection(rows, 4, 1)).toBe(0);
  });

  it('says which lines of an opened file were skipped, and why an import or export failed', () => {
    expect(importNotice('a.jsonl', {skipped: 0, skippedAt: []})).toBeUndefined();
    expect(importNotice('a.jsonl', {skipped: 2, skippedAt: [3, 9]})).toBe(
      'Opened a.jsonl; skipped 2 line(s) that are not inspector events (lines 3, 9).',
    );
    expect(importNotice('a.jsonl', {skipped: 25, skippedAt: [1, 2]})).toContain('(lines 1, 2, …)');
    expect(openFailedNotice('a.jsonl', new Error('denied'))).toBe('Could not open a.jsonl: denied');
    expect(exportFailedNotice(new Error('offline'))).toContain('offline');
    const noticed = reduceLog(INITIAL_LOG, {type: 'notice', text: 'hello'});
    expect(reduceLog(noticed, {type: 'notice', text: undefined}).notice).toBeUndefined();
  });
});

describe('app frame panel model', () => {
  it('names every connection state in the header', () => {
    expect(connectionLabel({state: 'open'})).toBe('Connected');
    expect(connectionLabel({state: 'connecting'})).toBe('Connecting…');
    expect(connectionLabel({state: 'reconnecting', attempt: 3})).toBe('Reconnecting (attempt 3)…');
    expect(connectionLabel({state: 'closed'})).toBe('Disconnected');
    expect(connectionLabel({state: 'unauthorized', message: 'x'})).toBe('Disconnected');
  });

  it('puts held calls first in the title, and opens the Hold tab on a new one when asked to', () => {
    expect(documentTitle(0)).toBe('MCP Browser Inspector');
    expect(documentTitle(2)).toBe('(2 held) MCP Browser Inspector');
    expect(opensHold(0, 1, true)).toBe(true);
    expect(opensHold(1, 2, true)).toBe(true);
    // Not when one was decided, nor when the person did not ask for it.
    expect(opensHold(2, 1, true)).toBe(false);
    expect(opensHold(1, 1, true)).toBe(false);
    expect(opensHold(0, 1, false)).toBe(false);
  });
});
