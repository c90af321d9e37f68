/**
 * The Run panel's hook: reads the store, keeps the panel model (runModel.ts) in a reducer, and runs
 * the tool. Calls run through the same pipeline as an agent's and appear in the log as coming from
 * the Inspector.
 */
import {useReducer} from 'react';
import type {ToolInfo} from '../../../../shared/protocol.js';
import {useRequest, useSnapshot, useUi} from '../../context/InspectorContext.js';
import {objectSchema, type ArgumentsDraft, type DraftAction} from '../../ui/argumentsDraft.js';
import {
  INITIAL_RUN,
  isNewHandOver,
  reduceRun,
  runArgs,
  selectTools,
  type RunOutcome,
} from './runModel.js';

export interface RunModel {
  ready: boolean;
  connected: boolean;
  tools: ToolInfo[];
  tool: ToolInfo | undefined;
  selectTool: (name: string) => void;
  /** The form's schema for the tool (its input schema without the `$schema` marker). */
  schema: Record<string, unknown> | undefined;
  draft: ArgumentsDraft;
  edit: (action: DraftAction) => void;
  running: boolean;
  /** Runs the tool with the form's values (on submit) or the draft's. */
  run: (formValues?: Record<string, unknown>) => void;
  outcome: RunOutcome | undefined;
  /** The Run panel's own selected page (calls from here without a pageId act on it). */
  selectedPage: {id: number; title: string; url: string} | undefined;
}

export function useRunModel(): RunModel {
  const request = useRequest();
  const ready = useSnapshot(snapshot => snapshot.ready);
  const allTools = useSnapshot(snapshot => snapshot.tools.tools);
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const pages = useSnapshot(snapshot => snapshot.pages);
  const handOver = useUi(snapshot => snapshot.runDraft);
  const [state, dispatch] = useReducer(reduceRun, INITIAL_RUN);

  // A draft from "Run again…" replaces the tool and arguments once (derived-state pattern).
  if (isNewHandOver(state, handOver)) {
    dispatch({type: 'handOver', draft: handOver});
  }

  const {tools, tool} = selectTools(allTools, state.toolName);
  return {
    selectedPage: pages.find(page => page.selected),
    ready,
    connected,
    tools,
    tool,
    selectTool: name => dispatch({type: 'select', toolName: name === '' ? undefined : name}),
    schema: tool ? objectSchema(tool.inputSchema) : undefined,
    draft: state.draft,
    edit: action => dispatch({type: 'edit', action}),
    running: state.running,
    run: formValues => {
      if (!tool || state.running) {
        return;
      }
      dispatch({type: 'started'});
      void request({type: 'runTool', tool: tool.name, args: runArgs(state.draft, formValues)}).then(
        result => dispatch({type: 'answered', tool: tool.name, result}),
      );
    },
    outcome: state.outcome,
  };
}
