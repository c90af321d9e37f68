/**
 * The Connection panel's panel model (features/connection/connectionModel.ts).
 *
 * Tests: src/renderer/src/features/connection/connectionModel.ts,
 *   src/renderer/src/features/connection/clientSetup.ts
 */
import {describe, expect, it} from 'vitest';
import {MASKED_TOKEN} from '../../src/renderer/src/features/connection/clientSetup.js';
import {
  INITIAL_CONNECTION,
  reduceConnection,
  setupsOpen,
  setupWithToken,
  shownSetups,
  shownToken,
} from '../../src/renderer/src/features/connection/connectionModel.js';

const URL = 'http://127.0.0.1:7624/mcp';
const TOKEN = 'secret-token-0123456789';

describe('Connection panel model', () => {
  it('masks the token in the setups until it is revealed', () => {
    const fetched = reduceConnection(INITIAL_CONNECTION, {
      type: 'token',
      result: {ok: true, value: {token: TOKEN}},
    });
    expect(shownToken(fetched)).toBeUndefined();
    const texts = shownSetups(URL, fetched).map(setup => setup.text);
    expect(texts.every(text => text.includes(MASKED_TOKEN) && !text.includes(TOKEN))).toBe(true);
    const revealed = reduceConnection(fetched, {type: 'reveal', revealed: true});
    expect(shownToken(revealed)).toBe(TOKEN);
    expect(shownSetups(URL, revealed).every(setup => setup.text.includes(TOKEN))).toBe(true);
    expect(
      shownToken(reduceConnection(revealed, {type: 'reveal', revealed: false})),
    ).toBeUndefined();
  });

  it('has no setups before the MCP URL is known', () => {
    expect(shownSetups(undefined, INITIAL_CONNECTION)).toEqual([]);
  });

  it('copies a setup with the real token', () => {
    expect(setupWithToken(URL, TOKEN, 'claude-code')).toContain(`Bearer ${TOKEN}`);
    expect(setupWithToken(URL, TOKEN, 'no-such-client')).toBe('');
  });

  it('keeps why the token could not be fetched, and forgets it once fetched', () => {
    const failed = reduceConnection(INITIAL_CONNECTION, {
      type: 'token',
      result: {ok: false, error: 'Not connected.'},
    });
    expect(failed).toMatchObject({token: undefined, tokenError: 'Not connected.'});
    const fetched = reduceConnection(failed, {
      type: 'token',
      result: {ok: true, value: {token: TOKEN}},
    });
    expect(fetched).toMatchObject({token: TOKEN, tokenError: undefined});
  });

  it('opens the setup section while no client is connected, then as the person left it', () => {
    expect(setupsOpen(INITIAL_CONNECTION, 0)).toBe(true);
    expect(setupsOpen(INITIAL_CONNECTION, 2)).toBe(false);
    const closed = reduceConnection(INITIAL_CONNECTION, {type: 'setupsOpen', open: false});
    expect(setupsOpen(closed, 0)).toBe(false);
    const opened = reduceConnection(INITIAL_CONNECTION, {type: 'setupsOpen', open: true});
    expect(setupsOpen(opened, 3)).toBe(true);
  });
});
