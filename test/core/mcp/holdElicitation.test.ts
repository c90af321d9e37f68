/**
 * A held call asks where the person is: with the SDK's own client over real HTTP and a real
 * Chromium, a client that supports elicitation is asked "Allow navigate_page → …?" too, and the
 * first answer wins — the client's Allow runs the call (the inspector is told it was decided in
 * the client), its Deny refuses it; when the inspector answers first the client's question is
 * withdrawn and the agent is told where it was decided. A client that can be neither asked nor
 * kept waiting (no progress token) is marked as one that may give up.
 *
 * Tests: src/core/mcp/hold/askClient.ts, src/core/mcp/hold/CallHold.ts
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CancelledNotificationSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {afterEach, describe, expect, it} from 'vitest';
import type {InspectorEvent} from '../../../src/shared/protocol.js';
import {call, textOf, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {heldOf} from '../../helpers/hold.js';
import {readAnswer, supportsFormElicitation} from '../../../src/core/mcp/hold/askClient.js';

const fx = useEngineWithFixtures({
  clientName: 'plain-client',
  routes: server => {
    server.html('/start.html', '<!doctype html><title>start</title><p>start</p>');
    server.html('/target.html', '<!doctype html><title>target</title><p>target</p>');
  },
});

afterEach(() => {
  fx.engine.engine.hold.setRules([]);
  fx.engine.engine.hold.allowAll();
});

interface Asked {
  message: string;
  /** Set when the server withdraws the question (notifications/cancelled for its request). */
  withdrawn: boolean;
  answer: (decision: 'allow' | 'deny' | 'inspector') => void;
}

/**
 * A client that supports form elicitation; each question waits for the test to answer it. The
 * withdrawals are heard here rather than by the SDK's own handler, which ignores a cancel of
 * request id 0 (`if (!requestId)`), the id of a session's first request to its client.
 */
async function askingClient(name: string): Promise<{client: Client; asked: Asked[]}> {
  const asked: Asked[] = [];
  const byRequest = new Map<string | number, {question: Asked; resolve: () => void}>();
  const client = await fx.engine.connect(name, {capabilities: {elicitation: {form: {}}}});
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
    return new Promise(resolve => {
      const question: Asked = {
        message: request.params.message,
        withdrawn: false,
        answer: decision => resolve({action: 'accept', content: {decision}}),
      };
      asked.push(question);
      byRequest.set(extra.requestId, {question, resolve: () => resolve({action: 'cancel'})});
    });
  });
  client.setNotificationHandler(CancelledNotificationSchema, notification => {
    const pending = byRequest.get(notification.params.requestId ?? '');
    if (pending) {
      pending.question.withdrawn = true;
      pending.resolve();
    }
  });
  return {client, asked};
}

function holdEnded(
  from: number,
  callId: string,
): Extract<InspectorEvent, {type: 'callHoldEnded'}> | undefined {
  for (const {event} of fx.engine.engine.hub.range(from, 10_000)) {
    if (event.type === 'callHoldEnded' && event.callId === callId) {
      return event;
    }
  }
  return undefined;
}

function navigate(client: Client, pageId: number): Promise<{text: string; isError: boolean}> {
  return client
    .callTool(
      {name: 'navigate_page', arguments: {pageId, url: fx.server.url('/target.html')}},
      CallToolResultSchema,
      {timeout: 60_000},
    )
    .then(result => ({text: textOf(result), isError: result.isError === true}));
}

