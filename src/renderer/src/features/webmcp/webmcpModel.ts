/**
 * The WebMCP panel's panel model, pure: per tool an input draft (argumentsDraft.ts) with its
 * validation messages and what is in flight (execute, form highlight); which tools are open, the
 * filter, the confirmation asked before a tool that may change things, the doctor, and where the
 * history starts. The hook (useWebMcpModel.ts) only wires it to the store and the engine.
 */
import type {
  BrowserStatus,
  CategoryState,
  WebMcpDoctorReport,
  WebMcpInvocation,
  WebMcpToolInfo,
} from '../../../../shared/protocol.js';
import type {CommandResult} from '../../../../shared/replies.js';
import {isRecord} from '../../../../shared/values.js';
import {
  cleanArgs,
  EMPTY_DRAFT,
  objectSchema,
  reduceDraft,
  type ArgumentsDraft,
  type DraftAction,
} from '../../ui/argumentsDraft.js';
import {validate} from '../../ui/schemaValidator.js';
import {needsConfirmation} from './webmcpDisplay.js';

export interface ToolDraft extends ArgumentsDraft {
  /** Schema validation messages from the last Execute. */
  validation: string[];
}

export interface ToolActivity {
  /** An Execute is on its way to the engine. */
  sending: boolean;
  /** The engine refused to start it (reply error). */
  error: string | undefined;
  /** Result of the last "Show form". */
  highlight: string | undefined;
}

export interface DoctorState {
  pageId: number | undefined;
  running: boolean;
  report: WebMcpDoctorReport | undefined;
  error: string | undefined;
}

export interface PendingConfirmation {
  tool: WebMcpToolInfo;
  input: Record<string, unknown>;
}

export interface WebMcpState {
  filter: string;
  /** Tools opened (toolKey). */
  expanded: ReadonlySet<string>;
  drafts: Readonly<Record<string, ToolDraft>>;
  activities: Readonly<Record<string, ToolActivity>>;
  confirmation: PendingConfirmation | undefined;
  doctor: DoctorState;
  /** Invocations that started before this time are cleared from the history (running ones stay). */
  historyFrom: number;
}

export type WebMcpAction =
  | {type: 'filter'; filter: string}
  | {type: 'toggle'; key: string}
  | {type: 'edit'; key: string; action: DraftAction}
  /** The input was checked before sending: these messages (none: it may go). */
  | {type: 'checked'; key: string; errors: string[]}
  | {type: 'confirm'; pending: PendingConfirmation | undefined}
  | {type: 'sending'; key: string}
  | {type: 'sent'; key: string; error: string | undefined}
  | {type: 'highlighting'; key: string}
  | {type: 'highlighted'; key: string; text: string}
  | {type: 'doctorStarted'; pageId: number | undefined}
  | {type: 'doctorAnswered'; pageId: number | undefined; result: CommandResult<'webmcpDoctor'>}
  | {type: 'historyCleared'; at: number};

const EMPTY_TOOL_DRAFT: ToolDraft = {...EMPTY_DRAFT, validation: []};
const IDLE: ToolActivity = {sending: false, error: undefined, highlight: undefined};

export const INITIAL_WEBMCP: WebMcpState = {
  filter: '',
  expanded: new Set(),
  drafts: {},
  activities: {},
  confirmation: undefined,
  doctor: {pageId: undefined, running: false, report: undefined, error: undefined},
  historyFrom: 0,
};

