/**
 * What a schema form takes and gives back, shared by SchemaForm.tsx (what panels import) and
 * RjsfForm.tsx (the form itself, loaded on first use).
 */
import type {RJSFSchema, UiSchema} from '@rjsf/utils';

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

export interface SchemaFormProps {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: FormValues;
  idPrefix: string;
  onChange: (values: FormValues) => void;
  onSubmit: (values: FormValues) => void;
}
