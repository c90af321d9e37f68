/**
 * One client, one colour: by name (the same for every session of a name and in the next run),
 * never shared by clients connected at once, and a session number when a name has several.
 *
 * Tests: src/renderer/src/ui/clientStyles.ts
 */
import {describe, expect, it} from 'vitest';
import {
  CLIENT_COLORS,
  ClientStyler,
  preferredColor,
  type ColorMemory,
} from '../../src/renderer/src/ui/clientStyles.js';
import {InspectorStore} from '../../src/renderer/src/store/InspectorStore.js';
import type {ClientRef} from '../../src/shared/protocol.js';

/** Two names whose own colours are the same slot (found, not assumed). */
function collidingNames(): [string, string] {
  const first = 'gemini-cli';
  for (let index = 0; index < 1_000; index++) {
    const other = `agent-${index}`;
    if (preferredColor(other) === preferredColor(first)) {
      return [first, other];
    }
  }
  throw new Error('no colliding name found');
}

function memory(): ColorMemory & {saved: Record<string, number>} {
  const box: ColorMemory & {saved: Record<string, number>} = {
    saved: {},
    load: () => ({...box.saved}),
    save: (colors: Record<string, number>) => {
      box.saved = {...colors};
    },
  };
  return box;
}

describe('client colours', () => {
  it('gives every session of a name one colour and numbers the sessions', () => {
    const styler = new ClientStyler();
    const a = {id: 's1', name: 'gemini-cli'};
    const b = {id: 's2', name: 'gemini-cli'};
    const c = {id: 's3', name: 'claude-code'};
    const styles = styler.note([a, c, b], [a, c, b]);
    expect(styles.get('s1')).toEqual({color: preferredColor('gemini-cli'), session: 1});
    expect(styles.get('s2')).toEqual({color: preferredColor('gemini-cli'), session: 2});
    // A name with one session has no number.
    expect(styles.get('s3')?.session).toBeUndefined();
    // Nothing new: the same map.
    expect(styler.note([a], [a])).toBe(styles);
  });

  it('never gives two clients connected at once the same colour, and keeps it next run', () => {
    const [first, second] = collidingNames();
    const kept = memory();
    const styler = new ClientStyler(kept);
    const one = {id: 'x1', name: first};
    const two = {id: 'x2', name: second};
    const styles = styler.note([one, two], [one, two]);
    const colorOne = styles.get('x1')?.color;
    const colorTwo = styles.get('x2')?.color;
    expect(colorOne).toBe(preferredColor(first));
    expect(colorTwo).not.toBe(colorOne);
    expect(colorTwo).toBe((preferredColor(second) + 1) % CLIENT_COLORS);
    // The next run (a new inspector): the second name alone keeps the colour it was given.
    const next = new ClientStyler(kept);
    expect(next.note([{id: 'y2', name: second}], [{id: 'y2', name: second}]).get('y2')?.color).toBe(
      colorTwo,
    );
  });

  it('moves the later of two connected names that remembered the same colour', () => {
    const [first, second] = collidingNames();
    const styler = new ClientStyler();
    // Each came alone, so each took its own colour.
    styler.note([{id: 'a', name: first}], []);
    styler.note([{id: 'b', name: second}], []);
    const styles = styler.note(
      [],
      [
        {id: 'a', name: first},
        {id: 'b', name: second},
      ],
    );
    expect(styles.get('a')?.color).toBe(preferredColor(first));
    expect(styles.get('b')?.color).not.toBe(styles.get('a')?.color);
  });

  it('the store names the clients of its events and state', () => {
    const store = new InspectorStore();
    const client = (id: string): ClientRef => ({
      id,
      name: 'gemini-cli',
      version: '1',
      transport: 'http',
    });
    store.applyBatch({
      streamId: 's',
      dropped: 0,
      nextSeq: 3,
      events: [
        {seq: 1, time: 1, event: {type: 'clientConnected', client: client('c1')}},
        {seq: 2, time: 2, event: {type: 'clientConnected', client: client('c2')}},
      ],
    });
    const styles = store.getSnapshot().clientStyles;
    expect(styles.get('c1')?.session).toBe(1);
    expect(styles.get('c2')?.session).toBe(2);
    expect(styles.get('c2')?.color).toBe(styles.get('c1')?.color);
  });
});
