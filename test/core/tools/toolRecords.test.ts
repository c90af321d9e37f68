/**
 * What the tool records declare for everything beyond the call itself: where each tool takes
 * element uids (recording, a hold's outline, replay, telemetry read that, never argument names),
 * and the Playwright export's entry for every tool (a step writer, or why it has none). A new page
 * tool with an element parameter needs nothing outside its own file for its elements to be
 * recorded, outlined, replayed and kept out of telemetry.
 *
 * Tests: src/core/tools/index.ts, src/core/tools/base/definition.ts,
 *   src/core/tools/base/paramShapes.ts
 */
import {describe, expect, it} from 'vitest';
import {z} from 'zod';
import {elementArguments, ITEMS, withElementArgument} from '../../../src/shared/elementParams.js';
import {targetUidOf} from '../../../src/core/mcp/hold/heldTarget.js';
import {PLAYWRIGHT_STEPS} from '../../../src/core/recordings/export/steps.js';
import {sanitizeParams} from '../../../src/core/telemetry/sanitize.js';
import {definePageTool} from '../../../src/core/tools/base/definition.js';
import {allTools} from '../../../src/core/tools/index.js';
import {uidString} from '../../../src/core/tools/base/paramShapes.js';

const tools = allTools().tools;
const byName = new Map(tools.map(tool => [tool.name, tool]));

describe('element parameters', () => {
  it('are where the records put uidString, in arrays and objects too', () => {
    const paths = Object.fromEntries(
      tools
        .filter(tool => tool.elementPaths.length > 0)
        .map(tool => [tool.name, tool.elementPaths]),
    );
    expect(paths).toEqual({
      take_snapshot: [['uid']],
      take_screenshot: [['uid']],
      evaluate_script: [['args', ITEMS]],
      click: [['uid']],
      hover: [['uid']],
      fill: [['uid']],
      fill_form: [['elements', ITEMS, 'uid']],
      drag: [['from_uid'], ['to_uid']],
      upload_file: [['uid']],
      get_css_styles: [['uid']],
    });
  });

  it('every parameter named like a uid is declared as one (a uid typed z.string() is a mistake)', () => {
    for (const tool of tools) {
      for (const name of tool.paramNames) {
        if (name === 'uid' || name.endsWith('_uid')) {
          expect(tool.elementPaths, `${tool.name}.${name}`).toContainEqual([name]);
        }
      }
    }
  });

  it('name each uid of a call by its place, and set one there for a replay', () => {
    const fillForm = byName.get('fill_form');
    const args = {
      elements: [
        {uid: '3', value: 'a'},
        {uid: '7', value: 'b'},
      ],
      includeSnapshot: true,
    };
    const paths = fillForm?.elementPaths ?? [];
    expect(elementArguments(paths, args)).toEqual([
      {param: 'elements[0].uid', uid: '3'},
      {param: 'elements[1].uid', uid: '7'},
    ]);
    expect(withElementArgument(paths, args, 'elements[1].uid', '42')).toEqual({
      elements: [
        {uid: '3', value: 'a'},
        {uid: '42', value: 'b'},
      ],
      includeSnapshot: true,
    });
    // The recorded argument is left as it was.
    expect(args.elements[1]?.uid).toBe('7');
    // A place the tool takes no uid at (its parameters changed since the recording).
    expect(withElementArgument(paths, args, 'uid', '42')).toBeUndefined();
    expect(withElementArgument(paths, args, 'elements[5].uid', '42')).toBeUndefined();

    const script = byName.get('evaluate_script')?.elementPaths ?? [];
    expect(elementArguments(script, {function: '(a, b) => 1', args: ['1', '2']})).toEqual([
      {param: 'args[0]', uid: '1'},
      {param: 'args[1]', uid: '2'},
    ]);
    expect(withElementArgument(script, {args: ['1', '2']}, 'args[1]', '9')).toEqual({
      args: ['1', '9'],
    });
  });

  it('a new page-scoped tool with one uid parameter is recorded, outlined and kept out of telemetry by its record alone', () => {
    const highlight = definePageTool({
      name: 'highlight_element',
      description: 'Outline an element.',
      category: 'input',
      readOnly: false,
      schema: {target_uid: uidString('Element uid.'), color: z.string().optional()},
      handler: () => Promise.resolve(),
    });
    expect(highlight.elementPaths).toEqual([['target_uid']]);
    const args = {target_uid: '12', color: 'red'};
    expect(elementArguments(highlight.elementPaths, args)).toEqual([
      {param: 'target_uid', uid: '12'},
    ]);
    expect(targetUidOf(highlight, args)).toEqual({param: 'target_uid', uid: '12'});
    expect(sanitizeParams(args, highlight.paramKinds)).toEqual({color_length: 5});
    // A number for a uid is taken as its digits, as for every uid parameter.
    const checked = highlight.validate({target_uid: 12}, {pageIdRouting: false});
    expect(checked.ok && checked.params).toEqual({target_uid: '12'});
  });

  it('a hold outlines the first element a call names, whichever parameter holds it', () => {
    const drag = byName.get('drag');
    const fillForm = byName.get('fill_form');
    expect(drag && targetUidOf(drag, {from_uid: ' ', to_uid: '5'})).toEqual({
      param: 'to_uid',
      uid: '5',
    });
    expect(fillForm && targetUidOf(fillForm, {elements: [{uid: '4', value: 'x'}]})).toEqual({
      param: 'elements[0].uid',
      uid: '4',
    });
    const click = byName.get('click');
    expect(click && targetUidOf(click, {})).toBeUndefined();
  });
});

describe('the Playwright export', () => {
  it('has an entry for every tool (a writer or the reason there is none) and none for a tool that is gone', () => {
    const entries = new Set(Object.keys(PLAYWRIGHT_STEPS));
    const names = new Set(tools.map(tool => tool.name));
    expect([...names].filter(name => !entries.has(name))).toEqual([]);
    expect([...entries].filter(name => !names.has(name))).toEqual([]);
    for (const [name, entry] of Object.entries(PLAYWRIGHT_STEPS)) {
      if (typeof entry !== 'function' && 'notExported' in entry) {
        expect(entry.notExported, name).toMatch(/\w{3,}/);
      }
    }
  });
});
