/**
 * The one way the UI renders a form from a JSON schema (tool arguments, WebMCP tool input): rjsf
 * with the CSP-safe validator, errors shown inline under each field, objects only.
 */
import Form from '@rjsf/core';
import type {RJSFSchema, UiSchema} from '@rjsf/utils';
import {revealInvisible} from './revealInvisible.js';
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

type SchemaDefinition = NonNullable<RJSFSchema['properties']>[string];

/**
 * The schema as shown: labels and descriptions (page-supplied text) with invisible and bidi
 * characters made visible. Property names and values are left alone, so what is sent is unchanged.
 */
export function displaySchema(schema: RJSFSchema): RJSFSchema {
  const shown: RJSFSchema = {...schema};
  if (schema.title !== undefined) {
    shown.title = revealInvisible(schema.title);
  }
  if (schema.description !== undefined) {
    shown.description = revealInvisible(schema.description);
  }
  if (schema.properties) {
    const properties: Record<string, SchemaDefinition> = {};
    for (const [key, child] of Object.entries(schema.properties)) {
      properties[key] =
        typeof child === 'boolean'
          ? child
          : {...displaySchema(child), title: revealInvisible(child.title ?? key)};
    }
    shown.properties = properties;
  }
  if (
    schema.items !== undefined &&
    !Array.isArray(schema.items) &&
    typeof schema.items !== 'boolean'
  ) {
    shown.items = displaySchema(schema.items);
  }
  return shown;
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
      schema={displaySchema(props.schema)}
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
