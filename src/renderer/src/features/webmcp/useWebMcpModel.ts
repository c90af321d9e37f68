/**
 * View model of the WebMCP panel: the pages' own tools grouped by page and frame, a draft input
 * per tool (schema form or raw JSON), execute (validated first, confirmed for tools that may
 * change things) and cancel, the form highlight, the doctor, and the history of invocations by
 * anyone (this app, MCP clients, the page).
 */
import {useLayoutEffect, useMemo, useRef, useState} from 'react';
import {
  webmcpDoctorReportSchema,
  webmcpExecuteReplySchema,
  type WebMcpDoctorReport,
  type WebMcpInvocation,
  type WebMcpToolView,
} from '../../../../shared/protocol.js';
import {useCommand, useInspector, useSnapshot} from '../../app/InspectorContext.js';
import {validate} from '../../ui/schemaValidator.js';
import {
  cleanInput,
  formSchema,
  groupTools,
  indexInvocations,
  needsConfirmation,
  toolKey,
  type PageGroup,
} from './webmcpView.js';

export type InputMode = 'form' | 'json';

export interface ToolDraft {
  mode: InputMode;
  formData: Record<string, unknown>;
  jsonText: string;
  /** Why the JSON text is not a usable input. */
  jsonError: string | undefined;
  /** Schema validation messages from the last Execute. */
  validation: string[];
  /** Bumped to rebuild the form (after editing the JSON). */
  formSerial: number;
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
  tool: WebMcpToolView;
  input: Record<string, unknown>;
}

const EMPTY_DRAFT: ToolDraft = {
  mode: 'form',
  formData: {},
  jsonText: '{}',
  jsonError: undefined,
  validation: [],
  formSerial: 0,
};

const IDLE: ToolActivity = {sending: false, error: undefined, highlight: undefined};

