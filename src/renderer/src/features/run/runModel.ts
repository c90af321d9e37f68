/**
 * The Run panel's panel model, pure: which tool is chosen, its arguments draft, a draft handed over
 * by "Run again…" in the log, and the last run. The hook (useRunModel.ts) only wires it up.
 */
import type {ToolInfo, ToolResult} from '../../../../shared/protocol.js';
import type {CommandResult} from '../../../../shared/replies.js';
import type {RunDraft} from '../../store/UiStore.js';
import {
  cleanArgs,
  EMPTY_DRAFT,
  reduceDraft,
  type ArgumentsDraft,
  type DraftAction,
} from '../../ui/argumentsDraft.js';

export interface RunOutcome {
  tool: string;
  result?: ToolResult;
  isError: boolean;
  /** The command failed before the tool ran (connection lost, bad request). */
  failure?: string;
}

export interface RunState {
  toolName: string | undefined;
  draft: ArgumentsDraft;
  running: boolean;
  outcome: RunOutcome | undefined;
  /** Serial of the last draft from the log applied (each is applied once). */
  appliedDraft: number;
}

export type RunAction =
  | {type: 'select'; toolName: string | undefined}
  | {type: 'handOver'; draft: RunDraft}
  | {type: 'edit'; action: DraftAction}
  | {type: 'started'}
  | {type: 'answered'; tool: string; result: CommandResult<'runTool'>};

export const INITIAL_RUN: RunState = {
  toolName: undefined,
  draft: EMPTY_DRAFT,
  running: false,
  outcome: undefined,
  appliedDraft: 0,
};

export function reduceRun(state: RunState, action: RunAction): RunState {
  switch (action.type) {
    case 'select':
      return {
        ...state,
        toolName: action.toolName,
        draft: reduceDraft(state.draft, {type: 'reset', args: {}}),
        outcome: undefined,
      };
    case 'handOver':
      return {
        ...state,
        appliedDraft: action.draft.serial,
        toolName: action.draft.tool,
        draft: reduceDraft(state.draft, {type: 'reset', args: action.draft.args}),
      };
    case 'edit':
      return {...state, draft: reduceDraft(state.draft, action.action)};
    case 'started':
      return {...state, running: true};
    case 'answered':
      return {...state, running: false, outcome: outcomeOf(action.tool, action.result)};
  }
}

export function outcomeOf(tool: string, result: CommandResult<'runTool'>): RunOutcome {
  if (!result.ok) {
    return {tool, isError: true, failure: result.error};
  }
  const {isError, ...view} = result.value;
  return {tool, result: view, isError};
}

/** Whether a draft from the log is waiting to be applied. */
export function isNewHandOver(state: RunState, draft: RunDraft | undefined): draft is RunDraft {
  return draft !== undefined && draft.serial !== state.appliedDraft;
}

/** The tools offered (switched on), and the chosen one (which may have been switched off). */
export function selectTools(
  all: readonly ToolInfo[],
  toolName: string | undefined,
): {tools: ToolInfo[]; tool: ToolInfo | undefined} {
  return {
    tools: all.filter(tool => tool.enabled),
    tool: all.find(candidate => candidate.name === toolName),
  };
}

/** What a run sends: the form's values on submit, else the draft's, without empty optionals. */
export function runArgs(
  draft: ArgumentsDraft,
  formValues?: Record<string, unknown>,
): Record<string, unknown> {
  return cleanArgs(formValues ?? draft.formData);
}
