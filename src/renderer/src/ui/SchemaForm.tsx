/**
 * The one way the UI renders a form from a JSON schema (tool arguments, WebMCP tool input): rjsf
 * with the CSP-safe validator, errors shown inline under each field, objects only.
 */
import Form from '@rjsf/core';
import type {RJSFSchema, UiSchema} from '@rjsf/utils';
import {cfWorkerValidator} from './schemaValidator.js';

export type FormValues = Record<string, unknown>;

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isFormValues(value: unknown): value is FormValues {
  return isPlainObject(value);
}

/** Only an object schema can be rendered as a form. */
export function isSchemaObject(value: unknown): value is RJSFSchema {
  return isPlainObject(value);
}

export function SchemaForm(props: {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: FormValues;
  idPrefix: string;
  onChange: (values: FormValues) => void;
  onSubmit: (values: FormValues) => void;
}): React.JSX.Element {
  const {onChange, onSubmit} = props;
  return (
    <Form
      schema={props.schema}
      uiSchema={props.uiSchema}
      formData={props.formData}
      validator={cfWorkerValidator}
      noHtml5Validate
      showErrorList={false}
      idPrefix={props.idPrefix}
      onChange={event => {
        if (isFormValues(event.formData)) {
          onChange(event.formData);
        }
      }}
      onSubmit={event => {
        onSubmit(isFormValues(event.formData) ? event.formData : {});
      }}
    />
  );
}