/** Stable across renders (they read the latest state), so tool rows can skip re-rendering. */
export interface ToolActions {
  toggle: (tool: WebMcpToolView) => void;
  setFormData: (tool: WebMcpToolView, data: Record<string, unknown>) => void;
  setJsonText: (tool: WebMcpToolView, text: string) => void;
  setMode: (tool: WebMcpToolView, mode: InputMode) => void;
  execute: (tool: WebMcpToolView) => void;
  cancel: (tool: WebMcpToolView) => void;
  highlightForm: (tool: WebMcpToolView) => void;
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
  expanded: ReadonlySet<string>;
  toggle: (tool: WebMcpToolView) => void;
  draft: (tool: WebMcpToolView) => ToolDraft;
  setFormData: (tool: WebMcpToolView, data: Record<string, unknown>) => void;
  setJsonText: (tool: WebMcpToolView, text: string) => void;
  setMode: (tool: WebMcpToolView, mode: InputMode) => void;
  activity: (tool: WebMcpToolView) => ToolActivity;
  latest: (tool: WebMcpToolView) => WebMcpInvocation | undefined;
  running: (tool: WebMcpToolView) => WebMcpInvocation | undefined;
  execute: (tool: WebMcpToolView) => void;
  cancel: (tool: WebMcpToolView) => void;
  cancelInvocation: (invocationId: string) => void;
  highlightForm: (tool: WebMcpToolView) => void;
  confirmation: PendingConfirmation | undefined;
  confirm: () => void;
  dismissConfirmation: () => void;
  doctor: DoctorState;
  runDoctor: (pageId: number | undefined) => void;
  /** Newest first. */
  history: readonly WebMcpInvocation[];
  clearHistory: () => void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function useWebMcpModel(): WebMcpModel {
  const send = useCommand();
  const {ui} = useInspector();
  const ready = useSnapshot(snapshot => snapshot.ready);
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const pages = useSnapshot(snapshot => snapshot.pages);
  const tools = useSnapshot(snapshot => snapshot.webmcpTools);
  const invocations = useSnapshot(snapshot => snapshot.webmcpInvocations);
  const categories = useSnapshot(snapshot => snapshot.tools.categories);
  const webmcpStatus = useSnapshot(snapshot => snapshot.browser?.webmcp);

  const [filter, setFilter] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [drafts, setDrafts] = useState<Readonly<Record<string, ToolDraft>>>({});
  const [activities, setActivities] = useState<Readonly<Record<string, ToolActivity>>>({});
  const [confirmation, setConfirmation] = useState<PendingConfirmation | undefined>();
  const [doctor, setDoctor] = useState<DoctorState>({
    pageId: undefined,
    running: false,
    report: undefined,
    error: undefined,
  });
  const [historyFrom, setHistoryFrom] = useState(0);

  const groups = useMemo(() => groupTools(pages, tools, filter), [pages, tools, filter]);
  const index = useMemo(() => indexInvocations(invocations), [invocations]);
  const history = useMemo(
    () =>
      invocations
        .filter(
          invocation => invocation.startedAt >= historyFrom || invocation.status === 'running',
        )
        .reverse(),
    [invocations, historyFrom],
  );

  const draft = (tool: WebMcpToolView): ToolDraft => drafts[toolKey(tool)] ?? EMPTY_DRAFT;
  const updateDraft = (tool: WebMcpToolView, patch: Partial<ToolDraft>): void => {
    const key = toolKey(tool);
    setDrafts(current => ({...current, [key]: {...(current[key] ?? EMPTY_DRAFT), ...patch}}));
  };
  const updateActivity = (tool: WebMcpToolView, patch: Partial<ToolActivity>): void => {
    const key = toolKey(tool);
    setActivities(current => ({...current, [key]: {...(current[key] ?? IDLE), ...patch}}));
  };
  const expand = (tool: WebMcpToolView): void => {
    setExpanded(current => new Set(current).add(toolKey(tool)));
  };

  const start = (tool: WebMcpToolView, input: Record<string, unknown>): void => {
    updateActivity(tool, {sending: true, error: undefined});
    void send({
      type: 'webmcpExecute',
      pageId: tool.pageId,
      frameId: tool.frameId,
      toolName: tool.name,
      input: JSON.stringify(input),
    }).then(reply => {
      if (!reply.ok) {
        updateActivity(tool, {sending: false, error: reply.error});
        return;
      }
      const parsed = webmcpExecuteReplySchema.safeParse(reply.value);
      updateActivity(tool, {
        sending: false,
        error: parsed.success
          ? undefined
          : 'The server answered in a shape this UI does not understand.',
      });
    });
  };

  const execute = (tool: WebMcpToolView): void => {
    const current = draft(tool);
    let input: Record<string, unknown>;
    if (current.mode === 'json') {
      if (current.jsonError !== undefined) {
        expand(tool);
        updateDraft(tool, {validation: [current.jsonError]});
        return;
      }
      try {
        const parsed: unknown = JSON.parse(current.jsonText);
        input = isRecord(parsed) ? parsed : {};
      } catch {
        input = {};
      }
    } else {
      input = cleanInput(current.formData);
    }
    const errors = validate(formSchema(tool), input).map(error => error.stack);
    updateDraft(tool, {validation: errors});
    if (errors.length > 0) {
      expand(tool);
      return;
    }
    if (needsConfirmation(tool)) {
      setConfirmation({tool, input});
      return;
    }
    start(tool, input);
  };

  const cancelInvocation = (invocationId: string): void => {
    void send({type: 'webmcpCancel', invocationId});
  };

  const toggle = (tool: WebMcpToolView): void => {
    const key = toolKey(tool);
    setExpanded(current => {
      const next = new Set(current);
      if (!next.delete(key)) {
        next.add(key);
      }
      return next;
    });
  };
  const setFormData = (tool: WebMcpToolView, data: Record<string, unknown>): void => {
    updateDraft(tool, {formData: data, jsonText: JSON.stringify(cleanInput(data), null, 2)});
  };
  const setJsonText = (tool: WebMcpToolView, text: string): void => {
    let jsonError: string | undefined;
    let formData = draft(tool).formData;
    try {
      const parsed: unknown = JSON.parse(text);
      if (isRecord(parsed)) {
        formData = parsed;
      } else {
        jsonError = 'The input must be a JSON object, e.g. {"text": "hello"}.';
      }
    } catch (error) {
      jsonError = `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
    updateDraft(tool, {jsonText: text, jsonError, formData});
  };
  const setMode = (tool: WebMcpToolView, mode: InputMode): void => {
    const current = draft(tool);
    updateDraft(tool, {
      mode,
      validation: [],
      ...(mode === 'form' ? {formSerial: current.formSerial + 1} : {}),
    });
  };
  const cancel = (tool: WebMcpToolView): void => {
    for (const invocation of index.running.get(toolKey(tool)) ?? []) {
      cancelInvocation(invocation.invocationId);
    }
  };
  const highlightForm = (tool: WebMcpToolView): void => {
    updateActivity(tool, {highlight: undefined});
    void send({
      type: 'webmcpHighlightForm',
      pageId: tool.pageId,
      frameId: tool.frameId,
      toolName: tool.name,
    }).then(reply => {
      updateActivity(tool, {
        highlight: reply.ok ? 'The form is outlined in the page for 3 s.' : reply.error,
      });
    });
  };

  // The row callbacks must not change identity; they call the latest closures through a ref.
  const currentActions: ToolActions = {
    toggle,
    setFormData,
    setJsonText,
    setMode,
    execute,
    cancel,
    highlightForm,
  };
  const latestActions = useRef(currentActions);
  useLayoutEffect(() => {
    latestActions.current = currentActions;
  });
  const actions = useMemo<ToolActions>(
    () => ({
      toggle: tool => latestActions.current.toggle(tool),
      setFormData: (tool, data) => latestActions.current.setFormData(tool, data),
      setJsonText: (tool, text) => latestActions.current.setJsonText(tool, text),
      setMode: (tool, mode) => latestActions.current.setMode(tool, mode),
      execute: tool => latestActions.current.execute(tool),
      cancel: tool => latestActions.current.cancel(tool),
      highlightForm: tool => latestActions.current.highlightForm(tool),
    }),
    [],
  );

  const categoryOn = categories.some(
    category => category.id === 'experimentalWebmcp' && category.enabled,
  );

  return {
    actions,
    ready,
    connected,
    groups,
    totalTools: tools.length,
    filter,
    setFilter,
    categoryOn,
    openToolsPanel: () => ui.openPanel('tools'),
    unavailableReason:
      webmcpStatus?.available === false ? (webmcpStatus.reason ?? 'unknown reason') : undefined,
    expanded,
    toggle,
    draft,
    setFormData,
    setJsonText,
    setMode,
    activity: tool => activities[toolKey(tool)] ?? IDLE,
    latest: tool => index.latest.get(toolKey(tool)),
    running: tool => index.running.get(toolKey(tool))?.at(-1),
    execute,
    cancel,
    cancelInvocation,
    highlightForm,
    confirmation,
    confirm: () => {
      if (confirmation) {
        setConfirmation(undefined);
        start(confirmation.tool, confirmation.input);
      }
    },
    dismissConfirmation: () => setConfirmation(undefined),
    doctor,
    runDoctor: pageId => {
      setDoctor({pageId, running: true, report: undefined, error: undefined});
      void send({type: 'webmcpDoctor', ...(pageId === undefined ? {} : {pageId})}).then(reply => {
        if (!reply.ok) {
          setDoctor({pageId, running: false, report: undefined, error: reply.error});
          return;
        }
        const parsed = webmcpDoctorReportSchema.safeParse(reply.value);
        setDoctor({
          pageId,
          running: false,
          report: parsed.success ? parsed.data : undefined,
          error: parsed.success
            ? undefined
            : 'The server answered in a shape this UI does not understand.',
        });
      });
    },
    history,
    clearHistory: () => setHistoryFrom(Date.now() + 1),
  };
}
