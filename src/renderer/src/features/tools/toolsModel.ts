/**
 * The Tools panel's panel model, pure: categories and feature flags with their tools and counts,
 * the totals a client pays for, the switches in flight, and the exact tools/list a client receives.
 * The hook (useToolsModel.ts) only wires it to the store and the engine.
 */
import {CONDITIONS, type ToolCategory, type ToolCondition} from '../../../../shared/categories.js';
import type {CategoryState, ConditionState, ToolInfo} from '../../../../shared/protocol.js';
import type {CommandResult} from '../../../../shared/replies.js';
import type {ToolsSlice} from '../../store/InspectorStore.js';

export interface CategoryGroup {
  category: CategoryState;
  tools: ToolInfo[];
  enabledCount: number;
}

/** A feature flag with the tools it gates. */
export interface ConditionGroup {
  condition: ConditionState;
  tools: ToolInfo[];
  enabledCount: number;
}

export interface ToolsListSize {
  json: string;
  toolCount: number;
  chars: number;
  estimatedTokens: number;
}

export interface ToolsTotals {
  enabledTools: number;
  totalChars: number;
  totalTokens: number;
}

/** A switch: a category or a feature flag. */
export type Switch = {kind: 'category'; id: ToolCategory} | {kind: 'condition'; id: ToolCondition};

export interface ToolsState {
  pending: ReadonlySet<ToolCategory>;
  pendingConditions: ReadonlySet<ToolCondition>;
  error: string | undefined;
  toolsListOpen: boolean;
  toolsList: ToolsListSize | undefined;
  toolsListError: string | undefined;
}

export type ToolsAction =
  | {type: 'switching'; target: Switch}
  | {type: 'switched'; target: Switch; error: string | undefined}
  | {type: 'toolsListOpen'; open: boolean}
  | {type: 'toolsList'; result: CommandResult<'getToolsList'>};

export const INITIAL_TOOLS: ToolsState = {
  pending: new Set(),
  pendingConditions: new Set(),
  error: undefined,
  toolsListOpen: false,
  toolsList: undefined,
  toolsListError: undefined,
};

export function reduceTools(state: ToolsState, action: ToolsAction): ToolsState {
  switch (action.type) {
    case 'switching':
      return {...withPending(state, action.target, true), error: undefined};
    case 'switched': {
      const next = withPending(state, action.target, false);
      return action.error === undefined ? next : {...next, error: action.error};
    }
    case 'toolsListOpen':
      return {...state, toolsListOpen: action.open};
    case 'toolsList':
      return action.result.ok
        ? {...state, toolsListError: undefined, toolsList: toolsListSize(action.result.value)}
        : {...state, toolsListError: action.result.error};
  }
}

function withPending(state: ToolsState, target: Switch, pending: boolean): ToolsState {
  if (target.kind === 'category') {
    return {...state, pending: withMember(state.pending, target.id, pending)};
  }
  return {...state, pendingConditions: withMember(state.pendingConditions, target.id, pending)};
}

function withMember<T>(set: ReadonlySet<T>, value: T, member: boolean): ReadonlySet<T> {
  return member ? new Set([...set, value]) : new Set([...set].filter(item => item !== value));
}

/** The tools/list result as shown: indented, with its size as a client receives it. */
export function toolsListSize(list: {tools: readonly unknown[]}): ToolsListSize {
  const compact = JSON.stringify(list);
  return {
    json: JSON.stringify(list, null, 2),
    toolCount: list.tools.length,
    chars: compact.length,
    estimatedTokens: Math.ceil(compact.length / 4),
  };
}

export function categoryGroups(tools: ToolsSlice): CategoryGroup[] {
  return tools.categories.map(category => {
    const inCategory = tools.tools.filter(tool => tool.category === category.id);
    return {
      category,
      tools: inCategory,
      enabledCount: inCategory.filter(tool => tool.enabled).length,
    };
  });
}

export function conditionGroups(tools: ToolsSlice): ConditionGroup[] {
  return tools.conditions.map(condition => {
    const gated = tools.tools.filter(tool => tool.conditions?.includes(condition.id) ?? false);
    return {condition, tools: gated, enabledCount: gated.filter(tool => tool.enabled).length};
  });
}

/** One switch card as drawn: a category or a feature flag, with the tools it turns on. */
export interface SwitchCardModel {
  target: Switch;
  label: string;
  enabled: boolean;
  /** A flag that only the server's start sets cannot be switched here. */
  switchable: boolean;
  /** A change is on its way; the switch ignores input meanwhile (it stays focusable). */
  pending: boolean;
  /** The flag that gives the other state. */
  flagHint: string;
  /** What else to know about its default. */
  note: string;
  /** What the switch changes, for a flag that gates no tool. */
  effect?: string | undefined;
  tools: ToolInfo[];
  enabledCount: number;
}

export function categoryCards(
  groups: readonly CategoryGroup[],
  pending: ReadonlySet<ToolCategory>,
): SwitchCardModel[] {
  return groups.map(({category, tools, enabledCount}) => ({
    target: {kind: 'category', id: category.id},
    label: category.label,
    enabled: category.enabled,
    switchable: true,
    pending: pending.has(category.id),
    flagHint: category.enabled ? `--no-${category.flag.slice(2)}` : category.flag,
    note: category.offByDefault ? ' · off by default' : '',
    tools,
    enabledCount,
  }));
}

export function conditionCards(
  groups: readonly ConditionGroup[],
  pending: ReadonlySet<ToolCondition>,
): SwitchCardModel[] {
  return groups.map(({condition, tools, enabledCount}) => ({
    target: {kind: 'condition', id: condition.id},
    label: condition.label,
    enabled: condition.enabled,
    switchable: condition.switchable,
    pending: pending.has(condition.id),
    // A condition on by default (javascriptEvaluation) is on unless its --no- flag was given.
    flagHint:
      CONDITIONS[condition.id].onByDefault !== true && condition.enabled
        ? `--${condition.id}=false`
        : condition.flag,
    note: condition.switchable ? ' · off by default' : ' · set when the server starts',
    effect: CONDITIONS[condition.id].effect,
    tools,
    enabledCount,
  }));
}

export function toolsTotals(tools: readonly ToolInfo[]): ToolsTotals {
  const enabled = tools.filter(tool => tool.enabled);
  return {
    enabledTools: enabled.length,
    totalChars: enabled.reduce((sum, tool) => sum + tool.definitionChars, 0),
    totalTokens: enabled.reduce((sum, tool) => sum + tool.estimatedTokens, 0),
  };
}
