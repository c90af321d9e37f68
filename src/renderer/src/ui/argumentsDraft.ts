/**
 * The arguments a person is writing for a tool, as a schema form or as raw JSON, shared by the Run
 * panel (MCP tools) and the WebMCP panel (the page's tools): one draft, one reducer. The form and
 * the JSON text follow each other; JSON that is not an object says why and leaves the form alone.
 */
import {errorText, isRecord} from '../../../shared/values.js';

export type ArgumentsMode = 'form' | 'json';

export interface ArgumentsDraft {
  mode: ArgumentsMode;
  formData: Record<string, unknown>;
  jsonText: string;
  /** Why the JSON text is not a usable input. */
  jsonError: string | undefined;
  /** Bumped to rebuild the form (after editing the JSON, or a reset). */
  formSerial: number;
}

export type DraftAction =
  | {type: 'form'; values: Record<string, unknown>}
  /** `notObject` is what to say when the text is JSON but not an object. */
  | {type: 'json'; text: string; notObject: string}
  | {type: 'mode'; mode: ArgumentsMode}
  /** Start over from these arguments (another tool, or a call handed over from the log). */
  | {type: 'reset'; args: Record<string, unknown>};

export const EMPTY_DRAFT: ArgumentsDraft = {
  mode: 'form',
  formData: {},
  jsonText: '{}',
  jsonError: undefined,
  formSerial: 0,
};

/** Drops the empty optional values a form leaves behind, so only what was filled in is sent. */
export function cleanArgs(args: Record<string, unknown>): Record<string, unknown> {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value !== undefined && value !== '') {
      clean[key] = value;
    }
  }
  return clean;
}

/** The schema a form is built from: an object schema even when the tool declared none. */
export function objectSchema(
  inputSchema: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {...inputSchema};
  delete copy.$schema;
  return {type: 'object', ...copy};
}

/** Whether an object schema declares any field to fill in. */
export function hasFields(schema: Record<string, unknown>): boolean {
  return isRecord(schema.properties) && Object.keys(schema.properties).length > 0;
}

export function reduceDraft(draft: ArgumentsDraft, action: DraftAction): ArgumentsDraft {
  switch (action.type) {
    case 'form':
      return {
        ...draft,
        formData: action.values,
        jsonText: JSON.stringify(cleanArgs(action.values), null, 2),
      };
    case 'json':
      return {...draft, jsonText: action.text, ...readJson(action.text, action.notObject)};
    case 'mode':
      // Back in the form, it rebuilds from the arguments the JSON editor produced.
      return {
        ...draft,
        mode: action.mode,
        formSerial: action.mode === 'form' ? draft.formSerial + 1 : draft.formSerial,
      };
    case 'reset':
      return {
        ...draft,
        formData: action.args,
        jsonText: JSON.stringify(action.args, null, 2),
        jsonError: undefined,
        formSerial: draft.formSerial + 1,
      };
  }
}

/** The form data the JSON text stands for, or why it stands for none (the form keeps its data). */
function readJson(
  text: string,
  notObject: string,
): {jsonError: undefined; formData: Record<string, unknown>} | {jsonError: string} {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? {jsonError: undefined, formData: parsed} : {jsonError: notObject};
  } catch (error) {
    return {jsonError: `Not valid JSON: ${errorText(error)}`};
  }
}
