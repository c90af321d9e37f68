/**
 * View model of the Tools panel: categories with their tools, the switch actions, totals, and the
 * exact tools/list a client receives (fetched from the engine, refreshed when tools change).
 */
import {useEffect, useMemo, useState} from 'react';
import {z} from 'zod';
import type {ToolCategory, ToolCondition} from '../../../../shared/categories.js';
import type {CategoryState, ConditionState, ToolInfo} from '../../../../shared/protocol.js';
import {useCommand, useSnapshot} from '../../app/InspectorContext.js';

export interface CategoryGroup {
  category: CategoryState;
  tools: ToolInfo[];
  enabledCount: number;
}

/** A feature flag with the tools it gates (by their disabled reason naming the flag). */
export interface ConditionGroup {
  condition: ConditionState;
  tools: ToolInfo[];
  enabledCount: number;
}

export interface ToolsListView {
  json: string;
  toolCount: number;
  chars: number;
  estimatedTokens: number;
}

const toolsListSchema = z.object({tools: z.array(z.object({name: z.string()}).loose())});

export interface ToolsModel {
  ready: boolean;
  slim: boolean;
  groups: CategoryGroup[];
  conditionGroups: ConditionGroup[];
  /** Tools outside any category (slim mode lists its tools here). */
  enabledTools: number;
  totalChars: number;
  totalTokens: number;
  pending: ReadonlySet<ToolCategory>;
  error: string | undefined;
  setCategoryEnabled: (category: ToolCategory, enabled: boolean) => void;
  pendingConditions: ReadonlySet<ToolCondition>;
  setConditionEnabled: (condition: ToolCondition, enabled: boolean) => void;
  toolsListOpen: boolean;
  setToolsListOpen: (open: boolean) => void;
  toolsList: ToolsListView | undefined;
  toolsListError: string | undefined;
}

export function useToolsModel(): ToolsModel {
  const send = useCommand();
  const ready = useSnapshot(snapshot => snapshot.ready);
  const tools = useSnapshot(snapshot => snapshot.tools);
  const [pending, setPending] = useState<ReadonlySet<ToolCategory>>(new Set());
  const [pendingConditions, setPendingConditions] = useState<ReadonlySet<ToolCondition>>(new Set());
  const [error, setError] = useState<string | undefined>();
  const [toolsListOpen, setToolsListOpen] = useState(false);
  const [toolsList, setToolsList] = useState<ToolsListView | undefined>();
  const [toolsListError, setToolsListError] = useState<string | undefined>();

  const groups = useMemo(
    () =>
      tools.categories.map(category => {
        const inCategory = tools.tools.filter(tool => tool.category === category.id);
        return {
          category,
          tools: inCategory,
          enabledCount: inCategory.filter(tool => tool.enabled).length,
        };
      }),
    [tools],
  );
  const conditionGroups = useMemo(
    () =>
      tools.conditions.map(condition => {
        const gated = tools.tools.filter(tool => tool.conditions?.includes(condition.id) ?? false);
        return {
          condition,
          tools: gated,
          enabledCount: gated.filter(tool => tool.enabled).length,
        };
      }),
    [tools],
  );
  const totals = useMemo(() => {
    const enabled = tools.tools.filter(tool => tool.enabled);
    return {
      enabledTools: enabled.length,
      totalChars: enabled.reduce((sum, tool) => sum + tool.definitionChars, 0),
      totalTokens: enabled.reduce((sum, tool) => sum + tool.estimatedTokens, 0),
    };
  }, [tools]);

  useEffect(() => {
    if (!toolsListOpen) {
      return;
    }
    let current = true;
    void send({type: 'getToolsList'}).then(reply => {
      if (!current) {
        return;
      }
      if (!reply.ok) {
        setToolsListError(reply.error);
        return;
      }
      const parsed = toolsListSchema.safeParse(reply.value);
      if (!parsed.success) {
        setToolsListError('The server sent a tools/list this UI does not understand.');
        return;
      }
      const json = JSON.stringify(reply.value, null, 2);
      const compact = JSON.stringify(reply.value);
      setToolsListError(undefined);
      setToolsList({
        json,
        toolCount: parsed.data.tools.length,
        chars: compact.length,
        estimatedTokens: Math.ceil(compact.length / 4),
      });
    });
    return () => {
      current = false;
    };
    // Refetch whenever the tools change (a switch flipped here or elsewhere).
  }, [toolsListOpen, tools, send]);

  const setCategoryEnabled = (category: ToolCategory, enabled: boolean): void => {
    setPending(current => new Set([...current, category]));
    setError(undefined);
    void send({type: 'setCategoryEnabled', category, enabled}).then(reply => {
      setPending(current => new Set([...current].filter(value => value !== category)));
      if (!reply.ok) {
        setError(reply.error);
      }
    });
  };

  const setConditionEnabled = (condition: ToolCondition, enabled: boolean): void => {
    setPendingConditions(current => new Set([...current, condition]));
    setError(undefined);
    void send({type: 'setConditionEnabled', condition, enabled}).then(reply => {
      setPendingConditions(current => new Set([...current].filter(value => value !== condition)));
      if (!reply.ok) {
        setError(reply.error);
      }
    });
  };

  return {
    ready,
    slim: tools.slim,
    groups,
    conditionGroups,
    pendingConditions,
    setConditionEnabled,
    ...totals,
    pending,
    error,
    setCategoryEnabled,
    toolsListOpen,
    setToolsListOpen,
    toolsList,
    toolsListError,
  };
}
