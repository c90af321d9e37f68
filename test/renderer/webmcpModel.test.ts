/**
 * The WebMCP panel's panel model (features/webmcp/webmcpModel.ts).
 *
 * Tests: src/renderer/src/features/webmcp/webmcpModel.ts
 */
import {describe, expect, it} from 'vitest';
import {
  activityOf,
  draftOf,
  historyOf,
  INITIAL_WEBMCP,
  planExecution,
  reduceWebMcp,
  unavailableReason,
  webmcpCategoryOn,
  type WebMcpAction,
  type WebMcpState,
} from '../../src/renderer/src/features/webmcp/webmcpModel.js';
import {toolKey} from '../../src/renderer/src/features/webmcp/webmcpDisplay.js';
import type {WebMcpInvocation, WebMcpToolInfo} from '../../src/shared/protocol.js';
import {webmcpInvocation, webmcpTool} from './fixtures.js';

const ECHO_SCHEMA = {type: 'object', properties: {text: {type: 'string'}}, required: ['text']};
const tool = (overrides: Partial<WebMcpToolInfo> = {}): WebMcpToolInfo =>
  webmcpTool({inputSchema: ECHO_SCHEMA, annotations: {readOnly: true}, ...overrides});
const invocation = (overrides: Partial<WebMcpInvocation> = {}): WebMcpInvocation =>
  webmcpInvocation({status: 'Completed', startedAt: 10, ...overrides});

const run = (...actions: WebMcpAction[]): WebMcpState =>
  actions.reduce(reduceWebMcp, INITIAL_WEBMCP);
const echo = tool();
const key = toolKey(echo);

describe('WebMCP panel model: drafts and Execute', () => {
  it('keeps a draft per tool, and an edit leaves the other tools alone', () => {
    const state = run(
      {type: 'edit', key, action: {type: 'form', values: {text: 'hi'}}},
      {type: 'edit', key: 'other', action: {type: 'mode', mode: 'json'}},
    );
    expect(draftOf(state, key).formData).toEqual({text: 'hi'});
    expect(draftOf(state, key).mode).toBe('form');
    expect(draftOf(state, 'other').mode).toBe('json');
    expect(draftOf(state, 'unknown')).toEqual(draftOf(INITIAL_WEBMCP, 'unknown'));
  });

  it('refuses an input the schema rejects, says why, and opens the tool to show it', () => {
    const plan = planExecution(echo, draftOf(INITIAL_WEBMCP, key));
    expect(plan.kind).toBe('invalid');
    const errors = plan.kind === 'invalid' ? plan.errors : [];
    expect(errors.join(' ')).toContain('text');
    const state = run({type: 'checked', key, errors});
    expect(draftOf(state, key).validation).toEqual(errors);
    expect(state.expanded.has(key)).toBe(true);
    // Switching the input mode clears the messages.
    const switched = reduceWebMcp(state, {type: 'edit', key, action: {type: 'mode', mode: 'json'}});
    expect(draftOf(switched, key).validation).toEqual([]);
  });

  it('refuses JSON that is not usable with the JSON error itself', () => {
    const state = run(
      {type: 'edit', key, action: {type: 'mode', mode: 'json'}},
      {type: 'edit', key, action: {type: 'json', text: '{', notObject: 'x'}},
    );
    const plan = planExecution(echo, draftOf(state, key));
    expect(plan).toEqual({kind: 'invalid', errors: [draftOf(state, key).jsonError]});
  });

  it('starts a read-only tool at once, and asks first for one that may change things', () => {
    const filled = run({type: 'edit', key, action: {type: 'form', values: {text: 'hi', x: ''}}});
    expect(planExecution(echo, draftOf(filled, key))).toEqual({kind: 'start', input: {text: 'hi'}});
    const writer = tool({annotations: {}});
    expect(planExecution(writer, draftOf(filled, key))).toEqual({
      kind: 'confirm',
      input: {text: 'hi'},
    });
    const asked = reduceWebMcp(filled, {type: 'confirm', pending: {tool: writer, input: {a: 1}}});
    expect(asked.confirmation?.tool).toBe(writer);
    expect(reduceWebMcp(asked, {type: 'confirm', pending: undefined}).confirmation).toBeUndefined();
  });

  it('takes raw JSON as typed (not cleaned) and checks it against the schema', () => {
    const state = run(
      {type: 'edit', key, action: {type: 'mode', mode: 'json'}},
      {type: 'edit', key, action: {type: 'json', text: '{"text": ""}', notObject: 'x'}},
    );
    expect(planExecution(echo, draftOf(state, key))).toEqual({kind: 'start', input: {text: ''}});
  });

  it('tracks what is in flight per tool: sending, the refusal, the form highlight', () => {
    const sending = run({type: 'sending', key});
    expect(activityOf(sending, key)).toEqual({
      sending: true,
      error: undefined,
      highlight: undefined,
    });
    const refused = reduceWebMcp(sending, {type: 'sent', key, error: 'No such frame.'});
    expect(activityOf(refused, key)).toMatchObject({sending: false, error: 'No such frame.'});
    const retried = reduceWebMcp(refused, {type: 'sending', key});
    expect(activityOf(retried, key).error).toBeUndefined();
    const shown = reduceWebMcp(reduceWebMcp(retried, {type: 'highlighting', key}), {
      type: 'highlighted',
      key,
      text: 'outlined',
    });
    expect(activityOf(shown, key)).toMatchObject({sending: true, highlight: 'outlined'});
    expect(activityOf(shown, 'other')).toEqual(activityOf(INITIAL_WEBMCP, 'other'));
  });
});

