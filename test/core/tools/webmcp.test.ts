/**
 * list_webmcp_tools / execute_webmcp_tool over a real MCP client against real Chromium: the peer's
 * names, parameters and output, plus frame choice, timeout, the client's cancel reaching the page,
 * self-healing errors, and the "## WebMCP tools" section after navigation.
 */
import {beforeAll, describe, expect, it} from 'vitest';
import {DEFAULT_EXECUTE_TIMEOUT_MS} from '../../../src/core/tools/webmcp.js';
import type {WebMcpInvocation} from '../../../src/shared/protocol.js';
import {
  call,
  callError,
  startEngine,
  useEngineWithFixtures,
  waitFor,
} from '../../helpers/engine.js';
import {boundUnder} from '../../helpers/loadFactor.js';

const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalWebmcp'],
  clientName: 'webmcp-tools-test',
});
let pageId: number;

beforeAll(async () => {
  pageId = await fx.openPage('/webmcp/imperative.html');
});

function parseResult(text: string): {status: string; output?: unknown; error?: unknown} {
  const start = text.indexOf('{');
  const parsed: unknown = JSON.parse(text.slice(start, text.lastIndexOf('}') + 1));
  if (parsed === null || typeof parsed !== 'object' || !('status' in parsed)) {
    throw new Error(`not a result: ${text}`);
  }
  return {
    status: String(parsed.status),
    ...('output' in parsed ? {output: parsed.output} : {}),
    ...('error' in parsed ? {error: parsed.error} : {}),
  };
}

describe('category', () => {
  it('is off by default and says how to turn it on', async () => {
    const plain = await startEngine();
    try {
      const other = await plain.connect();
      const listed = await other.listTools();
      expect(listed.tools.map(tool => tool.name)).not.toContain('list_webmcp_tools');
      const refused = await callError(other, 'list_webmcp_tools', {pageId: 1});
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain('--categoryExperimentalWebmcp');
    } finally {
      await plain.stop();
    }
  });

  it('advertises the peer schema plus the optional frameId and timeout', async () => {
    const {tools} = await fx.client.listTools();
    const execute = tools.find(tool => tool.name === 'execute_webmcp_tool');
    expect(execute?.inputSchema.required).toEqual(['pageId', 'toolName']);
    expect(Object.keys(execute?.inputSchema.properties ?? {})).toEqual([
      'pageId',
      'toolName',
      'input',
      'frameId',
      'timeout',
    ]);
    expect(execute?.annotations?.readOnlyHint).toBe(false);
    const list = tools.find(tool => tool.name === 'list_webmcp_tools');
    expect(list?.annotations?.readOnlyHint).toBe(true);
    expect(list?.description).toBe(
      "Lists all WebMCP tools the page exposes (excluding debugging tools, which are exposed via 'list_3p_developer_tools').",
    );
  });
});

describe('list_webmcp_tools', () => {
  it('lists the tools in the peer format', async () => {
    const {text, isError} = await call(fx.client, 'list_webmcp_tools', {pageId});
    expect(isError).toBe(false);
    expect(text).toContain('## WebMCP tools');
    expect(text).toContain(
      'name="echo", description="Echoes the text back.", inputSchema={"type":"object","properties":{"text":{"type":"string","description":"Text to echo"}},"required":["text"]}, annotations={"readOnly":true,"untrustedContent":true,"consequential":false,"debugging":false}',
    );
    expect(text).toMatch(
      /^name="thrower", description="Always throws\.", inputSchema=\{\}, annotations=\{\}$/m,
    );
  });

  it('says so when a page has none', async () => {
    const blank = await fx.openPage('/index.html');
    const {text} = await call(fx.client, 'list_webmcp_tools', {pageId: blank});
    expect(text).toContain('## WebMCP tools\nNo WebMCP tools available.');
  });

  it('adds the frame for iframe tools', async () => {
    const framed = await fx.openPage('/webmcp/iframes.html');
    await waitFor(async () => {
      const {text} = await call(fx.client, 'list_webmcp_tools', {pageId: framed});
      return text.includes('allowed_tool');
    }, 15_000);
    const {text} = await call(fx.client, 'list_webmcp_tools', {pageId: framed});
    expect(text).toMatch(
      /name="allowed_tool".*, frameId="[0-9A-F]+", frameUrl="http:\/\/localhost:\d+\/webmcp\/frame-tools\.html\?label=allowed"/,
    );
  });
});

