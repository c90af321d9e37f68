import {describe, expect, it, vi} from 'vitest';
import {InspectorHub} from '../../../src/core/inspector/InspectorHub.js';
import type {EventBatch, InspectorEvent} from '../../../src/shared/protocol.js';
import {waitFor} from '../../helpers/engine.js';

function started(index: number): InspectorEvent {
  return {
    type: 'toolCallStarted',
    callId: `call-${index}`,
    tool: 'list_pages',
    args: {index},
    client: {id: 'c1', name: 'test', version: '1', transport: 'http'},
  };
}

function collect(hub: InspectorHub, fromSeq: number, streamId?: string) {
  const batches: EventBatch[] = [];
  const subscription = hub.subscribe(
    fromSeq,
    batch => {
      batches.push(batch);
      return true;
    },
    streamId,
  );
  const seqs = (): number[] => batches.flatMap(batch => batch.events.map(event => event.seq));
  return {batches, subscription, seqs};
}

describe('InspectorHub', () => {
  it('assigns increasing sequence ids and delivers every event in order', async () => {
    const hub = new InspectorHub({batchIntervalMs: 5});
    const {seqs, subscription} = collect(hub, 0);
    for (let index = 0; index < 500; index++) {
      hub.publish(started(index));
    }
    await waitFor(() => seqs().length === 500);
    expect(seqs()).toEqual(Array.from({length: 500}, (_, index) => index + 1));
    expect(hub.nextSeq).toBe(501);
    subscription.close();
  });

  it('keeps at most `capacity` events and counts what it dropped', async () => {
    const hub = new InspectorHub({capacity: 10, batchIntervalMs: 5});
    for (let index = 0; index < 25; index++) {
      hub.publish(started(index));
    }
    expect(hub.size).toBe(10);
    expect(hub.dropped).toBe(15);
    expect(hub.firstSeq).toBe(16);
    expect(hub.get(15)).toBeUndefined();
    expect(hub.get(16)?.event).toMatchObject({callId: 'call-15'});
    const {batches, seqs} = collect(hub, 1);
    await waitFor(() => seqs().length === 10);
    expect(seqs()).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    expect(batches[0]?.dropped).toBe(15);
    expect(batches[0]?.nextSeq).toBe(26);
  });

  it('resumes from a sequence id, and starts over for another stream or a future id', async () => {
    const hub = new InspectorHub({batchIntervalMs: 5});
    for (let index = 0; index < 20; index++) {
      hub.publish(started(index));
    }
    const resumed = collect(hub, 12, hub.streamId);
    await waitFor(() => resumed.seqs().length === 9);
    expect(resumed.seqs()[0]).toBe(12);
    expect(resumed.batches[0]?.streamId).toBe(hub.streamId);

    const otherStream = collect(hub, 12, 'a-previous-server-run');
    await waitFor(() => otherStream.seqs().length === 20);
    expect(otherStream.seqs()[0]).toBe(1);

    const future = collect(hub, 500);
    await waitFor(() => future.seqs().length === 20);
    expect(future.seqs()[0]).toBe(1);

    // Caught up: new events follow without repeats.
    hub.publish(started(99));
    await waitFor(() => resumed.seqs().length === 10);
    expect(resumed.seqs().slice(-2)).toEqual([20, 21]);
  });

  it('sends an empty batch at once so a new subscriber knows where the stream stands', async () => {
    const hub = new InspectorHub({batchIntervalMs: 1_000});
    const {batches} = collect(hub, 0);
    await waitFor(() => batches.length === 1);
    expect(batches[0]).toMatchObject({events: [], nextSeq: 1, dropped: 0});
  });

  it('delivers in batches, never one message per event', async () => {
    const hub = new InspectorHub({batchIntervalMs: 30, maxBatchSize: 40});
    const {batches, seqs} = collect(hub, 0);
    await waitFor(() => batches.length === 1);
    for (let index = 0; index < 100; index++) {
      hub.publish(started(index));
    }
    await waitFor(() => seqs().length === 100);
    const sizes = batches.slice(1).map(batch => batch.events.length);
    expect(sizes).toEqual([40, 40, 20]);
  });

  it('pauses a subscriber that cannot take more and resumes where it stopped', async () => {
    // Fake timers: "nothing arrives" is then a fact (every batch that could go out has gone), not
    // a guess after a sleep.
    vi.useFakeTimers();
    try {
      const hub = new InspectorHub({batchIntervalMs: 5, maxBatchSize: 10});
      const received: number[] = [];
      let calls = 0;
      let accept = false;
      const subscription = hub.subscribe(0, batch => {
        calls++;
        received.push(...batch.events.map(event => event.seq));
        return accept;
      });
      // The first (empty) batch answers "full": nothing more may arrive until resume().
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toBe(1);
      for (let index = 0; index < 35; index++) {
        hub.publish(started(index));
      }
      await vi.advanceTimersByTimeAsync(1_000);
      expect(calls).toBe(1);
      expect(received).toEqual([]);
      accept = true;
      subscription.resume();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(received).toEqual(Array.from({length: 35}, (_, index) => index + 1));
      expect(calls).toBe(5);
      subscription.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops delivering after close', async () => {
    vi.useFakeTimers();
    try {
      const hub = new InspectorHub({batchIntervalMs: 5});
      const {seqs, subscription} = collect(hub, 0);
      hub.publish(started(1));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(seqs()).toEqual([1]);
      subscription.close();
      hub.publish(started(2));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(seqs()).toEqual([1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops oversized screenshots from the store but keeps the call', () => {
    const hub = new InspectorHub();
    const huge = 'A'.repeat(5 * 1024 * 1024);
    const envelope = hub.publish({
      type: 'toolCallEnded',
      callId: 'x',
      tool: 'take_screenshot',
      status: 'ok',
      durationMs: 3,
      result: {text: 'done', images: [{mimeType: 'image/png', data: huge}]},
    });
    expect(envelope.event.type === 'toolCallEnded' && envelope.event.result.images[0]?.data).toBe(
      '',
    );
  });

  it('clear() forgets events but keeps sequence ids increasing', async () => {
    const hub = new InspectorHub({batchIntervalMs: 5});
    hub.publish(started(1));
    hub.publish(started(2));
    hub.clear();
    expect(hub.size).toBe(0);
    const next = hub.publish(started(3));
    expect(next.seq).toBe(3);
    const {seqs} = collect(hub, 0);
    await waitFor(() => seqs().length === 1);
    expect(seqs()).toEqual([3]);
  });
});

type CallStarted = Extract<InspectorEvent, {type: 'toolCallStarted'}>;

function startedWith(index: number, extra: Partial<CallStarted>): CallStarted {
  return {
    type: 'toolCallStarted',
    callId: `call-${index}`,
    tool: 'list_pages',
    args: {index},
    client: {id: 'c1', name: 'test', version: '1', transport: 'http'},
    ...extra,
  };
}

describe('InspectorHub bounds what it keeps', () => {
  it('evicts the oldest events once their size passes the budget, counting them', () => {
    const hub = new InspectorHub({budgetChars: 100_000});
    for (let index = 0; index < 50; index++) {
      hub.publish(startedWith(index, {args: {text: 'x'.repeat(10_000)}}));
    }
    // Each event is ~10 KB: about ten fit, the rest were dropped (and counted), the newest stays.
    expect(hub.size).toBeLessThanOrEqual(10);
    expect(hub.size).toBeGreaterThanOrEqual(8);
    expect(hub.dropped).toBe(50 - hub.size);
    expect(hub.get(hub.nextSeq - 1)?.event).toMatchObject({callId: 'call-49'});
    expect(hub.range(0, 100).map(envelope => envelope.seq)).toEqual(
      Array.from({length: hub.size}, (_, index) => hub.firstSeq + index),
    );
  });

  it('cuts an argument nested 50,000 deep, and redacts every string but image data', () => {
    const hub = new InspectorHub({redact: text => text.replaceAll('s3cret-value', '[redacted]')});
    let deep: unknown = 's3cret-value';
    for (let index = 0; index < 50_000; index++) {
      deep = [deep];
    }
    const envelope = hub.publish(startedWith(1, {args: {deep, note: 'the s3cret-value here'}}));
    const text = JSON.stringify(envelope);
    expect(text).toMatch(/\[… nested deeper than \d+ levels\]/);
    expect(text).toContain('the [redacted] here');
    const image = hub.publish({
      type: 'toolCallEnded',
      callId: 'call-1',
      tool: 'take_screenshot',
      status: 'ok',
      durationMs: 1,
      result: {text: 's3cret-value', images: [{mimeType: 'image/png', data: 's3cret-value'}]},
    });
    expect(image.event).toMatchObject({
      result: {text: '[redacted]', images: [{mimeType: 'image/png', data: 's3cret-value'}]},
    });
  });

  it('keeps publishing when a listener throws, and says so', () => {
    const logs: string[] = [];
    const hub = new InspectorHub({log: line => logs.push(line)});
    const seen: number[] = [];
    hub.onEvent(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    hub.onEvent(envelope => seen.push(envelope.seq));
    expect(() => hub.publish(started(1))).not.toThrow();
    expect(seen).toEqual([1]);
    expect(logs[0]).toMatch(/listener failed on toolCallStarted: Maximum call stack/);
  });

  it('stands in for an event that does not fit its schema', () => {
    const logs: string[] = [];
    const hub = new InspectorHub({log: line => logs.push(line)});
    const envelope = hub.publish(startedWith(1, {pageId: Number.NaN}));
    expect(envelope.event).toMatchObject({type: 'eventOmitted', omittedType: 'toolCallStarted'});
    expect(logs[0]).toMatch(/toolCallStarted\) was left out/);
  });
});
