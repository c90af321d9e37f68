/**
 * Hold rules with a real MCP client over HTTP and real Chromium: a held click is allowed, edited
 * (another uid, other text; the page shows the edited effect) or denied with a reason; progress
 * arrives while held; a client cancel removes it at once; read-only calls pass under
 * not-read-only; a held call on page A does not delay page B; step, Allow all, the inspector's
 * own calls, WebMCP consequential tools, Deny all after turning hold off, the choice to open the
 * Hold tab, and the timeout (its own engine).
 *
 * Tests: src/core/mcp/hold/HoldGate.ts, src/core/mcp/hold/CallHold.ts,
 *   src/core/mcp/hold/webmcpHold.ts
 */
import {CallToolResultSchema, type Progress} from '@modelcontextprotocol/sdk/types.js';
import {afterEach, beforeAll, describe, expect, it} from 'vitest';
import type {HeldCall} from '../../../src/shared/hold.js';
import type {InspectorEvent} from '../../../src/shared/protocol.js';
import {call, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';
import {heldOf as heldCall, valueOf} from '../../helpers/hold.js';
import {openInspectorSocket} from '../../helpers/inspectorSocket.js';
import {uidOf} from '../../helpers/snapshotText.js';

const PAGE = `<!doctype html><title>hold</title>
<button onclick="document.title = 'clicked A'">Button A</button>
<button onclick="document.title = 'clicked B'">Button B</button>
<input aria-label="Name">`;

const fx = useEngineWithFixtures({
  // A closed stream's call waits this long for the client to resume it before it is cancelled.
  flags: ['--categoryExperimentalWebmcp', '--resumeWindow', '1'],
  clientName: 'hold-test',
  routes: server => {
    server.html('/hold-a.html', PAGE);
    server.html('/hold-b.html', PAGE);
  },
});
const events: InspectorEvent[] = [];

beforeAll(() => {
  fx.engine.engine.hub.onEvent(envelope => events.push(envelope.event));
});

afterEach(async () => {
  const engine = fx.engine.engine;
  engine.hold.setRules([]);
  engine.hold.allowAll();
  await waitFor(() => engine.hold.state().queue.length === 0, 5_000, 'an empty queue');
});

function heldOf(tool: string, predicate?: (held: HeldCall) => boolean): Promise<HeldCall> {
  return heldCall(fx.engine.engine, tool, predicate);
}

async function title(pageId: number): Promise<string> {
  const page = fx.engine.engine.browser.pages.byId(pageId);
  const {result} = await page.cdp.send('Runtime.evaluate', {expression: 'document.title'});
  return String(result.value);
}

let opened = 0;

/** A new tab of a fixture page (a query string of its own, so tests never share a page). */
function openFresh(path: string): Promise<number> {
  opened++;
  return fx.openPage(`${path}?tab=${opened}`);
}

async function pageWithSnapshot(path: string): Promise<{pageId: number; snapshot: string}> {
  const pageId = await openFresh(path);
  const {text} = await call(fx.client, 'take_snapshot', {pageId});
  return {pageId, snapshot: text};
}

describe('hold rules over MCP', () => {
  it('holds a click under not-read-only, shows it, and runs it on Allow', async () => {
    const {pageId, snapshot} = await pageWithSnapshot('/hold-a.html');
    const uid = uidOf(snapshot, 'button "Button A"');
    const state = valueOf(
      await fx.engine.engine.handleCommand({type: 'holdSetRules', rules: ['not-read-only']}),
    );
    expect(state).toMatchObject({rules: ['not-read-only'], queue: []});

    // A read-only call passes while the rule is on.
    const pages = await call(fx.client, 'list_pages');
    expect(pages.text).toContain('hold-a.html');

    const pending = call(fx.client, 'click', {pageId, uid});
    const held = await heldOf('click', candidate => candidate.target?.rect !== undefined);
    expect(held).toMatchObject({
      args: {pageId, uid},
      client: {name: 'hold-test', transport: 'http'},
      pageId,
      rule: 'not-read-only',
      reason: 'click is not read-only',
      target: {param: 'uid', uid},
    });
    expect(held.pageUrl).toContain('/hold-a.html');
    expect(held.target?.rect?.width).toBeGreaterThan(0);
    expect(held.deadline - held.heldAt).toBe(300_000);
    expect(await title(pageId)).toBe('hold');

    valueOf(
      await fx.engine.engine.handleCommand({
        type: 'holdDecide',
        callId: held.callId,
        decision: 'allow',
      }),
    );
    const result = await pending;
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('Successfully clicked on the element');
    expect(await title(pageId)).toBe('clicked A');
    expect(events).toContainEqual(
      expect.objectContaining({type: 'callHoldEnded', callId: held.callId, decision: 'allowed'}),
    );
    const ended = events.find(
      event => event.type === 'toolCallEnded' && event.callId === held.callId,
    );
    expect(ended).toMatchObject({status: 'ok'});
  });

  it('runs the edited arguments (another uid) and says how they changed', async () => {
    const {pageId, snapshot} = await pageWithSnapshot('/hold-a.html');
    const uidA = uidOf(snapshot, 'button "Button A"');
    const uidB = uidOf(snapshot, 'button "Button B"');
    fx.engine.engine.hold.setRules(['tool:click']);
    const pending = call(fx.client, 'click', {pageId, uid: uidA});
    const held = await heldOf('click');

    // Arguments that do not fit the schema are refused; the call stays held.
    const bad = await fx.engine.engine.handleCommand({
      type: 'holdDecide',
      callId: held.callId,
      decision: 'edit',
      args: {pageId, uid: true},
    });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.error).toContain('The edited arguments do not fit click');
    expect(fx.engine.engine.hold.state().queue.map(entry => entry.callId)).toEqual([held.callId]);

    valueOf(
      await fx.engine.engine.handleCommand({
        type: 'holdDecide',
        callId: held.callId,
        decision: 'edit',
        args: {pageId, uid: uidB},
      }),
    );
    const result = await pending;
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(
      `Note: the user changed your arguments in the inspector before this call ran: uid "${uidA}" → "${uidB}".`,
    );
    expect(await title(pageId)).toBe('clicked B');
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'callHoldEnded',
        callId: held.callId,
        decision: 'edited',
        args: {pageId, uid: uidB},
      }),
    );
  });

  it('runs edited text: the page shows the edited value', async () => {
    const {pageId, snapshot} = await pageWithSnapshot('/hold-b.html');
    const uid = uidOf(snapshot, 'textbox "Name"');
    fx.engine.engine.hold.setRules(['category:input']);
    const pending = call(fx.client, 'fill', {pageId, uid, value: 'Mallory'});
    const held = await heldOf('fill');
    expect(held.reason).toBe('fill is in the input category');
    fx.engine.engine.hold.decide(held.callId, 'edit', {args: {pageId, uid, value: 'Alice'}});
    const result = await pending;
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('value "Mallory" → "Alice"');
    const page = fx.engine.engine.browser.pages.byId(pageId);
    const {result: value} = await page.cdp.send('Runtime.evaluate', {
      expression: 'document.querySelector("input").value',
    });
    expect(value.value).toBe('Alice');
  });

  it('denies with the reason, and the click does not happen', async () => {
    const {pageId, snapshot} = await pageWithSnapshot('/hold-a.html');
    const uid = uidOf(snapshot, 'button "Button A"');
    fx.engine.engine.hold.setRules(['all']);
    const pending = call(fx.client, 'click', {pageId, uid});
    const held = await heldOf('click');
    valueOf(
      await fx.engine.engine.handleCommand({
        type: 'holdDecide',
        callId: held.callId,
        decision: 'deny',
        reason: 'wrong button',
      }),
    );
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.text.split('\n')[0]).toBe('Denied by the user: wrong button');
    expect(await title(pageId)).toBe('hold');
  });

  it('sends progress while held (the first at once, then at least every 5 s)', async () => {
    const pageId = await openFresh('/hold-b.html');
    fx.engine.engine.hold.setRules(['tool:navigate_page']);
    const updates: Progress[] = [];
    const pending = fx.client.callTool(
      {name: 'navigate_page', arguments: {pageId, type: 'reload'}},
      CallToolResultSchema,
      {onprogress: update => updates.push(update), resetTimeoutOnProgress: true},
    );
    const held = await heldOf('navigate_page');
    await waitFor(() => updates.length >= 2, 6_000, 'two progress notifications');
    expect(updates[0]?.message).toMatch(/^Waiting for approval in the inspector… \(0 s\)$/);
    expect(updates[1]?.message).toMatch(/^Waiting for approval in the inspector… \([45] s\)$/);
    fx.engine.engine.hold.decide(held.callId, 'allow');
    const result = await pending;
    expect(result.isError).not.toBe(true);
  });

  it('a client cancel removes the held call at once', async () => {
    const pageId = await openFresh('/hold-b.html');
    fx.engine.engine.hold.setRules(['not-read-only']);
    const controller = new AbortController();
    const pending = fx.client
      .callTool({name: 'navigate_page', arguments: {pageId, type: 'reload'}}, undefined, {
        signal: controller.signal,
      })
      .catch((error: unknown) => error);
    const held = await heldOf('navigate_page');
    controller.abort('changed my mind');
    await waitFor(
      () => fx.engine.engine.hold.state().queue.length === 0,
      10_000,
      'the cancelled call to leave the queue',
    );
    expect(await pending).toBeInstanceOf(Error);
    await waitFor(
      () =>
        events.some(
          event =>
            event.type === 'toolCallEnded' &&
            event.callId === held.callId &&
            event.status === 'cancelled',
        ),
      5_000,
      'the call to end as cancelled',
    );
    expect(events).toContainEqual(
      expect.objectContaining({type: 'callHoldEnded', callId: held.callId, decision: 'cancelled'}),
    );
  });

  it('a client that closes its stream takes its held call out of the queue', async () => {
    fx.engine.engine.hold.setRules(['tool:list_pages']);
    const leaving = await fx.engine.connect('hold-leaving');
    const pending = leaving.callTool({name: 'list_pages', arguments: {}}).catch(() => 'closed');
    const held = await heldOf('list_pages', candidate => candidate.client.name === 'hold-leaving');
    await leaving.close();
    expect(await pending).toBe('closed');
    await waitFor(
      () => fx.engine.engine.hold.state().queue.length === 0,
      10_000,
      'the held call of the closed stream to leave the queue',
    );
    expect(events).toContainEqual(
      expect.objectContaining({type: 'callHoldEnded', callId: held.callId, decision: 'cancelled'}),
    );
  });

  it('a held call on page A delays neither page B nor browser-wide calls', async () => {
    const a = await pageWithSnapshot('/hold-a.html');
    const b = await pageWithSnapshot('/hold-b.html');
    fx.engine.engine.hold.setRules(['url:*/hold-a.html?*']);
    const pendingA = call(fx.client, 'click', {
      pageId: a.pageId,
      uid: uidOf(a.snapshot, 'button "Button A"'),
    });
    const heldA = await heldOf('click');
    expect(heldA.reason).toMatch(/hold-a\.html\?tab=\d+ matches \*\/hold-a\.html\?\*$/);

    const other = await fx.engine.connect('hold-other');
    const clickB = await call(other, 'click', {
      pageId: b.pageId,
      uid: uidOf(b.snapshot, 'button "Button B"'),
    });
    expect(clickB.text).toContain('Successfully clicked');
    expect(await title(b.pageId)).toBe('clicked B');
    // Nor the browser-wide calls of others.
    const pages = await call(other, 'list_pages');
    expect(pages.text).toContain('hold-b.html');
    expect(fx.engine.engine.hold.state().queue.map(entry => entry.callId)).toEqual([heldA.callId]);
    fx.engine.engine.hold.decide(heldA.callId, 'allow');
    expect((await pendingA).text).toContain('Successfully clicked');
  });

  it('step holds the next call only; Allow all releases the queue in order', async () => {
    const pageId = await openFresh('/hold-b.html');
    fx.engine.engine.hold.setRules(['step']);
    const first = call(fx.client, 'list_pages');
    const held = await heldOf('list_pages');
    expect(held.rule).toBe('step');
    expect(fx.engine.engine.hold.state().rules).toEqual([]);
    const second = await call(fx.client, 'list_pages');
    expect(second.isError).toBe(false);
    fx.engine.engine.hold.decide(held.callId, 'allow');
    expect((await first).text).toContain('hold-b.html');

    fx.engine.engine.hold.setRules(['tool:list_console_messages']);
    const calls = [1, 2, 3].map(() => call(fx.client, 'list_console_messages', {pageId}));
    await waitFor(() => fx.engine.engine.hold.state().queue.length === 3, 10_000, 'three held');
    const order = fx.engine.engine.hold.state().queue.map(entry => entry.callId);
    const endedOrder: string[] = [];
    const stop = fx.engine.engine.hub.onEvent(({event}) => {
      if (event.type === 'callHoldEnded') {
        endedOrder.push(event.callId);
      }
    });
    const after = valueOf(await fx.engine.engine.handleCommand({type: 'holdAllowAll'}));
    stop();
    expect(after).toMatchObject({queue: []});
    expect(endedOrder).toEqual(order);
    for (const result of await Promise.all(calls)) {
      expect(result.isError, result.text).toBe(false);
    }
  });

  it('turned off with calls still held, Deny all denies each with the reason, oldest first', async () => {
    fx.engine.engine.hold.setRules(['tool:list_pages']);
    const calls = [1, 2].map(() => call(fx.client, 'list_pages'));
    await waitFor(() => fx.engine.engine.hold.state().queue.length === 2, 10_000, 'two held');
    const order = fx.engine.engine.hold.state().queue.map(entry => entry.callId);
    // Off: new calls run at once, and the two held ones still wait for a decision.
    const off = valueOf(await fx.engine.engine.handleCommand({type: 'holdSetRules', rules: []}));
    expect(off).toMatchObject({rules: [], queue: [{callId: order[0]}, {callId: order[1]}]});
    expect((await call(fx.client, 'list_pages')).isError).toBe(false);
    const ended: {callId: string; decision: string; reason?: string}[] = [];
    const stop = fx.engine.engine.hub.onEvent(({event}) => {
      if (event.type === 'callHoldEnded') {
        ended.push({callId: event.callId, decision: event.decision, reason: event.reason});
      }
    });
    const after = valueOf(
      await fx.engine.engine.handleCommand({type: 'holdDenyAll', reason: ' turned off '}),
    );
    stop();
    expect(after).toMatchObject({queue: []});
    expect(ended).toEqual(
      order.map(callId => ({callId, decision: 'denied', reason: 'turned off'})),
    );
    for (const result of await Promise.all(calls)) {
      expect(result.isError).toBe(true);
      expect(result.text.split('\n')[0]).toBe('Denied by the user: turned off');
    }
  });

  it('keeps the choice to open the Hold tab when a call is held, and says when it changes', async () => {
    const hold = fx.engine.engine.hold;
    expect(hold.state().openOnHeld).toBe(false);
    const before = events.length;
    const on = valueOf(
      await fx.engine.engine.handleCommand({type: 'holdSetOpenOnHeld', openOnHeld: true}),
    );
    expect(on.openOnHeld).toBe(true);
    // The same choice again changes nothing and says nothing.
    hold.setOpenOnHeld(true);
    hold.setOpenOnHeld(false);
    expect(events.slice(before).filter(event => event.type === 'holdOpenOnHeldChanged')).toEqual([
      {type: 'holdOpenOnHeldChanged', openOnHeld: true},
      {type: 'holdOpenOnHeldChanged', openOnHeld: false},
    ]);
  });

  it("never holds the inspector's own calls", async () => {
    fx.engine.engine.hold.setRules(['all']);
    const result = valueOf(
      await fx.engine.engine.handleCommand({
        type: 'runTool',
        tool: 'list_pages',
        args: {},
      }),
    );
    expect(result).toMatchObject({isError: false});
    expect(fx.engine.engine.hold.state().queue).toEqual([]);
  });

  it('holds execute_webmcp_tool for a consequential tool, or one not read-only by setting', async () => {
    const pageId = await fx.openPage('/webmcp/imperative.html');
    await waitFor(
      async () => (await call(fx.client, 'list_webmcp_tools', {pageId})).text.includes('buy_now'),
      10_000,
      'the WebMCP tools',
    );
    fx.engine.engine.hold.setRules(['webmcp-consequential']);
    const echo = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'echo',
      input: JSON.stringify({text: 'hi'}),
    });
    expect(echo.isError, echo.text).toBe(false);
    const pending = call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'buy_now',
      input: '{}',
    });
    const held = await heldOf('execute_webmcp_tool');
    expect(held.reason).toBe('the WebMCP tool buy_now is annotated consequential');
    fx.engine.engine.hold.decide(held.callId, 'deny', {reason: 'no purchases'});
    expect((await pending).text).toContain('Denied by the user: no purchases');

    // By setting: every WebMCP tool not annotated readOnly.
    fx.engine.engine.hold.setRules(['webmcp-not-read-only']);
    const add = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'add',
      input: JSON.stringify({a: 1, b: 2}),
    });
    expect(add.isError, add.text).toBe(false);
    const destruct = call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'self_destruct',
      input: '{}',
    });
    const heldDestruct = await heldOf('execute_webmcp_tool');
    expect(heldDestruct.reason).toBe('the WebMCP tool self_destruct is not annotated readOnly');
    fx.engine.engine.hold.decide(heldDestruct.callId, 'deny');
    expect((await destruct).text).toContain('Denied by the user: no reason given');
  });

  it('is driven over the inspector WebSocket, with the commands checked on the way in', async () => {
    const socket = await openInspectorSocket(fx.engine, {subscribe: false});
    const reply = (command: Record<string, unknown>) => socket.command(command, 5_000);
    try {
      expect(await reply({type: 'holdSetRules', rules: ['tool:list_pages']})).toMatchObject({
        reply: {ok: true, value: {rules: ['tool:list_pages'], queue: []}},
      });
      const pending = call(fx.client, 'list_pages');
      const held = await heldOf('list_pages');
      // A decision that is not one of allow / edit / deny never reaches the engine.
      expect(
        await reply({type: 'holdDecide', callId: held.callId, decision: 'maybe'}),
      ).toMatchObject({reply: {ok: false}});
      expect(fx.engine.engine.hold.state().queue).toHaveLength(1);
      expect(
        await reply({
          type: 'holdDecide',
          callId: held.callId,
          decision: 'deny',
          reason: 'via ws',
        }),
      ).toMatchObject({reply: {ok: true, value: {queue: []}}});
      expect((await pending).text).toContain('Denied by the user: via ws');
    } finally {
      socket.close();
    }
  });

  it('refuses a bad rule from the inspector and keeps the rules', async () => {
    fx.engine.engine.hold.setRules(['tool:click']);
    const result = await fx.engine.engine.handleCommand({type: 'holdSetRules', rules: ['clik']});
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain('Unknown hold rule "clik". Expected');
    const typo = await fx.engine.engine.handleCommand({type: 'holdSetRules', rules: ['tool:clik']});
    expect(typo.ok ? '' : typo.error).toContain('No tool named clik. Tools: ');
    expect(fx.engine.engine.hold.state().rules).toEqual(['tool:click']);
  });
});

describe('hold timeout', () => {
  const timed = useEngineWithFixtures({flags: ['--hold=all', '--holdTimeout=1']});

  it('denies a call nobody decided on, saying so', async () => {
    const started = Date.now();
    const result = await call(timed.client, 'list_pages');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      'Denied: the call was held for approval in the inspector and nobody decided within 1 s (--holdTimeout)',
    );
    expect(timed.engine.engine.hold.state().queue).toEqual([]);
  });
});
