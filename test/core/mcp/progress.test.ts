/**
 * MCP progress: a call whose request carries a progressToken gets notifications/progress at least
 * every 5 s while it runs, with a short status; a call without one gets none.
 */
import type {Progress} from '@modelcontextprotocol/sdk/types.js';
import {CallToolResultSchema} from '@modelcontextprotocol/sdk/types.js';
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest';
import {CallProgress, HEARTBEAT_MS} from '../../../src/core/mcp/progress.js';
import {useEngineWithFixtures} from '../../helpers/engine.js';

describe('CallProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('beats every interval with the latest status, and stops', () => {
    const sent: unknown[] = [];
    const progress = new CallProgress(
      't1',
      notification => {
        sent.push(notification);
        return Promise.resolve();
      },
      'wait_for',
    );
    const stop = progress.start();
    vi.advanceTimersByTime(HEARTBEAT_MS);
    progress.report('Waiting for "Done"');
    vi.advanceTimersByTime(HEARTBEAT_MS);
    stop();
    vi.advanceTimersByTime(HEARTBEAT_MS * 3);
    expect(sent).toEqual([
      {
        method: 'notifications/progress',
        params: {progressToken: 't1', progress: 1, message: 'wait_for is running (4 s)'},
      },
      {
        method: 'notifications/progress',
        params: {progressToken: 't1', progress: 2, message: 'Waiting for "Done" (4 s)'},
      },
      {
        method: 'notifications/progress',
        params: {progressToken: 't1', progress: 3, message: 'Waiting for "Done" (8 s)'},
      },
    ]);
  });

  it('sends nothing and schedules nothing without a token', () => {
    const send = vi.fn(() => Promise.resolve());
    const progress = new CallProgress(undefined, send, 'wait_for');
    progress.start();
    progress.report('x');
    vi.advanceTimersByTime(HEARTBEAT_MS * 3);
    expect(send).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('progress over MCP', () => {
  const fx = useEngineWithFixtures();

  it('reaches the client while a long call runs', async () => {
    const id = await fx.openPage('/index.html');
    const updates: Progress[] = [];
    const result = await fx.client.callTool(
      {
        name: 'evaluate_script',
        arguments: {
          pageId: id,
          function: `() => new Promise(resolve => setTimeout(() => resolve('late'), ${HEARTBEAT_MS + 1_500}))`,
        },
      },
      CallToolResultSchema,
      {onprogress: update => updates.push(update), resetTimeoutOnProgress: true},
    );
    expect(JSON.stringify(result.content)).toContain('late');
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates[0]?.progress).toBe(1);
    expect(updates[0]?.message).toMatch(/^evaluate_script is running \(\d+ s\)$/);
  });
});
