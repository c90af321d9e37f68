/**
 * The WebMCP panel's hook: reads the store, keeps the panel model (webmcpModel.ts) in a reducer and
 * sends the commands (execute, cancel, form highlight, doctor). Tool rows get actions that keep
 * their identity across renders, so a row re-renders only when its own tool changes.
 */
import {useLayoutEffect, useMemo, useReducer, useRef, type Dispatch} from 'react';
import type {WebMcpInvocation, WebMcpToolInfo} from '../../../../shared/protocol.js';
import {
  type Request,
  useInspector,
  useRequest,
  useSnapshot,
} from '../../context/InspectorContext.js';
import type {DraftAction} from '../../ui/argumentsDraft.js';
import {
  activityOf,
  draftOf,
  historyOf,
  INITIAL_WEBMCP,
  planExecution,
  reduceWebMcp,
  unavailableReason,
  webmcpCategoryOn,
  type DoctorState,
  type PendingConfirmation,
  type ToolActivity,
  type ToolDraft,
  type WebMcpAction,
  type WebMcpState,
} from './webmcpModel.js';
import {
  groupTools,
  indexInvocations,
  toolKey,
  toolTarget,
  type PageGroup,
} from './webmcpDisplay.js';

/** What a tool row can do; stable across renders (they act on the latest state). */
export interface ToolActions {
  toggle: (tool: WebMcpToolInfo) => void;
  edit: (tool: WebMcpToolInfo, action: DraftAction) => void;
  execute: (tool: WebMcpToolInfo) => void;
  cancel: (tool: WebMcpToolInfo) => void;
  highlightForm: (tool: WebMcpToolInfo) => void;
}

export interface WebMcpModel {
  actions: ToolActions;
  ready: boolean;
  connected: boolean;
  groups: PageGroup[];
  totalTools: number;
  filter: string;
  setFilter: (filter: string) => void;
  /** Agents see the tools only with the category on. */
  categoryOn: boolean;
  openToolsPanel: () => void;
  unavailableReason: string | undefined;
  isOpen: (tool: WebMcpToolInfo) => boolean;
  draft: (tool: WebMcpToolInfo) => ToolDraft;
  activity: (tool: WebMcpToolInfo) => ToolActivity;
  latest: (tool: WebMcpToolInfo) => WebMcpInvocation | undefined;
  running: (tool: WebMcpToolInfo) => WebMcpInvocation | undefined;
  cancelInvocation: (invocationId: string) => void;
  confirmation: PendingConfirmation | undefined;
  confirm: () => void;
  dismissConfirmation: () => void;
  doctor: DoctorState;
  runDoctor: (pageId: number | undefined) => void;
  /** Newest first. */
  history: readonly WebMcpInvocation[];
  clearHistory: () => void;
}

export function useWebMcpModel(): WebMcpModel {
  const request = useRequest();
  const {ui} = useInspector();
  const ready = useSnapshot(snapshot => snapshot.ready);
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const pages = useSnapshot(snapshot => snapshot.pages);
  const tools = useSnapshot(snapshot => snapshot.webmcpTools);
  const invocations = useSnapshot(snapshot => snapshot.webmcpInvocations);
  const categories = useSnapshot(snapshot => snapshot.tools.categories);
  const webmcpStatus = useSnapshot(snapshot => snapshot.browser?.webmcp);
  const [state, dispatch] = useReducer(reduceWebMcp, INITIAL_WEBMCP);

  const groups = useMemo(
    () => groupTools(pages, tools, state.filter),
    [pages, tools, state.filter],
  );
  const index = useMemo(() => indexInvocations(invocations), [invocations]);
  const history = useMemo(
    () => historyOf(invocations, state.historyFrom),
    [invocations, state.historyFrom],
  );
  const commands = webmcpCommands(request, dispatch);
  const actions = useToolActions(state, index.running, commands, dispatch);

  return {
    actions,
    ready,
    connected,
    groups,
    totalTools: tools.length,
    filter: state.filter,
    setFilter: filter => dispatch({type: 'filter', filter}),
    categoryOn: webmcpCategoryOn(categories),
    openToolsPanel: () => ui.openPanel('tools'),
    unavailableReason: unavailableReason(webmcpStatus),
    isOpen: tool => state.expanded.has(toolKey(tool)),
    draft: tool => draftOf(state, toolKey(tool)),
    activity: tool => activityOf(state, toolKey(tool)),
    latest: tool => index.latest.get(toolKey(tool)),
    running: tool => index.running.get(toolKey(tool))?.at(-1),
    cancelInvocation: commands.cancel,
    confirmation: state.confirmation,
    confirm: () => {
      if (state.confirmation) {
        dispatch({type: 'confirm', pending: undefined});
        commands.start(state.confirmation.tool, state.confirmation.input);
      }
    },
    dismissConfirmation: () => dispatch({type: 'confirm', pending: undefined}),
    doctor: state.doctor,
    runDoctor: commands.doctor,
    history,
    clearHistory: () => dispatch({type: 'historyCleared', at: Date.now() + 1}),
  };
}

