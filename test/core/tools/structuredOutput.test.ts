/**
 * Structured output (outputSchema + structuredContent) of list_pages, evaluate_script,
 * list_console_messages, list_network_requests, list_webmcp_tools and execute_webmcp_tool, over a
 * real MCP client: each result validates against the schema the tool advertises (checked here with
 * the SDK's own validator, and by the SDK client itself on every call), carries the ids and key
 * fields the text shows, and the text content is still there.
 *
 * Tests: src/core/tools/base/outputSchemas.ts, src/core/mcp/render.ts
 */
import type {Tool} from '@modelcontextprotocol/sdk/types.js';
import {AjvJsonSchemaValidator} from '@modelcontextprotocol/sdk/validation/ajv';
import {beforeAll, describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalWebmcp'],
  clientName: 'structured-output-test',
});
const validator = new AjvJsonSchemaValidator();
let tools: Map<string, Tool>;

beforeAll(async () => {
  tools = new Map((await fx.client.listTools()).tools.map(tool => [tool.name, tool]));
});

/** Calls the tool, checks its structured result against its outputSchema, returns both forms. */
async function structured(
  name: string,
  args: Record<string, unknown>,
): Promise<{text: string; data: Record<string, unknown>}> {
  const schema = tools.get(name)?.outputSchema;
  expect(schema, `${name} advertises an outputSchema`).toBeDefined();
  const {text, isError, result} = await call(fx.client, name, args);
  expect(isError, text).toBe(false);
  const data = result.structuredContent;
  expect(data, `${name} returns structuredContent`).toBeDefined();
  const check = validator.getValidator(schema ?? {})(data);
  expect(check.valid, check.errorMessage).toBe(true);
  return {text, data: data ?? {}};
}

describe('structured output', () => {
  it('list_pages: every page with id, url, title and selection', async () => {
    const pageId = await fx.openPage('/index.html?structured');
    const {text, data} = await structured('list_pages', {});
    expect(text).toContain('## Pages');
    expect(data.pages).toContainEqual(
      expect.objectContaining({
        id: pageId,
        selected: true,
        url: fx.server.url('/index.html?structured'),
      }),
    );
  });

  it('evaluate_script: the JSON value itself', async () => {
    const pageId = await fx.openPage('/index.html?evaluate');
    const {text, data} = await structured('evaluate_script', {
      pageId,
      function: '() => ({answer: 42, list: [1, "two", null], nested: {ok: true}})',
    });
    expect(text).toContain('Script ran on page and returned:');
    expect(data).toEqual({result: {answer: 42, list: [1, 'two', null], nested: {ok: true}}});
    const scalar = await structured('evaluate_script', {pageId, function: '() => "plain"'});
    expect(scalar.data).toEqual({result: 'plain'});
  });

  it('evaluate_script of 8 MB: the text carries it whole, the structured copy is cut and marked', async () => {
    const pageId = await fx.openPage('/index.html?big');
    const chars = 8 * 1024 * 1024;
    const {text, data} = await structured('evaluate_script', {
      pageId,
      function: `() => 'z'.repeat(${chars})`,
    });
    expect(text).toContain(`"${'z'.repeat(chars)}"`);
    // Sent twice, it doubled the time every other client waited while the reply was written.
    expect(JSON.stringify(data).length).toBeLessThan(1.1 * 1024 * 1024);
    expect(String(data.result)).toMatch(/^z+\[… \d+ more characters\]$/);
  });

  it('list_console_messages: msgid, type and text of the messages shown', async () => {
    const pageId = await fx.openPage('/console-all.html');
    const {text, data} = await structured('list_console_messages', {pageId, pageSize: 5});
    const messages = data.messages;
    expect(Array.isArray(messages) ? messages.length : 0).toBe(5);
    expect(data.total).toBeGreaterThan(5);
    expect(messages).toContainEqual(
      expect.objectContaining({type: 'debug', text: 'debug message'}),
    );
    const list: unknown[] = Array.isArray(messages) ? messages : [];
    expect(list.every(item => typeof (item as {msgid?: unknown}).msgid === 'number')).toBe(true);
    for (const message of Array.isArray(messages) ? messages : []) {
      expect(text).toContain(`msgid=${String((message as {msgid: number}).msgid)} `);
    }
  });

  it('list_network_requests: reqid, method, full url and status', async () => {
    const pageId = await fx.openPage('/network-all.html');
    const {text, data} = await structured('list_network_requests', {pageId});
    const requests: unknown[] = Array.isArray(data.requests) ? data.requests : [];
    expect(requests[0]).toMatchObject({
      method: 'GET',
      url: fx.server.url('/network-all.html'),
      status: '200',
    });
    const first = requests[0];
    expect(typeof first === 'object' && first !== null ? Object.keys(first).sort() : []).toEqual([
      'method',
      'reqid',
      'status',
      'url',
    ]);
    for (const request of requests) {
      expect(text).toContain(`reqid=${String((request as {reqid: number}).reqid)} `);
    }
  });

  it('list_webmcp_tools and execute_webmcp_tool: the tools and the outcome', async () => {
    const pageId = await fx.openPage('/webmcp/imperative.html');
    const listed = await structured('list_webmcp_tools', {pageId});
    const listedTools: unknown[] = Array.isArray(listed.data.tools) ? listed.data.tools : [];
    const echo = listedTools.find(tool => (tool as {name?: unknown}).name === 'echo');
    expect(echo).toMatchObject({
      name: 'echo',
      description: 'Echoes the text back.',
      annotations: {readOnly: true, untrustedContent: true},
      mainFrame: true,
    });
    const ran = await structured('execute_webmcp_tool', {
      pageId,
      toolName: 'echo',
      input: JSON.stringify({text: 'hi'}),
    });
    expect(ran.text).toContain('"status": "Completed"');
    expect(ran.data).toMatchObject({status: 'Completed', output: {echo: 'hi'}});
    expect(typeof ran.data.invocationId).toBe('string');
    const failed = await structured('execute_webmcp_tool', {pageId, toolName: 'thrower'});
    expect(failed.data.status).toBe('Error');
    expect(String(failed.data.error)).toContain('boom from thrower');
  });

  it('the default tool set stays compact: the output schemas add under 1,000 characters', () => {
    const added = [...tools.values()]
      .filter(tool => tool.outputSchema !== undefined && !tool.name.includes('webmcp'))
      .reduce((sum, tool) => sum + JSON.stringify({outputSchema: tool.outputSchema}).length, 0);
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThan(1_000);
  });
});
