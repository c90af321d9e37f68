/**
 * The WebMCP doctor's authoring lint on a fixture page with one mistake of each kind, against real
 * Chromium: declarative forms without tooldescription (which the browser does not register) or
 * field descriptions, schemas without type, with misspelled keywords, requiring undefined fields,
 * untyped parameters, and a name registered by two frames. Each finding names its tool and the fix.
 *
 * Tests: src/shared/webmcpLint.ts, src/core/webmcp/doctor.ts
 */
import {describe, expect, it} from 'vitest';
import type {WebMcpLintFinding, WebMcpToolInfo} from '../../../src/shared/protocol.js';
import {lintTools} from '../../../src/shared/webmcpLint.js';
import {useEngineWithFixtures, waitFor} from '../../helpers/engine.js';

const fx = useEngineWithFixtures({clientName: 'authoring-lint-test'});

function codesOf(findings: readonly WebMcpLintFinding[], toolName: string): string[] {
  return findings.filter(finding => finding.toolName === toolName).map(finding => finding.code);
}

describe('authoring lint (doctor)', () => {
  it('lists each mistake per tool with its fix', async () => {
    const pageId = await fx.openPage('/webmcp/authoring-lint.html');
    const page = fx.engine.engine.browser.pages.byId(pageId);
    const {webmcp} = fx.engine.engine;
    await waitFor(
      async () => (await webmcp.toolsOf(page)).some(tool => tool.name === 'child_tool'),
      10_000,
      'the fixture tools',
    );
    const report = await webmcp.doctor(page);
    const lint = report.lint ?? [];

    const form = lint.filter(finding => finding.toolName === 'find_flight');
    expect(form.map(finding => finding.code)).toEqual([
      'form-no-tooldescription',
      'param-no-description',
    ]);
    expect(form[0]?.fix).toBe(
      'Add tooldescription="…" to the <form>, saying what submitting it does.',
    );
    expect(form[1]?.message).toBe('Form field "from" has no toolparamdescription.');
    // A complete form is clean.
    expect(codesOf(lint, 'book_room')).toEqual([]);

    expect(codesOf(lint, 'no_root_type')).toEqual(['schema-no-type']);
    const required = lint.find(finding => finding.toolName === 'required_missing');
    expect(required?.code).toBe('required-not-property');
    expect(required?.message).toContain('requires "b", which is not in its properties');
    expect(required?.fix).toBe('Add "b" to "properties", or remove it from "required".');

    const typos = lint.filter(finding => finding.toolName === 'typo_keywords');
    expect(typos.map(finding => finding.fix)).toEqual([
      'Did you mean "additionalProperties"? Rename "additionalProps" to "additionalProperties".',
      'Did you mean "description"? Rename "descripton" to "description".',
      'Add a "description" to "a" in inputSchema.properties.',
    ]);
    expect(codesOf(lint, 'param_untyped')).toEqual(['param-no-type', 'param-no-description']);

    const duplicates = lint.filter(
      finding => finding.toolName === 'shared_tool' && finding.code === 'duplicate-name',
    );
    expect(duplicates).toHaveLength(2);
    expect(duplicates.some(finding => finding.frameUrl?.includes('frame-tools.html'))).toBe(true);
    expect(duplicates[0]?.fix).toBe(
      'Give each frame’s tool its own name, or register the tool in one frame only.',
    );

    // Page text is quoted as data (JSON strings), never interpreted.
    const hostile = lint.find(finding => finding.toolName === 'hostile_text');
    expect(hostile?.message).toBe(
      'Parameter "<img src=x onerror=\\"window.pwned=2\\">" has no "type", so an agent has to guess what to send.',
    );
  });
});

describe('lintTools', () => {
  const base: WebMcpToolInfo = {
    pageId: 1,
    frameId: 'main',
    frameUrl: 'https://example.test/',
    origin: 'https://example.test',
    name: 'tool',
    description: 'Does things.',
    annotations: {},
    declarative: false,
    mainFrame: true,
  };

  it('finds nested problems, bounded per tool, and accepts x- extensions and keyword-free $ref', () => {
    const findings = lintTools([
      {
        ...base,
        description: ' ',
        inputSchema: {
          type: 'object',
          'x-internal': true,
          properties: {
            list: {
              type: 'array',
              description: 'Items',
              items: {properties: {deep: {type: 'string'}}},
            },
            ref: {$ref: '#/$defs/thing', description: 'Ref'},
            bad: 'not a schema',
          },
          required: 'list',
        },
      },
    ]);
    expect(findings.map(finding => finding.code)).toEqual([
      'no-description',
      'schema-invalid',
      'param-no-type',
      'param-no-description',
      'schema-invalid',
    ]);
    const many = lintTools([
      {
        ...base,
        inputSchema: {
          type: 'object',
          properties: Object.fromEntries(Array.from({length: 50}, (_, i) => [`p${i}`, {}])),
        },
      },
    ]);
    expect(many).toHaveLength(20);
  });

  it('stays bounded on a hostile, deeply nested schema', () => {
    let deep: Record<string, unknown> = {type: 'string'};
    for (let level = 0; level < 50_000; level++) {
      deep = {type: 'array', items: deep};
    }
    const findings = lintTools([{...base, inputSchema: {type: 'object', properties: {deep}}}]);
    expect(findings.length).toBeLessThanOrEqual(20);
  });
});
