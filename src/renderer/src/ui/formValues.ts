/**
 * What a schema form takes and gives back, shared by SchemaForm.tsx (what panels import) and
 * RjsfForm.tsx (the form itself, loaded on first use).
 */
import type {RJSFSchema, UiSchema} from '@rjsf/utils';
import {isRecord} from '../../../shared/values.js';

export type FormValues = Record<string, unknown>;

export function isFormValues(value: unknown): value is FormValues {
  return isRecord(value);
}

/** Only an object schema can be rendered as a form. */
export function isSchemaObject(value: unknown): value is RJSFSchema {
  return isRecord(value);
}

export interface SchemaFormProps {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: FormValues;
  idPrefix: string;
  onChange: (values: FormValues) => void;
  onSubmit: (values: FormValues) => void;
}
