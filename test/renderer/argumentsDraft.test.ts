/**
 * The arguments draft shared by the Run and WebMCP panels (ui/argumentsDraft.ts).
 *
 * Tests: src/renderer/src/ui/argumentsDraft.ts
 */
import {describe, expect, it} from 'vitest';
import {
  cleanArgs,
  EMPTY_DRAFT,
  hasFields,
  objectSchema,
  reduceDraft,
} from '../../src/renderer/src/ui/argumentsDraft.js';

const NOT_OBJECT = 'Must be an object.';

describe('arguments draft', () => {
  it('keeps the JSON text in step with the form, without empty optional values', () => {
    const draft = reduceDraft(EMPTY_DRAFT, {type: 'form', values: {url: 'https://a', note: ''}});
    expect(draft.formData).toEqual({url: 'https://a', note: ''});
    expect(JSON.parse(draft.jsonText)).toEqual({url: 'https://a'});
  });

  it('takes JSON text that is an object into the form data', () => {
    const draft = reduceDraft(EMPTY_DRAFT, {type: 'json', text: '{"a": 1}', notObject: NOT_OBJECT});
    expect(draft).toMatchObject({jsonText: '{"a": 1}', jsonError: undefined, formData: {a: 1}});
  });

  it('says what is wrong with other text and leaves the form data alone', () => {
    const filled = reduceDraft(EMPTY_DRAFT, {type: 'form', values: {a: 1}});
    const array = reduceDraft(filled, {type: 'json', text: '[1]', notObject: NOT_OBJECT});
    expect(array).toMatchObject({jsonText: '[1]', jsonError: NOT_OBJECT, formData: {a: 1}});
    const broken = reduceDraft(filled, {type: 'json', text: '{', notObject: NOT_OBJECT});
    expect(broken.jsonError).toMatch(/^Not valid JSON: /);
    expect(broken.formData).toEqual({a: 1});
    // Fixing the text clears the error.
    expect(reduceDraft(broken, {type: 'json', text: '{}', notObject: NOT_OBJECT}).jsonError).toBe(
      undefined,
    );
  });

  it('rebuilds the form when switching back to it, not when leaving it', () => {
    const json = reduceDraft(EMPTY_DRAFT, {type: 'mode', mode: 'json'});
    expect(json).toMatchObject({mode: 'json', formSerial: EMPTY_DRAFT.formSerial});
    const form = reduceDraft(json, {type: 'mode', mode: 'form'});
    expect(form).toMatchObject({mode: 'form', formSerial: EMPTY_DRAFT.formSerial + 1});
  });

  it('starts over from given arguments, keeping the mode', () => {
    const broken = reduceDraft(reduceDraft(EMPTY_DRAFT, {type: 'mode', mode: 'json'}), {
      type: 'json',
      text: 'nope',
      notObject: NOT_OBJECT,
    });
    const reset = reduceDraft(broken, {type: 'reset', args: {url: 'x'}});
    expect(reset).toEqual({
      mode: 'json',
      formData: {url: 'x'},
      jsonText: JSON.stringify({url: 'x'}, null, 2),
      jsonError: undefined,
      formSerial: broken.formSerial + 1,
    });
    expect(reduceDraft(broken, {type: 'reset', args: {}}).jsonText).toBe('{}');
  });

  it('builds an object schema for the form, and knows whether it has fields', () => {
    expect(objectSchema(undefined)).toEqual({type: 'object'});
    const schema = objectSchema({$schema: 'x', properties: {a: {type: 'string'}}});
    expect(schema).toEqual({type: 'object', properties: {a: {type: 'string'}}});
    expect(hasFields(schema)).toBe(true);
    expect(hasFields(objectSchema({properties: {}}))).toBe(false);
    expect(cleanArgs({a: '', b: undefined, c: 0, d: false})).toEqual({c: 0, d: false});
  });
});
