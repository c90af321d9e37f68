/**
 * --isolateClients and the pages' WebMCP tools, with two real MCP clients over HTTP: each client
 * is offered only its own page's tools — in tools/list, in notifications/tools/list_changed, in the
 * tools an unknown-tool error lists, and in list_webmcp_tools — never another client's names,
 * descriptions or origin, whichever of them selected a page last.
 *
 * Tests: src/core/browser/pages/ClientPages.ts, src/core/tools/webmcp.ts,
 *   src/core/webmcp/WebMcpService.ts
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {ToolListChangedNotificationSchema, type Tool} from '@modelcontextprotocol/sdk/types.js';
import {beforeAll, describe, expect, it} from 'vitest';
import {call, callError, useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  flags: ['--isolateClients', '--webmcpTools', '--categoryExperimentalWebmcp'],
  clientName: 'setup',
  routes: server => {
    server.html(
      '/alice-tools.html',
      `<!doctype html><title>Alice</title><script>
        window.addTool = name => document.modelContext.registerTool({
          name, description: 'Alice secret ' + name, annotations: {readOnlyHint: true},
          execute: async () => name + ' ran',
        });
        window.addTool('alice_orders');
      </script>`,
    );
    server.html(
      '/bob-tools.html',
      `<!doctype html><title>Bob</title><script>
        window.addTool = name => document.modelContext.registerTool({
          name, description: 'Bob tool ' + name, annotations: {readOnlyHint: true},
          execute: async () => name + ' ran',
        });
        window.addTool('bob_search');
      </script>`,
    );
  },
});

let alice: Client;
let bob: Client;
const listChanges = {alice: 0, bob: 0};

async function webmcpToolsOf(client: Client): Promise<Tool[]> {
  const {tools} = await client.listTools();
  return tools.filter(tool => tool.name.startsWith('webmcp_'));
}

async function waitForTools(client: Client, name: string): Promise<Tool[]> {
  return waitFor(
    async () => {
      const tools = await webmcpToolsOf(client);
      return tools.some(tool => tool.name === name) ? tools : undefined;
    },
    15_000,
    `${name} in tools/list`,
  );
}

async function opened(client: Client, url: string): Promise<number> {
  const reply = await call(client, 'new_page', {url});
  expect(reply.isError, reply.text).toBe(false);
  return Number(/^Opened page (\d+)\.$/m.exec(reply.text)?.[1]);
}

/** Nothing of Alice's page in a text Bob gets. */
function expectNothingOfAlice(text: string): void {
  expect(text).not.toContain('alice_orders');
  expect(text).not.toContain('Alice secret');
  expect(text).not.toContain('alice_new');
}

let alicePage = 0;
let bobPage = 0;

beforeAll(async () => {
  alice = await fx.engine.connect('alice');
  bob = await fx.engine.connect('bob');
  alice.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanges.alice++;
  });
  bob.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanges.bob++;
  });
  bobPage = await opened(bob, fx.server.url('/bob-tools.html'));
  // Alice moves her selection last (from her first page to the one with tools): the tools
  // offered to everyone followed the last selection that moved.
  await opened(alice, fx.server.url('/index.html?alice-first'));
  alicePage = await opened(alice, fx.server.url('/alice-tools.html'));
  await waitForTools(alice, 'webmcp_alice_orders');
});

describe('WebMCP tools under --isolateClients', () => {
  it("offers each client its own page's tools only, in tools/list", async () => {
    // Alice's tools are offered (to her) now: none of them reaches Bob.
    expectNothingOfAlice(JSON.stringify(await webmcpToolsOf(bob)));
    const bobTools = await waitForTools(bob, 'webmcp_bob_search');
    expect(bobTools.map(tool => tool.name)).toEqual(['webmcp_bob_search']);
    expectNothingOfAlice(JSON.stringify(bobTools));
    expect(JSON.stringify(bobTools)).not.toContain(`page ${alicePage}`);
    const aliceTools = await webmcpToolsOf(alice);
    expect(aliceTools.map(tool => tool.name)).toEqual(['webmcp_alice_orders']);
    expect(JSON.stringify(aliceTools)).not.toContain('bob_search');
  });

  it("tells only the page's own client that its tools changed", async () => {
    listChanges.alice = 0;
    listChanges.bob = 0;
    const added = await call(alice, 'evaluate_script', {
      pageId: alicePage,
      function: "() => { window.addTool('alice_new'); return 'added'; }",
    });
    expect(added.text).toContain('"added"');
    await waitFor(() => listChanges.alice > 0, 15_000, "Alice's list_changed");
    await waitForTools(alice, 'webmcp_alice_new');
    // Bob's stream is answered after Alice's notification went out: nothing came for him.
    expectNothingOfAlice(JSON.stringify(await webmcpToolsOf(bob)));
    expect(listChanges.bob).toBe(0);

    const bobAdded = await call(bob, 'evaluate_script', {
      pageId: bobPage,
      function: "() => { window.addTool('bob_new'); return 'added'; }",
    });
    expect(bobAdded.text).toContain('"added"');
    await waitFor(() => listChanges.bob > 0, 15_000, "Bob's list_changed");
    await waitForTools(bob, 'webmcp_bob_new');
    expect((await webmcpToolsOf(alice)).map(tool => tool.name)).not.toContain('webmcp_bob_new');
  });

  it("answers another client's WebMCP tool as unknown, listing only the caller's tools", async () => {
    // An unknown tool is a JSON-RPC error (-32602), as the specification says.
    const refused = await callError(bob, 'webmcp_alice_orders', {});
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain('Unknown tool "webmcp_alice_orders"');
    expect(refused.message).toContain('webmcp_bob_search');
    // Only the name Bob asked for; no tool of Alice's is listed.
    expect(refused.message.replaceAll('webmcp_alice_orders', '')).not.toContain('alice');
    const own = await call(bob, 'webmcp_bob_search', {});
    expect(own.isError, own.text).toBe(false);
    expect(own.text).toContain('bob_search ran');
  });

  it("lists only the caller's own page in list_webmcp_tools", async () => {
    const own = await call(bob, 'list_webmcp_tools', {pageId: bobPage});
    expect(own.isError, own.text).toBe(false);
    expect(own.text).toContain('bob_search');
    expectNothingOfAlice(own.text);
    const other = await call(bob, 'list_webmcp_tools', {pageId: alicePage});
    expect(other.isError).toBe(true);
    expect(other.text).toContain(`No page with id ${alicePage}`);
    expectNothingOfAlice(other.text);
    const listed = await call(bob, 'list_pages');
    expectNothingOfAlice(listed.text);
  });
});
