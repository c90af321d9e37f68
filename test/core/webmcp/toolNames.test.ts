/**
 * Names and definitions of page WebMCP tools offered as MCP tools: characters and length every
 * client accepts, collisions across frames resolved visibly and stably, and page schemas made
 * valid for MCP clients whatever the page sends.
 */
import {ToolSchema} from '@modelcontextprotocol/sdk/types.js';
import {describe, expect, it} from 'vitest';
import {mcpInputSchema} from '../../../src/core/webmcp/toolDefinition.js';
import {MAX_TOOL_NAME, WebMcpToolNames, baseName} from '../../../src/core/webmcp/toolNames.js';

describe('WebMcpToolNames', () => {
  it('keeps letters, digits, _ and -, and cuts at the common 64-character limit', () => {
    expect(baseName('search.products')).toBe('webmcp_search_products');
    expect(baseName('найти')).toBe('webmcp______');
    expect(baseName('')).toBe('webmcp__');
    expect(baseName('x'.repeat(200))).toHaveLength(MAX_TOOL_NAME);
  });

  it('gives the first holder the plain name and others a frame suffix, stably', () => {
    const book = new WebMcpToolNames('main');
    const first = book.assign([
      {frameId: 'main', name: 'search'},
      {frameId: 'child', name: 'search'},
      {frameId: 'other', name: 'search'},
    ]);
    expect(first.map(item => item.mcpName)).toEqual([
      'webmcp_search',
      'webmcp_search__frame2',
      'webmcp_search__frame3',
    ]);
    // The main frame's tool goes: the others keep their names.
    const without = book.assign([
      {frameId: 'child', name: 'search'},
      {frameId: 'other', name: 'search'},
    ]);
    expect(without.map(item => item.mcpName)).toEqual([
      'webmcp_search__frame2',
      'webmcp_search__frame3',
    ]);
    // …and when it comes back it gets its old name back.
    const back = book.assign([
      {frameId: 'main', name: 'search'},
      {frameId: 'child', name: 'search'},
    ]);
    expect(back.map(item => item.mcpName)).toEqual(['webmcp_search', 'webmcp_search__frame2']);
    expect(back[1]?.frameNumber).toBe(2);
  });

  it('separates names that differ only in characters an MCP name cannot hold', () => {
    const book = new WebMcpToolNames('main');
    const names = book.assign([
      {frameId: 'main', name: 'a.b'},
      {frameId: 'main', name: 'a b'},
      {frameId: 'main', name: 'a_b'},
    ]);
    expect(new Set(names.map(item => item.mcpName)).size).toBe(3);
    for (const {mcpName} of names) {
      expect(mcpName).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
  });
});

describe('mcpInputSchema', () => {
  const valid = (schema: Record<string, unknown>): boolean =>
    ToolSchema.safeParse({name: 'webmcp_x', inputSchema: schema}).success;

  it('passes a good schema through unchanged', () => {
    const raw = {type: 'object', properties: {q: {type: 'string'}}, required: ['q']};
    expect(mcpInputSchema(raw)).toEqual({schema: raw, note: undefined});
  });

  it('repairs what would make a client reject the whole list, and says so', () => {
    const hostile: Record<string, unknown>[] = [
      {type: 'string'},
      {properties: 'nope'},
      {type: 'object', properties: {a: 1, b: {type: 'number'}}},
      {type: 'object', required: ['a', 3, null]},
      {type: 'object', required: 'a'},
    ];
    for (const raw of hostile) {
      const {schema, note} = mcpInputSchema(raw);
      expect(valid(schema), JSON.stringify(raw)).toBe(true);
      expect(note, JSON.stringify(raw)).toMatch(/^Schema fixed for MCP: /);
    }
    expect(mcpInputSchema(undefined).schema).toEqual({type: 'object', properties: {}});
  });

  it('leaves out a huge schema and points to list_webmcp_tools', () => {
    const properties = Object.fromEntries(
      Array.from({length: 2_000}, (_, index) => [`p${index}`, {type: 'string'}]),
    );
    const {schema, note} = mcpInputSchema({type: 'object', properties});
    expect(schema).toEqual({type: 'object'});
    expect(note).toContain('list_webmcp_tools');
  });
});
