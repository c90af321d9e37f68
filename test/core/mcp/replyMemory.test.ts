/**
 * A big reply's copies are given back once it has gone out: one full collection, coalesced and
 * spaced, and never for ordinary replies. Then through a real engine, an MCP session over real HTTP
 * and real Chromium: a 5 MB script result is followed by one collection, after which V8's
 * large-object space no longer holds a copy of it (without the collection ~24 MB of its copies
 * stayed, until V8 runs a major GC of its own, which an idle server may not do for hours).
 */
import v8 from 'node:v8';
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import {afterAll, afterEach, beforeAll, describe, expect, it, vi} from 'vitest';
import {
  BIG_REPLY_CHARS,
  exposedGarbageCollector,
  replyChars,
  ReplyMemory,
} from '../../../src/core/mcp/replyMemory.js';
import {call, pageIdFrom, startEngine, waitFor, type TestEngine} from '../../helpers/engine.js';
import {postMcp, rawClientSession, sessionHeaders} from '../../helpers/rawMcp.js';

function textReply(chars: number): CallToolResult {
  return {content: [{type: 'text', text: 'x'.repeat(chars)}]};
}

describe('ReplyMemory', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts texts and image data', () => {
    expect(
      replyChars({
        content: [
          {type: 'text', text: 'abc'},
          {type: 'image', mimeType: 'image/png', data: 'abcdef'},
        ],
      }),
    ).toBe(9);
  });

  it('collects once after a big reply, never after small ones, and spaces collections', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const memory = new ReplyMemory({
      collect,
      bigReplyChars: 100,
      delayMs: 1_000,
      minIntervalMs: 10_000,
    });
    memory.replied(textReply(99));
    expect(memory.pending).toBe(false);
    memory.replied(textReply(100));
    memory.replied(textReply(500));
    expect(memory.pending).toBe(true);
    vi.advanceTimersByTime(999);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    // Two big replies, one collection.
    expect(collect).toHaveBeenCalledTimes(1);
    expect(memory.collections).toBe(1);
    // The next big reply waits for the interval since the last collection.
    memory.replied(textReply(100));
    vi.advanceTimersByTime(9_999);
    expect(collect).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('a collector that throws reaches nobody; a runtime without one schedules nothing', () => {
    vi.useFakeTimers();
    const failing = new ReplyMemory({
      collect: () => {
        throw new Error('no');
      },
      bigReplyChars: 1,
    });
    failing.replied(textReply(2));
    expect(() => vi.runAllTimers()).not.toThrow();
    expect(failing.collections).toBe(1);
    const without = new ReplyMemory({collect: undefined, bigReplyChars: 1});
    without.replied(textReply(2));
    expect(without.pending).toBe(false);
  });

  it('a stopped engine leaves no collection behind', () => {
    vi.useFakeTimers();
    const collect = vi.fn();
    const memory = new ReplyMemory({collect, bigReplyChars: 1});
    memory.replied(textReply(2));
    memory.dispose();
    vi.runAllTimers();
    expect(collect).not.toHaveBeenCalled();
  });

  it('node gives the full collector without --expose-gc', () => {
    expect(exposedGarbageCollector()).toBeTypeOf('function');
    expect((globalThis as {gc?: unknown}).gc).toBeUndefined();
  });
});

describe('a big result through a real engine', () => {
  let engine: TestEngine;
  let pageId: number;

  beforeAll(async () => {
    engine = await startEngine();
    const client = await engine.connect();
    pageId = pageIdFrom((await call(client, 'list_pages')).text, 'about:blank');
  });

  afterAll(async () => {
    await engine.stop();
  });

  function largeObjectBytes(): number {
    const space = v8
      .getHeapSpaceStatistics()
      .find(({space_name}) => space_name === 'large_object_space');
    return space?.space_used_size ?? 0;
  }

  /**
   * A tools/call over plain HTTP whose reply is counted as it streams in, never kept: the test
   * process shares V8 with the engine, and a client holding the reply would be measured too.
   */
  async function replyBytes(sessionId: string, args: Record<string, unknown>): Promise<number> {
    const response = await postMcp(
      engine,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {name: 'evaluate_script', arguments: args},
      }),
      sessionHeaders(sessionId),
    );
    let bytes = 0;
    for await (const chunk of response.body ?? []) {
      bytes += chunk.byteLength;
    }
    return bytes;
  }

  it('is followed by one collection that leaves no copy of it', async () => {
    const sessionId = await rawClientSession(engine, 'big-result');
    expect(await replyBytes(sessionId, {pageId, function: '() => "small"'})).toBeLessThan(10_000);
    expect(engine.engine.replyMemory.pending).toBe(false);
    const resultChars = BIG_REPLY_CHARS + 1024 * 1024;
    const before = largeObjectBytes();
    const bytes = await replyBytes(sessionId, {
      pageId,
      function: `() => "x".repeat(${resultChars})`,
    });
    expect(bytes).toBeGreaterThan(resultChars);
    await waitFor(() => engine.engine.replyMemory.collections === 1, 30_000, 'the collection');
    // The page's answer, its parsed value, the text, the serialized reply: each was one copy.
    expect(largeObjectBytes() - before).toBeLessThan(resultChars);
  }, 240_000);
});