describe('execute_webmcp_tool', () => {
  it('returns status, output and error as JSON', async () => {
    const {text, isError} = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'echo',
      input: '{"text":"hello"}',
    });
    expect(isError).toBe(false);
    expect(parseResult(text)).toEqual({status: 'Completed', output: {echo: 'hello'}});
    expect(text).toContain(
      '{\n  "status": "Completed",\n  "output": {\n    "echo": "hello"\n  }\n}',
    );

    const thrown = parseResult(
      (await call(fx.client, 'execute_webmcp_tool', {pageId, toolName: 'thrower'})).text,
    );
    expect(thrown.status).toBe('Error');
    expect(String(thrown.error)).toContain('Error: boom from thrower');
  });

  it('records the MCP client as the invoker', async () => {
    await call(fx.client, 'execute_webmcp_tool', {pageId, toolName: 'add', input: '{"a":2,"b":3}'});
    const invocation = fx.engine.engine.webmcp
      .invocations()
      .findLast(candidate => candidate.toolName === 'add');
    expect(invocation?.output).toBe('5');
    expect(invocation?.invoker).toMatchObject({
      kind: 'mcp',
      client: {name: 'webmcp-tools-test', transport: 'http'},
    });
  });

  it('answers invalid JSON with the fix and the tool schema', async () => {
    const {text, isError} = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'echo',
      input: "{text: 'hi'}",
    });
    expect(isError).toBe(true);
    expect(text).toMatch(
      /Error: Failed to parse input as JSON: .*Pass input as a JSON object in a string/,
    );
    expect(text).toContain('The input schema of echo: {"type":"object"');

    const array = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'echo',
      input: '[1]',
    });
    expect(array.text).toContain('Failed to parse input as JSON: Parsed input is not an object.');
  });

  it('names the available tools when the tool is unknown', async () => {
    const {text, isError} = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'nope',
    });
    expect(isError).toBe(true);
    expect(text).toMatch(
      /Error: Tool nope not found\. Available tools: echo, add, thrower, .*\. Call list_webmcp_tools to see them\./,
    );
  });

  it('asks for frameId when frames share a name, and uses it', async () => {
    const framed = await fx.openPage('/webmcp/iframes.html?execute');
    await waitFor(async () => {
      const {text} = await call(fx.client, 'list_webmcp_tools', {pageId: framed});
      return text.includes('allowed_tool');
    }, 15_000);
    const ambiguous = await call(fx.client, 'execute_webmcp_tool', {
      pageId: framed,
      toolName: 'shared_tool',
    });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toMatch(
      /Tool shared_tool is registered by 3 frames: frameId="[0-9A-F]+" \(http:.*\), .*Pass frameId to choose one\./,
    );
    const frameId = /frameId="([0-9A-F]+)" \(http:\/\/localhost/.exec(ambiguous.text)?.[1];
    expect(frameId).toBeDefined();
    const chosen = await call(fx.client, 'execute_webmcp_tool', {
      pageId: framed,
      toolName: 'shared_tool',
      frameId,
    });
    expect(parseResult(chosen.text)).toEqual({status: 'Completed', output: 'from allowed'});
  });

  it('cancels the tool after the timeout', async () => {
    const started = Date.now();
    const {text} = await call(fx.client, 'execute_webmcp_tool', {
      pageId,
      toolName: 'slow',
      timeout: 300,
    });
    expect(parseResult(text)).toEqual({
      status: 'Canceled',
      error: 'Timed out after 300 ms; the tool was cancelled.',
    });
    // Ended by its own 300 ms, not by the default timeout it would otherwise wait out.
    expect(Date.now() - started).toBeLessThan(
      boundUnder(DEFAULT_EXECUTE_TIMEOUT_MS / 2, DEFAULT_EXECUTE_TIMEOUT_MS),
    );
  });

  it("cancels the page's invocation when the MCP client cancels the call", async () => {
    const controller = new AbortController();
    const before = new Set(fx.engine.engine.webmcp.invocations().map(i => i.invocationId));
    const pending = fx.client.callTool(
      {name: 'execute_webmcp_tool', arguments: {pageId, toolName: 'slow'}},
      undefined,
      {signal: controller.signal},
    );
    const running = await waitFor(() =>
      fx.engine.engine.webmcp
        .invocations()
        .find(i => !before.has(i.invocationId) && i.toolName === 'slow' && i.status === 'running'),
    );
    controller.abort();
    await expect(pending).rejects.toThrow();
    const ended = await waitFor((): WebMcpInvocation | undefined => {
      const now = fx.engine.engine.webmcp.invocation(running.invocationId);
      return now?.status === 'running' ? undefined : now;
    });
    expect(ended).toMatchObject({
      status: 'Canceled',
      errorText: 'The MCP client cancelled the call.',
      invoker: {kind: 'mcp'},
    });
    // The page saw the cancel.
    const {text} = await call(fx.client, 'evaluate_script', {
      pageId,
      function: '() => window.cancelEvents.length',
    });
    expect(text).toMatch(/[1-9]/);
  });
});

describe('## WebMCP tools section', () => {
  it('follows navigate_page and list_pages while the category is on', async () => {
    const navigated = await call(fx.client, 'navigate_page', {
      pageId,
      url: fx.server.url('/webmcp/declarative.html'),
    });
    expect(navigated.text).toContain('## WebMCP tools\nname="reserve_table"');
    const pages = await call(fx.client, 'list_pages');
    expect(pages.text).toContain('## WebMCP tools');

    fx.engine.engine.catalog.setCategoryEnabled('experimentalWebmcp', false);
    try {
      const off = await call(fx.client, 'navigate_page', {pageId, type: 'reload'});
      expect(off.isError).toBe(false);
      expect(off.text).not.toContain('## WebMCP tools');
    } finally {
      fx.engine.engine.catalog.setCategoryEnabled('experimentalWebmcp', true);
    }
  });
});
