/**
 * The one line a Log row says about a call: built from its arguments and the elements it resolved
 * when it ran, one line whatever the client sent, cut where it runs long.
 */
import {describe, expect, it} from 'vitest';
import {describeCall} from '../../src/shared/callSummary.js';
import type {RecordedElement} from '../../src/shared/protocol.js';

function element(param: string, uid: string, role: string, name: string): RecordedElement {
  return {param, uid, role, name, ancestry: [], nth: 0};
}

describe('describeCall', () => {
  it('names the element a call acted on by role and name', () => {
    const elements = [element('uid', '2_4', 'button', 'Press me')];
    expect(describeCall({tool: 'click', args: {uid: '2_4'}, elements})).toBe(
      'click button "Press me"',
    );
    // Not known (yet): the uid.
    expect(describeCall({tool: 'click', args: {uid: '2_4'}})).toBe('click uid 2_4');
    expect(
      describeCall({
        tool: 'click',
        args: {uid: '2_5'},
        elements: [element('uid', '2_5', 'img', '')],
      }),
    ).toBe('click img (uid 2_5)');
  });

  it('says what was typed, where it went, and where a page went', () => {
    expect(
      describeCall({
        tool: 'fill',
        args: {uid: '1', value: 'Ada'},
        elements: [element('uid', '1', 'textbox', 'Name')],
      }),
    ).toBe('fill textbox "Name" ← "Ada"');
    expect(
      describeCall({
        tool: 'fill_form',
        args: {
          elements: [
            {uid: '1', value: 'Ada'},
            {uid: '2', value: 'Lovelace'},
            {uid: '3', value: 'x'},
          ],
        },
        elements: [
          element('elements[0].uid', '1', 'textbox', 'First'),
          element('elements[1].uid', '2', 'textbox', 'Last'),
        ],
      }),
    ).toBe('fill_form 3 fields: textbox "First" ← "Ada", textbox "Last" ← "Lovelace", … 1 more');
    expect(describeCall({tool: 'navigate_page', args: {url: 'https://example.org/cart/'}})).toBe(
      'navigate_page → example.org/cart',
    );
    expect(
      describeCall(
        {tool: 'navigate_page', args: {url: 'https://example.org/cart'}},
        {fullUrls: true},
      ),
    ).toBe('navigate_page → https://example.org/cart');
    expect(describeCall({tool: 'navigate_page', args: {type: 'back'}})).toBe('navigate_page back');
    expect(
      describeCall({
        tool: 'drag',
        args: {from_uid: '1', to_uid: '2'},
        elements: [element('from_uid', '1', 'listitem', 'A'), element('to_uid', '2', 'list', 'B')],
      }),
    ).toBe('drag listitem "A" → list "B"');
    expect(describeCall({tool: 'press_key', args: {key: 'Control+A'}})).toBe('press_key Control+A');
  });

  it('counts a script, and keeps every line one line and short', () => {
    expect(
      describeCall({tool: 'evaluate_script', args: {function: '() => {\n  return 1;\n}'}}),
    ).toBe('evaluate_script (3 lines)');
    expect(describeCall({tool: 'evaluate_script', args: {function: '() => 1'}})).toBe(
      'evaluate_script (1 line)',
    );
    const forged = describeCall({
      tool: 'type_text',
      args: {text: 'hello\nclick button "Buy"\r\n' + 'x'.repeat(200)},
    });
    expect(forged).not.toMatch(/[\n\r]/);
    expect(forged.length).toBeLessThanOrEqual(160);
    expect(forged).toBe(`type_text "hello click button "Buy" ${'x'.repeat(14)}…"`);
    expect(describeCall({tool: 'list_pages', args: {}})).toBe('list_pages');
    // An unknown tool with an element argument names it; a tool named like an Object key is plain.
    expect(
      describeCall({
        tool: 'webmcp_thing',
        args: {uid: '1'},
        elements: [element('uid', '1', 'link', 'Home')],
      }),
    ).toBe('webmcp_thing link "Home"');
    expect(describeCall({tool: 'constructor', args: {}})).toBe('constructor');
  });
});
