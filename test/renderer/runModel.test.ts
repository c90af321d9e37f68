/**
 * The Run panel's panel model (features/run/runModel.ts).
 *
 * Tests: src/renderer/src/features/run/runModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  INITIAL_RUN,
  isNewHandOver,
  outcomeOf,
  reduceRun,
  runArgs,
  selectTools,
} from '../../src/renderer/src/features/run/runModel.js';
import type {ToolInfo} from '../../src/shared/protocol.js';

function tool(name: string, enabled = true): ToolInfo {
  return {
    name,
    description: `${name} does things`,
    category: 'navigation',
    readOnly: false,
    enabled,
    inputSchema: {type: 'object'},
    definitionChars: 10,
    estimatedTokens: 3,
  };
}

describe('Run panel model', () => {
  it('offers the enabled tools, and still finds a chosen one that was switched off', () => {
    const all = [tool('list_pages'), tool('click', false)];
    expect(selectTools(all, 'click')).toEqual({tools: [all[0]], tool: all[1]});
    expect(selectTools(all, undefined).tool).toBeUndefined();
  });

  it('starts a chosen tool from empty arguments and forgets the last outcome', () => {
    const ran = reduceRun(INITIAL_RUN, {
      type: 'answered',
      tool: 'x',
      result: {ok: false, error: 'gone'},
    });
    const edited = reduceRun(ran, {type: 'edit', action: {type: 'form', values: {a: 1}}});
    const chosen = reduceRun(edited, {type: 'select', toolName: 'navigate_page'});
    expect(chosen.toolName).toBe('navigate_page');
    expect(chosen.draft.formData).toEqual({});
    expect(chosen.draft.jsonText).toBe('{}');
    expect(chosen.draft.formSerial).toBeGreaterThan(edited.draft.formSerial);
    expect(chosen.outcome).toBeUndefined();
  });

  it('applies a call handed over from the log once', () => {
    const handOver = {tool: 'click', args: {uid: '1_2'}, serial: 3};
    expect(isNewHandOver(INITIAL_RUN, handOver)).toBe(true);
    const applied = reduceRun(INITIAL_RUN, {type: 'handOver', draft: handOver});
    expect(applied).toMatchObject({toolName: 'click', appliedDraft: 3});
    expect(applied.draft.formData).toEqual({uid: '1_2'});
    expect(JSON.parse(applied.draft.jsonText)).toEqual({uid: '1_2'});
    expect(isNewHandOver(applied, handOver)).toBe(false);
    expect(isNewHandOver(applied, undefined)).toBe(false);
  });

  it('runs with the submitted form values, else the draft, without empty values', () => {
    const draft = reduceRun(INITIAL_RUN, {
      type: 'edit',
      action: {type: 'form', values: {url: 'https://a', note: ''}},
    }).draft;
    expect(runArgs(draft)).toEqual({url: 'https://a'});
    expect(runArgs(draft, {url: 'https://b', timeout: undefined})).toEqual({url: 'https://b'});
  });

  it('turns the reply into an outcome: the tool’s own error, or the command’s failure', () => {
    expect(
      outcomeOf('list_pages', {ok: true, value: {text: 'ok', images: [], isError: false}}),
    ).toEqual({tool: 'list_pages', result: {text: 'ok', images: []}, isError: false});
    expect(
      outcomeOf('click', {ok: true, value: {text: 'No such element', images: [], isError: true}}),
    ).toMatchObject({isError: true, result: {text: 'No such element'}});
    expect(outcomeOf('click', {ok: false, error: 'Not connected.'})).toEqual({
      tool: 'click',
      isError: true,
      failure: 'Not connected.',
    });
    const running = reduceRun(INITIAL_RUN, {type: 'started'});
    expect(running.running).toBe(true);
    const done = reduceRun(running, {
      type: 'answered',
      tool: 'click',
      result: {ok: false, error: 'x'},
    });
    expect(done.running).toBe(false);
    expect(done.outcome?.failure).toBe('x');
  });
});