describe('a held call asks in the client too', () => {
  it("the client's Allow wins: the call runs and the inspector shows it was decided there", async () => {
    const {client, asked} = await askingClient('asking-client');
    const pageId = await fx.openPage('/start.html');
    const engine = fx.engine.engine;
    engine.hold.setRules(['tool:navigate_page']);
    const from = engine.hub.nextSeq;
    const running = navigate(client, pageId);
    const held = await heldOf(engine, 'navigate_page');
    expect(held.askedInClient).toBe(true);
    expect(held.clientMayGiveUp).toBeUndefined();
    const question = await waitFor(() => asked[0], 10_000, 'the question in the client');
    expect(question.message).toContain(`Allow navigate_page → ${fx.server.url('/target.html')}`);
    expect(question.message).toContain('Edit in the inspector');
    question.answer('allow');
    const result = await running;
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Successfully navigated');
    expect(holdEnded(from, held.callId)).toMatchObject({decision: 'allowed', decidedIn: 'client'});
    // Decided: the inspector has nothing left to decide.
    expect(() => engine.hold.decide(held.callId, 'allow')).toThrow(/already decided/);
  });

  it("the client's Deny refuses the call", async () => {
    const {client, asked} = await askingClient('asking-denier');
    const pageId = await fx.openPage('/start.html');
    const engine = fx.engine.engine;
    engine.hold.setRules(['tool:navigate_page']);
    const from = engine.hub.nextSeq;
    const running = navigate(client, pageId);
    const held = await heldOf(engine, 'navigate_page');
    (await waitFor(() => asked[0], 10_000, 'the question')).answer('deny');
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Denied by the user: answered in asking-denier's own prompt");
    expect(holdEnded(from, held.callId)).toMatchObject({decision: 'denied', decidedIn: 'client'});
  });

  it('the inspector answers first: the question is withdrawn and the agent is told', async () => {
    const {client, asked} = await askingClient('asking-late');
    const pageId = await fx.openPage('/start.html');
    const engine = fx.engine.engine;
    engine.hold.setRules(['tool:navigate_page']);
    const from = engine.hub.nextSeq;
    const running = navigate(client, pageId);
    const held = await heldOf(engine, 'navigate_page');
    const question = await waitFor(() => asked[0], 10_000, 'the question');
    engine.hold.decide(held.callId, 'allow');
    const result = await running;
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(
      'Note: the user allowed this call in the inspector; the question shown in your client was withdrawn.',
    );
    await waitFor(() => question.withdrawn, 10_000, 'the question to be withdrawn');
    expect(holdEnded(from, held.callId)).toMatchObject({
      decision: 'allowed',
      decidedIn: 'inspector',
    });
    // "Edit in the inspector" leaves the call to the inspector: asked again, then answered there.
    const next = navigate(client, pageId);
    const again = await heldOf(
      engine,
      'navigate_page',
      candidate => candidate.callId !== held.callId,
    );
    (await waitFor(() => asked[1], 10_000, 'the second question')).answer('inspector');
    // Whenever that answer arrives, it decides nothing: the inspector's decision is the one.
    engine.hold.decide(again.callId, 'deny', {reason: 'not now'});
    expect((await next).text).toContain('Denied by the user: not now');
  });

  it('reads an answer: Allow and Deny decide, the rest leaves the call to the inspector', () => {
    expect(readAnswer({action: 'accept', content: {decision: 'allow'}})).toBe('allow');
    expect(readAnswer({action: 'accept', content: {decision: 'deny'}})).toBe('deny');
    expect(readAnswer({action: 'decline'})).toBe('deny');
    expect(readAnswer({action: 'accept', content: {decision: 'inspector'}})).toBeUndefined();
    expect(readAnswer({action: 'cancel'})).toBeUndefined();
    expect(readAnswer({action: 'accept', content: {decision: 'ALLOW'}})).toBeUndefined();
    expect(supportsFormElicitation({elicitation: {}})).toBe(true);
    expect(supportsFormElicitation({elicitation: {form: {}}})).toBe(true);
    expect(supportsFormElicitation({elicitation: {url: {}}})).toBe(false);
    expect(supportsFormElicitation({})).toBe(false);
  });

  it('a client that cannot be asked and sent no progress token may give up', async () => {
    const pageId = await fx.openPage('/start.html');
    const engine = fx.engine.engine;
    engine.hold.setRules(['tool:navigate_page']);
    const running = call(fx.client, 'navigate_page', {pageId, url: fx.server.url('/target.html')});
    const held = await heldOf(engine, 'navigate_page');
    expect(held.clientMayGiveUp).toBe(true);
    expect(held.askedInClient).toBeUndefined();
    engine.hold.decide(held.callId, 'allow');
    const result = await running;
    expect(result.isError, result.text).toBe(false);
    // Nobody was asked elsewhere: no note about it.
    expect(result.text).not.toContain('withdrawn');
  });
});
