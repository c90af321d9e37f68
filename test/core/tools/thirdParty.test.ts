/**
 * list_3p_developer_tools / execute_3p_developer_tool against real Chromium: the
 * devtoolstooldiscovery protocol, debugging WebMCP tools, element uids in and out, schema
 * validation and self-healing errors.
 */
import {beforeAll, describe, expect, it} from 'vitest';
import {z} from 'zod';
import {replaceHtmlElementsWithUids} from '../../../src/core/webmcp/thirdParty.js';
import {call, pageIdFrom, useEngineWithFixtures} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({
  flags: ['--categoryExperimentalThirdParty', '--categoryExperimentalWebmcp'],
  clientName: 'third-party-test',
});
let pageId: number;

beforeAll(async () => {
  const {text} = await call(fx.client, 'new_page', {
    url: fx.server.url('/webmcp/devtools-tools.html'),
  });
  pageId = pageIdFrom(text, 'devtools-tools.html');
});

describe('replaceHtmlElementsWithUids', () => {
  it('rewrites element parameters, nested ones included', () => {
    const schema = {
      type: 'object',
      properties: {
        target: {'x-mcp-type': 'HTMLElement'},
        list: {type: 'array', items: {'x-mcp-type': 'HTMLElement'}},
        either: {anyOf: [{type: 'string'}, {'x-mcp-type': 'HTMLElement'}]},
      },
    };
    replaceHtmlElementsWithUids(schema);
    const element = {
      'x-mcp-type': 'HTMLElement',
      properties: {uid: {type: 'string'}},
      required: ['uid'],
    };
    expect(schema.properties.target).toEqual(element);
    expect(schema.properties.list.items).toEqual(element);
    expect(schema.properties.either.anyOf[1]).toEqual(element);
  });
});

describe('list_3p_developer_tools', () => {
  it('lists the debugging WebMCP tools and the event groups, in the peer format', async () => {
    const {text, isError} = await call(fx.client, 'list_3p_developer_tools', {pageId});
    expect(isError).toBe(false);
    expect(text).toContain(
      '## Third-party developer tools\nWebMCP Tools: Tools exposed via WebMCP\nAvailable tools:\nname="debug_dump", description="Dumps internal state (for developer tools).", inputSchema={"type":"object","properties":{"key":{"type":"string"}}}\nApp state: Inspect the app\nAvailable tools:\nname="get_state"',
    );
    expect(text).toContain(
      'name="describe_element", description="Describes an element.", inputSchema={"type":"object","properties":{"element":{"x-mcp-type":"HTMLElement","description":"The element","properties":{"uid":{"type":"string"}},"required":["uid"]}},"required":["element"]}',
    );
    // Debugging tools stay out of the ordinary WebMCP list.
    const webmcp = await call(fx.client, 'list_webmcp_tools', {pageId});
    expect(webmcp.text).toContain('name="public_tool"');
    expect(webmcp.text).not.toContain('debug_dump');
  });

  it('says how a page exposes tools when it has none', async () => {
    const {text} = await call(fx.client, 'new_page', {url: fx.server.url('/index.html')});
    const plain = pageIdFrom(text, '/index.html');
    const listed = await call(fx.client, 'list_3p_developer_tools', {pageId: plain});
    expect(listed.text).toContain('No third-party developer tools available.');
    expect(listed.text).toContain('devtoolstooldiscovery');
    await call(fx.client, 'select_page', {pageId});
  });

  it('adds the section after navigation when the category is on', async () => {
    const {text} = await call(fx.client, 'navigate_page', {pageId, type: 'reload'});
    expect(text).toContain('## Third-party developer tools');
    expect(text.indexOf('## Third-party developer tools')).toBeLessThan(
      text.indexOf('## WebMCP tools'),
    );
  });
});

describe('execute_3p_developer_tool', () => {
  it('runs an event tool and makes the result JSON-safe', async () => {
    const {text, isError} = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'get_state',
      params: '{"verbose":true}',
    });
    expect(isError, text).toBe(false);
    expect(JSON.parse(text)).toEqual({
      user: 'ada',
      verbose: true,
      when: '<Date instance>',
      fn: '<Function object>',
      big: '10n',
    });
  });

  it('runs a debugging WebMCP tool through the WebMCP domain', async () => {
    const {text} = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'debug_dump',
      params: '{"key":"k"}',
    });
    expect(JSON.parse(text)).toEqual({key: 'k', value: 42});
  });

  it('passes elements by uid and returns elements as uids with a snapshot', async () => {
    const snapshot = await call(fx.client, 'take_snapshot', {pageId});
    const saveUid = /^ *(\d+) button "Save"/m.exec(snapshot.text)?.[1];
    expect(saveUid).toBeDefined();
    const described = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'describe_element',
      params: JSON.stringify({element: {uid: saveUid}}),
    });
    expect(JSON.parse(described.text)).toEqual({tag: 'BUTTON', text: 'Save'});

    const found = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'find_buttons',
    });
    expect(found.isError, found.text).toBe(false);
    const jsonEnd = found.text.indexOf('\n}') + 2;
    const result = z
      .object({buttons: z.array(z.object({uid: z.string()})), div: z.object({uid: z.string()})})
      .parse(JSON.parse(found.text.slice(0, jsonEnd)));
    expect(result.buttons.map(button => button.uid)[0]).toBe(saveUid);
    expect(result.buttons).toHaveLength(2);
    expect(result.div.uid).toMatch(/^\d+$/);
    // The plain div is only in the verbose snapshot, which the response then carries.
    expect(found.text).toMatch(new RegExp(`^ *${result.div.uid} generic`, 'm'));
    expect(found.text).toContain('## Latest page snapshot');
    expect(found.text).toMatch(new RegExp(`^ *${saveUid} button "Save"`, 'm'));
  });

  it('validates params against the schema and says what is wrong', async () => {
    const invalid = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'set_count',
      params: '{"count":"three"}',
    });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(
      /Error: Invalid parameters for tool set_count: count: .*integer.*Its input schema: \{"type":"object"/,
    );

    const bad = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'set_count',
      params: 'nope',
    });
    expect(bad.text).toMatch(
      /Failed to parse params as JSON: .*Pass params as a JSON object in a string/,
    );

    const thrown = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'set_count',
      params: '{"count":101}',
    });
    expect(thrown.isError).toBe(true);
    expect(thrown.text).toContain('Error: count too large');
  });

  it('names the available tools when the tool is unknown', async () => {
    const {text, isError} = await call(fx.client, 'execute_3p_developer_tool', {
      pageId,
      toolName: 'nope',
    });
    expect(isError).toBe(true);
    expect(text).toContain(
      'Tool nope not found. Available tools: debug_dump, get_state, describe_element, find_buttons, set_count. Call list_3p_developer_tools to see them.',
    );
  });

  it('keeps window.__dtmcp.executeTool for evaluate_script', async () => {
    const {text} = await call(fx.client, 'evaluate_script', {
      pageId,
      function: "async () => (await window.__dtmcp.executeTool('set_count', {count: 7})).count",
    });
    expect(text).toContain('7');
  });
});
