/**
 * A latch instead of a sleep for "nothing more arrives" checks on an InspectorHub: publishes
 * `count` events and resolves once a probe, subscribed after everything under test, has them. The
 * hub flushes subscribers on timers of the same length, in the order they were scheduled, so any
 * stream that would pass these events on has done so by then.
 */
import type {InspectorHub} from '../../src/core/inspector/InspectorHub.js';
import {waitFor} from './engine.js';

export async function publishAndSettle(hub: InspectorHub, count: number): Promise<void> {
  let ready = false;
  let received = 0;
  const probe = hub.subscribe(hub.nextSeq, batch => {
    ready = true;
    received += batch.events.length;
    return true;
  });
  try {
    // Its first (empty) batch: from here on its flushes are scheduled like everyone else's.
    await waitFor(() => ready, 5_000, 'the probe');
    for (let index = 0; index < count; index++) {
      hub.publish({type: 'clientDisconnected', clientId: `probe-${index}`});
    }
    await waitFor(() => received >= count, 5_000, 'the probe to get the events');
  } finally {
    probe.close();
  }
}
