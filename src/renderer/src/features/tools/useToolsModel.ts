/**
 * The Tools panel's hook: reads the store, keeps the panel model (toolsModel.ts) in a reducer,
 * flips switches, and fetches the exact tools/list a client receives (again whenever tools change).
 */
import {useEffect, useMemo, useReducer} from 'react';
import {useRequest, useSnapshot} from '../../context/InspectorContext.js';
import {
  categoryCards,
  categoryGroups,
  conditionCards,
  conditionGroups,
  INITIAL_TOOLS,
  reduceTools,
  toolsTotals,
  type Switch,
  type SwitchCardModel,
  type ToolsListSize,
  type ToolsTotals,
} from './toolsModel.js';

export interface ToolsModel extends ToolsTotals {
  ready: boolean;
  slim: boolean;
  categoryCards: SwitchCardModel[];
  /** Feature flags that gate single tools. */
  conditionCards: SwitchCardModel[];
  error: string | undefined;
  flip: (target: Switch, enabled: boolean) => void;
  toolsListOpen: boolean;
  setToolsListOpen: (open: boolean) => void;
  toolsList: ToolsListSize | undefined;
  toolsListError: string | undefined;
}

export function useToolsModel(): ToolsModel {
  const request = useRequest();
  const ready = useSnapshot(snapshot => snapshot.ready);
  const tools = useSnapshot(snapshot => snapshot.tools);
  const [state, dispatch] = useReducer(reduceTools, INITIAL_TOOLS);
  const groups = useMemo(() => categoryGroups(tools), [tools]);
  const gated = useMemo(() => conditionGroups(tools), [tools]);
  const cards = useMemo(() => categoryCards(groups, state.pending), [groups, state.pending]);
  const flagCards = useMemo(
    () => conditionCards(gated, state.pendingConditions),
    [gated, state.pendingConditions],
  );
  const totals = useMemo(() => toolsTotals(tools.tools), [tools]);

  useEffect(() => {
    if (!state.toolsListOpen) {
      return;
    }
    let current = true;
    void request({type: 'getToolsList'}).then(result => {
      if (current) {
        dispatch({type: 'toolsList', result});
      }
    });
    return () => {
      current = false;
    };
    // Refetch whenever the tools change (a switch flipped here or elsewhere).
  }, [state.toolsListOpen, tools, request]);

  const flip = (target: Switch, enabled: boolean): void => {
    dispatch({type: 'switching', target});
    const sent =
      target.kind === 'category'
        ? request({type: 'setCategoryEnabled', category: target.id, enabled})
        : request({type: 'setConditionEnabled', condition: target.id, enabled});
    void sent.then(result =>
      dispatch({type: 'switched', target, error: result.ok ? undefined : result.error}),
    );
  };

  return {
    ready,
    slim: tools.slim,
    categoryCards: cards,
    conditionCards: flagCards,
    ...totals,
    error: state.error,
    flip,
    toolsListOpen: state.toolsListOpen,
    setToolsListOpen: open => dispatch({type: 'toolsListOpen', open}),
    toolsList: state.toolsList,
    toolsListError: state.toolsListError,
  };
}
