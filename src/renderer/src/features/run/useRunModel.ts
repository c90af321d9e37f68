/**
 * View model of the Run panel: the enabled tools, the chosen one and its arguments (from the form
 * or as JSON), a draft handed over by "Run again…" in the log, and the run itself. Calls run
 * through the same pipeline as an agent's and appear in the log as coming from the Inspector.
 */
import {useState} from 'react';
import {z} from 'zod';
import type {ToolInfo, ToolResultView} from '../../../../shared/protocol.js';
import {toolResultSchema} from '../../../../shared/protocol.js';
import {useCommand, useSnapshot, useUi} from '../../app/InspectorContext.js';

const runReplySchema = toolResultSchema.extend({isError: z.boolean()});

export interface RunOutcome {
  tool: string;
  result?: ToolResultView;
  isError: boolean;
  /** The command failed before the tool ran (connection lost, bad request). */
  failure?: string;
}

export type ArgsMode = 'form' | 'json';

export interface RunModel {
  ready: boolean;
  tools: ToolInfo[];
  tool: ToolInfo | undefined;
  selectTool: (name: string) => void;
  /** rjsf's schema for the tool (its input schema without the `$schema` marker). */
  schema: Record<string, unknown> | undefined;
  args: Record<string, unknown>;
  setArgs: (args: Record<string, unknown>) => void;
  formKey: string;
  mode: ArgsMode;
  setMode: (mode: ArgsMode) => void;
  jsonText: string;
  setJsonText: (text: string) => void;
  jsonError: string | undefined;
  running: boolean;
  run: (args?: Record<string, unknown>) => void;
  outcome: RunOutcome | undefined;
  connected: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops empty optional values rjsf leaves behind, so the call carries only what was filled in. */
export function cleanArgs(args: Record<string, unknown>): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value !== undefined && value !== '') {
      clean[key] = value;
    }
  }
  return clean;
}

export function useRunModel(): RunModel {
  const send = useCommand();
  const ready = useSnapshot(snapshot => snapshot.ready);
  const allTools = useSnapshot(snapshot => snapshot.tools.tools);
  const connected = useSnapshot(snapshot => snapshot.connection.state === 'open');
  const draft = useUi(snapshot => snapshot.runDraft);
  const [toolName, setToolName] = useState<string | undefined>();
  const [args, setArgsState] = useState<Record<string, unknown>>({});
  const [formSerial, setFormSerial] = useState(0);
  const [mode, setModeState] = useState<ArgsMode>('form');
  const [jsonText, setJsonTextState] = useState('{}');
  const [jsonError, setJsonError] = useState<string | undefined>();
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<RunOutcome | undefined>();
  const [appliedDraft, setAppliedDraft] = useState(0);

  // A draft from "Run again…" replaces the tool and arguments once (derived-state pattern).
  if (draft && draft.serial !== appliedDraft) {
    setAppliedDraft(draft.serial);
    setToolName(draft.tool);
    setArgsState(draft.args);
    setJsonTextState(JSON.stringify(draft.args, null, 2));
    setJsonError(undefined);
    setFormSerial(serial => serial + 1);
  }

  const tools = allTools.filter(tool => tool.enabled);
  const tool = allTools.find(candidate => candidate.name === toolName);
  const schema = tool ? withoutSchemaMarker(tool.inputSchema) : undefined;

  const setArgs = (next: Record<string, unknown>): void => {
    setArgsState(next);
    setJsonTextState(JSON.stringify(cleanArgs(next), null, 2));
  };

  const setJsonText = (text: string): void => {
    setJsonTextState(text);
    try {
      const parsed: unknown = JSON.parse(text);
      if (!isRecord(parsed)) {
        setJsonError('Arguments must be a JSON object, e.g. {"url": "https://example.com"}.');
        return;
      }
      setJsonError(undefined);
      setArgsState(parsed);
    } catch (error) {
      setJsonError(`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const setMode = (next: ArgsMode): void => {
    if (next === 'form') {
      // The form rebuilds from the arguments the JSON editor produced.
      setFormSerial(serial => serial + 1);
    }
    setModeState(next);
  };

  const run = (formArgs?: Record<string, unknown>): void => {
    if (!tool || running) {
      return;
    }
    const callArgs = cleanArgs(formArgs ?? args);
    setRunning(true);
    void send({type: 'runTool', tool: tool.name, args: callArgs}).then(reply => {
      setRunning(false);
      if (!reply.ok) {
        setOutcome({tool: tool.name, isError: true, failure: reply.error});
        return;
      }
      const parsed = runReplySchema.safeParse(reply.value);
      if (!parsed.success) {
        setOutcome({
          tool: tool.name,
          isError: true,
          failure: 'The server answered in a shape this UI does not understand.',
        });
        return;
      }
      const {isError, ...result} = parsed.data;
      setOutcome({tool: tool.name, result, isError});
    });
  };

  return {
    ready,
    tools,
    tool,
    selectTool: name => {
      setToolName(name === '' ? undefined : name);
      setArgsState({});
      setJsonTextState('{}');
      setJsonError(undefined);
      setFormSerial(serial => serial + 1);
      setOutcome(undefined);
    },
    schema,
    args,
    setArgs,
    formKey: `${toolName ?? ''}#${formSerial}`,
    mode,
    setMode,
    jsonText,
    setJsonText,
    jsonError,
    running,
    run,
    outcome,
    connected,
  };
}

function withoutSchemaMarker(schema: Record<string, unknown>): Record<string, unknown> {
  const copy = {...schema};
  delete copy.$schema;
  return {type: 'object', ...copy};
}
