/**
 * The one editor of tool arguments (Run panel) and tool input (WebMCP panel): a Form / JSON
 * switch, the schema form, or a JSON textarea that says what is wrong with its text. The draft
 * and its reducer are in argumentsDraft.ts; the panel decides what submitting does.
 */
import type {UiSchema} from '@rjsf/utils';
import {type ReactNode, useMemo} from 'react';
import {hasFields, type ArgumentsDraft, type DraftAction} from './argumentsDraft.js';
import {invisibleInValues} from './invisibleInValues.js';
import {isSchemaObject, SchemaForm} from './SchemaForm.js';
import './argumentsEditor.css';

/** The words of one editor (the panels name the same things differently). */
export interface ArgumentsEditorText {
  /** Accessible name of the Form / JSON switch. */
  modes: string;
  /** Label of the JSON choice. */
  jsonMode: string;
  /** Label of the JSON textarea. */
  jsonField: string;
  /** What to say when the text is JSON but not an object. */
  notObject: string;
  rows: number;
}

export interface ArgumentsEditorProps {
  /** Prefix of the element ids (and the form's field ids). */
  idPrefix: string;
  text: ArgumentsEditorText;
  draft: ArgumentsDraft;
  onEdit: (action: DraftAction) => void;
  schema: Record<string, unknown>;
  uiSchema: UiSchema;
  onSubmit: (values: Record<string, unknown>) => void;
  /** Another class for the form's wrapper (tests and panel styles find it by it). */
  formClass?: string;
  /** Shown instead of a form for a schema without fields (default: the form anyway). */
  noFields?: ReactNode;
  /** Shown below the JSON textarea (e.g. its own submit button). */
  jsonFooter?: ReactNode;
}

export function ArgumentsEditor(props: ArgumentsEditorProps): React.JSX.Element {
  const {idPrefix, text, draft, onEdit} = props;
  return (
    <>
      <div className="args-editor__modes" role="radiogroup" aria-label={text.modes}>
        <label>
          <input
            type="radio"
            name={`${idPrefix}-mode`}
            checked={draft.mode === 'form'}
            onChange={() => onEdit({type: 'mode', mode: 'form'})}
          />{' '}
          Form
        </label>
        <label>
          <input
            type="radio"
            name={`${idPrefix}-mode`}
            checked={draft.mode === 'json'}
            onChange={() => onEdit({type: 'mode', mode: 'json'})}
          />{' '}
          {text.jsonMode}
        </label>
      </div>
      {draft.mode === 'form' ? <FormArea {...props} /> : <JsonArea {...props} />}
      <InvisibleNotice values={draft.formData} />
    </>
  );
}

/**
 * Fields show their values raw (what is typed is what is sent), so a value with invisible or bidi
 * characters — a page's schema default, say — is listed here with them made visible.
 */
function InvisibleNotice(props: {values: Record<string, unknown>}): React.JSX.Element | null {
  const {found, more} = useMemo(() => invisibleInValues(props.values), [props.values]);
  if (found.length === 0) {
    return null;
  }
  return (
    <div className="notice args-editor__invisible" data-testid="invisible-values">
      <p>
        {found.length === 1 ? 'A value holds' : 'These values hold'} invisible or direction-changing
        characters, shown here as ⟨U+XXXX⟩; they are sent as they are. Check
        {found.length === 1 ? ' it' : ' them'} before you send:
      </p>
      <ul>
        {found.map(item => (
          <li key={item.path}>
            <code>{item.path}</code>: <span className="mono">{item.shown}</span>
          </li>
        ))}
      </ul>
      {more ? <p className="muted">More values than these may hold such characters.</p> : null}
    </div>
  );
}

function FormArea(props: ArgumentsEditorProps): ReactNode {
  const {schema, draft, noFields} = props;
  if (!isSchemaObject(schema)) {
    return null;
  }
  if (noFields !== undefined && !hasFields(schema)) {
    return noFields;
  }
  return (
    <div
      className={props.formClass === undefined ? 'schema-form' : `schema-form ${props.formClass}`}
    >
      <SchemaForm
        key={draft.formSerial}
        schema={schema}
        uiSchema={props.uiSchema}
        formData={draft.formData}
        idPrefix={props.idPrefix}
        onChange={values => props.onEdit({type: 'form', values})}
        onSubmit={props.onSubmit}
      />
    </div>
  );
}

function JsonArea(props: ArgumentsEditorProps): React.JSX.Element {
  const {idPrefix, text, draft, onEdit} = props;
  const fieldId = `${idPrefix}-json`;
  const errorId = `${fieldId}-error`;
  return (
    <div className="args-editor__json">
      <label htmlFor={fieldId}>{text.jsonField}</label>
      <textarea
        id={fieldId}
        rows={text.rows}
        value={draft.jsonText}
        spellCheck={false}
        aria-invalid={draft.jsonError !== undefined}
        aria-describedby={draft.jsonError === undefined ? undefined : errorId}
        onChange={event =>
          onEdit({type: 'json', text: event.target.value, notObject: text.notObject})
        }
      />
      {draft.jsonError === undefined ? null : (
        <p id={errorId} className="notice notice--error">
          {draft.jsonError}
        </p>
      )}
      {props.jsonFooter}
    </div>
  );
}