export function reduceWebMcp(state: WebMcpState, action: WebMcpAction): WebMcpState {
  switch (action.type) {
    case 'filter':
      return {...state, filter: action.filter};
    case 'toggle':
      return {...state, expanded: toggled(state.expanded, action.key)};
    case 'edit':
    case 'checked':
      return reduceDrafts(state, action);
    case 'confirm':
      return {...state, confirmation: action.pending};
    case 'sending':
      return withActivity(state, action.key, {sending: true, error: undefined});
    case 'sent':
      return withActivity(state, action.key, {sending: false, error: action.error});
    case 'highlighting':
      return withActivity(state, action.key, {highlight: undefined});
    case 'highlighted':
      return withActivity(state, action.key, {highlight: action.text});
    case 'doctorStarted':
      return {
        ...state,
        doctor: {pageId: action.pageId, running: true, report: undefined, error: undefined},
      };
    case 'doctorAnswered':
      return {...state, doctor: doctorAnswered(action.pageId, action.result)};
    case 'historyCleared':
      return {...state, historyFrom: action.at};
  }
}

function reduceDrafts(
  state: WebMcpState,
  action: Extract<WebMcpAction, {type: 'edit' | 'checked'}>,
): WebMcpState {
  const current = draftOf(state, action.key);
  if (action.type === 'checked') {
    return {
      ...state,
      drafts: {...state.drafts, [action.key]: {...current, validation: action.errors}},
      // Messages are shown in the tool's details: open them.
      expanded: action.errors.length > 0 ? opened(state.expanded, action.key) : state.expanded,
    };
  }
  const draft: ToolDraft = {
    ...reduceDraft(current, action.action),
    validation: action.action.type === 'mode' ? [] : current.validation,
  };
  return {...state, drafts: {...state.drafts, [action.key]: draft}};
}

export function draftOf(state: WebMcpState, key: string): ToolDraft {
  return state.drafts[key] ?? EMPTY_TOOL_DRAFT;
}

export function activityOf(state: WebMcpState, key: string): ToolActivity {
  return state.activities[key] ?? IDLE;
}

function withActivity(state: WebMcpState, key: string, patch: Partial<ToolActivity>): WebMcpState {
  return {
    ...state,
    activities: {...state.activities, [key]: {...activityOf(state, key), ...patch}},
  };
}

function toggled(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(key)) {
    next.add(key);
  }
  return next;
}

function opened(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  return set.has(key) ? set : new Set(set).add(key);
}

function doctorAnswered(
  pageId: number | undefined,
  result: CommandResult<'webmcpDoctor'>,
): DoctorState {
  return result.ok
    ? {pageId, running: false, report: result.value, error: undefined}
    : {pageId, running: false, report: undefined, error: result.error};
}

/** What Execute does with a draft: refuse it (with why), ask first, or start it. */
export type Execution =
  {kind: 'invalid'; errors: string[]} | {kind: 'confirm' | 'start'; input: Record<string, unknown>};

export function planExecution(tool: WebMcpToolInfo, draft: ToolDraft): Execution {
  let input: Record<string, unknown>;
  if (draft.mode === 'json') {
    if (draft.jsonError !== undefined) {
      return {kind: 'invalid', errors: [draft.jsonError]};
    }
    input = parsedObject(draft.jsonText);
  } else {
    input = cleanArgs(draft.formData);
  }
  const errors = validate(objectSchema(tool.inputSchema), input).map(error => error.stack);
  if (errors.length > 0) {
    return {kind: 'invalid', errors};
  }
  return {kind: needsConfirmation(tool) ? 'confirm' : 'start', input};
}

function parsedObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

// --- selectors ---------------------------------------------------------------------------------

/** Invocations since the history was cleared (running ones always), newest first. */
export function historyOf(
  invocations: readonly WebMcpInvocation[],
  from: number,
): WebMcpInvocation[] {
  return invocations
    .filter(invocation => invocation.startedAt >= from || invocation.status === 'running')
    .reverse();
}

/** Agents see the page's tools only with the WebMCP category on. */
export function webmcpCategoryOn(categories: readonly CategoryState[]): boolean {
  return categories.some(category => category.id === 'experimentalWebmcp' && category.enabled);
}

export function unavailableReason(webmcp: BrowserStatus['webmcp']): string | undefined {
  return webmcp?.available === false ? (webmcp.reason ?? 'unknown reason') : undefined;
}
