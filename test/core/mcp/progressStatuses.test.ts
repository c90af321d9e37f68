/**
 * What long tools say in their progress notifications (the heartbeat itself is tested in
 * progress.test.ts): a performance trace with its automatic stop, and a wait_for, each over a real
 * MCP client with a progressToken.
 *
 * Tests: src/core/mcp/progress.ts, src/core/tools/performance.ts, src/core/tools/waitFor.ts
 */
import {CallToolResultSchema, type Progress} from '@modelcontextprotocol/sdk/types.js';
import {describe, expect, it} from 'vitest';
import {textOf, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({clientName: 'progress-statuses-test'});

async function withProgress(
  name: string,
  args: Record<string, unknown>,
): Promise<{text: string; messages: string[]}> {
  const updates: Progress[] = [];
  const result = await fx.client.callTool({name, arguments: args}, CallToolResultSchema, {
    onprogress: update => updates.push(update),
    resetTimeoutOnProgress: true,
  });
  return {text: textOf(result), messages: updates.map(update => update.message ?? '')};
}

describe('progress statuses', () => {
  it('a trace says it records, then stops and summarises', async () => {
    const pageId = await fx.openPage('/index.html');
    const {text, messages} = await withProgress('performance_start_trace', {
      pageId,
      reload: true,
      autoStop: true,
    });
    expect(text).toContain('The performance trace has been stopped.');
    expect(messages.some(message => message.startsWith('Recording the trace'))).toBe(true);
    expect(messages.some(message => message.startsWith('Stopping the trace'))).toBe(true);
    expect(messages.some(message => message.startsWith('Computing the trace summary'))).toBe(true);
    // Every message carries the elapsed time, so a client can show that the call is alive.
    for (const message of messages) {
      expect(message).toMatch(/\(\d+ s\)$/);
    }
  });

  it('wait_for says what it waits for and for how long', async () => {
    const pageId = await fx.openPage('/delayed-dom.html');
    const {messages} = await withProgress('wait_for', {
      pageId,
      text: ['no such text'],
      timeout: 300,
    });
    expect(messages[0]).toMatch(
      /^Waiting for one of \["no such text"\] \(up to 300 ms\) \(\d+ s\)$/,
    );
  });
});