interface WebMcpCommands {
  start: (tool: WebMcpToolInfo, input: Record<string, unknown>) => void;
  cancel: (invocationId: string) => void;
  highlightForm: (tool: WebMcpToolInfo) => void;
  doctor: (pageId: number | undefined) => void;
}

/** The commands the panel sends, each reporting back to the panel model. */
function webmcpCommands(request: Request, dispatch: Dispatch<WebMcpAction>): WebMcpCommands {
  return {
    start: (tool, input) => {
      const key = toolKey(tool);
      dispatch({type: 'sending', key});
      void request({type: 'webmcpExecute', ...toolTarget(tool), input: JSON.stringify(input)}).then(
        result => dispatch({type: 'sent', key, error: result.ok ? undefined : result.error}),
      );
    },
    cancel: invocationId => {
      void request({type: 'webmcpCancel', invocationId});
    },
    highlightForm: tool => {
      const key = toolKey(tool);
      dispatch({type: 'highlighting', key});
      void request({type: 'webmcpHighlightForm', ...toolTarget(tool)}).then(result =>
        dispatch({
          type: 'highlighted',
          key,
          text: result.ok ? 'The form is outlined in the page for 3 s.' : result.error,
        }),
      );
    },
    doctor: pageId => {
      dispatch({type: 'doctorStarted', pageId});
      void request({type: 'webmcpDoctor', ...(pageId === undefined ? {} : {pageId})}).then(result =>
        dispatch({type: 'doctorAnswered', pageId, result}),
      );
    },
  };
}

/** Row actions with a stable identity: they call the latest closures through a ref. */
function useToolActions(
  state: WebMcpState,
  running: ReadonlyMap<string, WebMcpInvocation[]>,
  commands: WebMcpCommands,
  dispatch: Dispatch<WebMcpAction>,
): ToolActions {
  const current: ToolActions = {
    toggle: tool => dispatch({type: 'toggle', key: toolKey(tool)}),
    edit: (tool, action) => dispatch({type: 'edit', key: toolKey(tool), action}),
    execute: tool => {
      const key = toolKey(tool);
      const plan = planExecution(tool, draftOf(state, key));
      dispatch({type: 'checked', key, errors: plan.kind === 'invalid' ? plan.errors : []});
      if (plan.kind === 'confirm') {
        dispatch({type: 'confirm', pending: {tool, input: plan.input}});
      } else if (plan.kind === 'start') {
        commands.start(tool, plan.input);
      }
    },
    cancel: tool => {
      for (const invocation of running.get(toolKey(tool)) ?? []) {
        commands.cancel(invocation.invocationId);
      }
    },
    highlightForm: commands.highlightForm,
  };
  const latest = useRef(current);
  useLayoutEffect(() => {
    latest.current = current;
  });
  return useMemo<ToolActions>(
    () => ({
      toggle: tool => latest.current.toggle(tool),
      edit: (tool, action) => latest.current.edit(tool, action),
      execute: tool => latest.current.execute(tool),
      cancel: tool => latest.current.cancel(tool),
      highlightForm: tool => latest.current.highlightForm(tool),
    }),
    [],
  );
}