describe('WebMCP panel model: panel state and selectors', () => {
  it('opens and closes tools, and filters', () => {
    const open = run({type: 'toggle', key}, {type: 'filter', filter: 'ec'});
    expect(open.expanded.has(key)).toBe(true);
    expect(open.filter).toBe('ec');
    expect(reduceWebMcp(open, {type: 'toggle', key}).expanded.has(key)).toBe(false);
  });

  it('runs the doctor for a page and keeps its report or its error', () => {
    const started = run({type: 'doctorStarted', pageId: 2});
    expect(started.doctor).toEqual({pageId: 2, running: true, report: undefined, error: undefined});
    const report = {available: true, problems: [], notes: ['3 tools']};
    expect(
      reduceWebMcp(started, {type: 'doctorAnswered', pageId: 2, result: {ok: true, value: report}})
        .doctor,
    ).toEqual({pageId: 2, running: false, report, error: undefined});
    expect(
      reduceWebMcp(started, {type: 'doctorAnswered', pageId: 2, result: {ok: false, error: 'no'}})
        .doctor,
    ).toEqual({pageId: 2, running: false, report: undefined, error: 'no'});
  });

  it('clears the history except what is still running, newest first', () => {
    const invocations = [
      invocation({invocationId: 'old', startedAt: 5}),
      invocation({invocationId: 'running', startedAt: 6, status: 'running'}),
      invocation({invocationId: 'new', startedAt: 20}),
    ];
    expect(historyOf(invocations, 0).map(item => item.invocationId)).toEqual([
      'new',
      'running',
      'old',
    ]);
    const cleared = run({type: 'historyCleared', at: 10});
    expect(historyOf(invocations, cleared.historyFrom).map(item => item.invocationId)).toEqual([
      'new',
      'running',
    ]);
  });

  it('says whether agents see the tools and why WebMCP is unavailable', () => {
    const category = {label: 'WebMCP', offByDefault: true, flag: '--categoryExperimentalWebmcp'};
    expect(webmcpCategoryOn([{...category, id: 'experimentalWebmcp', enabled: true}])).toBe(true);
    expect(webmcpCategoryOn([{...category, id: 'experimentalWebmcp', enabled: false}])).toBe(false);
    expect(unavailableReason(undefined)).toBeUndefined();
    expect(unavailableReason({available: true})).toBeUndefined();
    expect(unavailableReason({available: false, reason: 'too old'})).toBe('too old');
    expect(unavailableReason({available: false})).toBe('unknown reason');
  });
});
