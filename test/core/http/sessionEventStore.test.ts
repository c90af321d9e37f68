/**
 * The per-session event store: bounded by count and bytes, with a dropped count; replay order.
 *
 * Tests: src/core/http/SessionEventStore.ts
 */
import {describe, expect, it} from 'vitest';
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js';
import {SessionEventStore} from '../../../src/core/http/SessionEventStore.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: {progressToken: 't', progress: n},
});

async function replayed(store: SessionEventStore, after: string): Promise<unknown[]> {
  const sent: unknown[] = [];
  await store.replayEventsAfter(after, {
    send: (_id, message) => {
      sent.push(message);
      return Promise.resolve();
    },
  });
  return sent;
}

describe('SessionEventStore', () => {
  it('replays the events of one stream after the given id, skipping the priming event', async () => {
    const store = new SessionEventStore({maxEvents: 100, maxBytes: 100_000});
    const primed = await store.storeEvent('a', {} as JSONRPCMessage);
    await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(99));
    await store.storeEvent('a', note(2));
    expect(await replayed(store, primed)).toEqual([note(1), note(2)]);
    expect(store.knownStream('a_999')).toBeUndefined();
    expect(store.knownStream('nonsense')).toBeUndefined();
  });

  it('drops the oldest past its count and byte bounds, and counts them', async () => {
    const store = new SessionEventStore({maxEvents: 3, maxBytes: 100_000});
    const first = await store.storeEvent('a', note(0));
    for (let n = 1; n <= 5; n++) {
      await store.storeEvent('a', note(n));
    }
    expect(store.size).toBe(3);
    expect(store.dropped).toBe(3);
    expect(await replayed(store, first)).toEqual([note(3), note(4), note(5)]);
    const small = new SessionEventStore({maxEvents: 100, maxBytes: 250});
    for (let n = 0; n < 5; n++) {
      await small.storeEvent('a', note(n));
    }
    expect(small.bytes).toBeLessThanOrEqual(250);
    expect(small.dropped).toBeGreaterThan(0);
    // One event larger than the whole bound is not kept at all.
    const droppedBefore = small.dropped;
    await small.storeEvent('a', {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: {level: 'info', data: 'x'.repeat(300)},
    });
    expect(small.bytes).toBeLessThanOrEqual(250);
    expect(small.dropped).toBe(droppedBefore + 1);
  });

  it('forgets a delivered stream, and everything when cleared', async () => {
    const store = new SessionEventStore({maxEvents: 100, maxBytes: 100_000});
    const id = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(2));
    store.forgetStream('a');
    expect(store.knownStream(id)).toBeUndefined();
    expect(store.size).toBe(1);
    store.clear();
    expect(store.size).toBe(0);
    expect(store.bytes).toBe(0);
  });
});
