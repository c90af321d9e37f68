/**
 * The WebMCP panel's pure helpers (src/renderer/src/features/webmcp/webmcpDisplay.ts): grouping by page
 * and frame, chips, confirmation, invoker labels, output views and making hidden characters visible.
 *
 * Tests: src/renderer/src/features/webmcp/webmcpDisplay.ts
 */
import {describe, expect, it} from 'vitest';
import {
  annotationChips,
  groupTools,
  indexInvocations,
  invokerLabel,
  needsConfirmation,
  shownOutput,
  preview,
  revealInvisible,
  statusLabel,
  statusTone,
} from '../../../src/renderer/src/features/webmcp/webmcpDisplay.js';
import {cleanArgs, objectSchema} from '../../../src/renderer/src/ui/argumentsDraft.js';
import {webmcpInvocation, webmcpTool} from '../../renderer/fixtures.js';

const tool = webmcpTool;
const invocation = webmcpInvocation;

describe('webmcpDisplay', () => {
  it('groups every page, its frames main first, and filters by name or description', () => {
    const pages = [
      {id: 1, url: 'http://127.0.0.1/', title: 'One', selected: true},
      {id: 2, url: 'about:blank', title: '', selected: false},
    ];
    const tools = [
      tool({frameId: 'CHILD', frameUrl: 'http://localhost/f', mainFrame: false, name: 'child'}),
      tool({name: 'echo'}),
      tool({name: 'add', description: 'Adds numbers'}),
      tool({pageId: 3, name: 'orphan'}),
    ];
    const groups = groupTools(pages, tools, '');
    expect(groups.map(group => [group.pageId, group.toolCount])).toEqual([
      [1, 3],
      [2, 0],
      [3, 1],
    ]);
    expect(groups[0]?.frames.map(frame => [frame.frameId, frame.main])).toEqual([
      ['MAIN', true],
      ['CHILD', false],
    ]);
    const filtered = groupTools(pages, tools, 'NUMBERS');
    expect(filtered[0]?.frames.flatMap(frame => frame.tools.map(item => item.name))).toEqual([
      'add',
    ]);
  });

  it('has a chip per annotation, unknown ones included, and asks before risky tools', () => {
    const risky = tool({
      annotations: {
        consequential: true,
        untrustedContent: true,
        autosubmit: true,
        futureHint: true,
      },
      declarative: true,
    });
    expect(annotationChips(risky).map(chip => chip.label)).toEqual([
      'may change state',
      'untrusted output',
      'consequential',
      'autosubmit',
      'form',
      'futureHint',
    ]);
    expect(needsConfirmation(risky)).toBe(true);
    expect(needsConfirmation(tool({annotations: {readOnly: true}}))).toBe(false);
    expect(needsConfirmation(tool({annotations: {readOnly: true, consequential: true}}))).toBe(
      true,
    );
    expect(needsConfirmation(tool())).toBe(true);
  });

  it('names who invoked, and labels each status', () => {
    expect(invokerLabel(invocation())).toBe('This app');
    expect(invokerLabel(invocation({invoker: {kind: 'page'}}))).toBe('The page');
    expect(
      invokerLabel(
        invocation({
          invoker: {
            kind: 'mcp',
            client: {id: 'c', name: 'claude-code', version: '2.0', transport: 'http'},
          },
        }),
      ),
    ).toBe('MCP client claude-code 2.0');
    expect(statusLabel('TimedOut')).toBe('Timed out');
    expect(statusTone('Completed')).toBe('ok');
    expect(statusTone('Canceled')).toBe('cancelled');
    expect(statusTone('Interrupted')).toBe('error');
  });

  it('shows string output as text and the rest as indented JSON', () => {
    expect(shownOutput('"plain"')).toEqual({kind: 'text', text: 'plain'});
    expect(shownOutput('{"a":1}')).toEqual({kind: 'json', text: '{\n  "a": 1\n}'});
    expect(shownOutput('not json')).toEqual({kind: 'text', text: 'not json'});
    expect(shownOutput(undefined)).toBeUndefined();
  });

  it('makes bidi overrides and zero-width characters visible, and shortens previews', () => {
    expect(revealInvisible('a\u202Eb\u200Bc\uFEFF')).toBe('a⟨U+202E⟩b⟨U+200B⟩c⟨U+FEFF⟩');
    expect(revealInvisible('<b>plain</b>')).toBe('<b>plain</b>');
    expect(preview('x'.repeat(300))).toHaveLength(241);
    expect(preview('  two\n\nlines ')).toBe('two lines');
  });

  it('indexes the latest and running invocations per tool', () => {
    const {latest, running} = indexInvocations([
      invocation({invocationId: 'A', status: 'Completed'}),
      invocation({invocationId: 'B'}),
      invocation({invocationId: 'C', toolName: 'add', status: 'Error'}),
    ]);
    expect(latest.get('1|MAIN|echo')?.invocationId).toBe('B');
    expect(running.get('1|MAIN|echo')?.map(item => item.invocationId)).toEqual(['B']);
    expect(running.get('1|MAIN|add')).toBeUndefined();
  });

  it('builds an object schema for the form and drops empty inputs', () => {
    expect(objectSchema(tool().inputSchema)).toEqual({type: 'object'});
    expect(
      objectSchema(
        tool({inputSchema: {$schema: 'x', properties: {a: {type: 'string'}}}}).inputSchema,
      ),
    ).toEqual({
      type: 'object',
      properties: {a: {type: 'string'}},
    });
    expect(cleanArgs({a: '', b: undefined, c: 0, d: 'x'})).toEqual({c: 0, d: 'x'});
  });
});
