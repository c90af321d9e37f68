/**
 * An rjsf validator built on @cfworker/json-schema, which interprets schemas instead of compiling
 * them with `new Function` (Ajv does, and the UI's CSP forbids eval). Tool and WebMCP schemas only
 * arrive at runtime, so precompiling is not an option. The engine validates again with zod before
 * anything runs; this is for quick, in-form feedback.
 */
import {Validator, type Schema} from '@cfworker/json-schema';
import {
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  toErrorSchema,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import {errorText, isRecord} from '../../../shared/values.js';

type FormData = Record<string, unknown>;

/** Keywords that only summarize errors reported in more detail below them. */
const SUMMARY_KEYWORDS = new Set([
  'properties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentSchemas',
  'if',
  'then',
  'else',
]);

function draftOf(schema: Record<string, unknown>): '4' | '7' | '2019-09' | '2020-12' {
  const id = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (id.includes('2020-12')) {
    return '2020-12';
  }
  if (id.includes('2019-09')) {
    return '2019-09';
  }
  if (id.includes('draft-04')) {
    return '4';
  }
  return '7';
}

/** The schema with the root's definitions attached, so `$ref`s inside a sub-schema resolve. */
function withDefinitions(schema: RJSFSchema, rootSchema: RJSFSchema | undefined): Schema {
  const copy: Record<string, unknown> = {...schema};
  if (rootSchema && rootSchema !== schema) {
    if (isRecord(rootSchema.definitions) && copy.definitions === undefined) {
      copy.definitions = rootSchema.definitions;
    }
    if (isRecord(rootSchema.$defs) && copy.$defs === undefined) {
      copy.$defs = rootSchema.$defs;
    }
  }
  return copy;
}

/** `#/a/0/b` → `.a[0].b` (rjsf's property notation). */
function propertyPath(instanceLocation: string): string {
  const parts = instanceLocation
    .replace(/^#\/?/, '')
    .split('/')
    .filter(part => part !== '')
    .map(part => decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~')));
  return parts.map(part => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('');
}

export function validate(
  schema: RJSFSchema,
  data: unknown,
  rootSchema?: RJSFSchema,
): RJSFValidationError[] {
  let result;
  try {
    const validator = new Validator(withDefinitions(schema, rootSchema), draftOf(schema), false);
    result = validator.validate(data);
  } catch (error) {
    return [
      {
        name: 'schema',
        message: `The schema could not be used: ${errorText(error)}`,
        stack: 'The schema could not be used.',
      },
    ];
  }
  const errors: RJSFValidationError[] = [];
  for (const unit of result.errors) {
    if (SUMMARY_KEYWORDS.has(unit.keyword)) {
      continue;
    }
    let property = propertyPath(unit.instanceLocation);
    let message = unit.error;
    if (unit.keyword === 'required') {
      const missing = /property "([^"]+)"/.exec(unit.error)?.[1];
      if (missing !== undefined) {
        property = `${property}.${missing}`;
        message = 'is a required property';
      }
    }
    errors.push({
      name: unit.keyword,
      message,
      property,
      schemaPath: unit.keywordLocation,
      stack: `${property || 'value'} ${message}`.trim(),
    });
  }
  return errors;
}

export class CfWorkerValidator implements ValidatorType<FormData> {
  validateFormData(
    formData: FormData | undefined,
    schema: RJSFSchema,
    _customValidate?: CustomValidator<FormData>,
    transformErrors?: ErrorTransformer<FormData>,
    uiSchema?: UiSchema<FormData>,
  ): ValidationData<FormData> {
    let errors = validate(schema, formData ?? {});
    if (transformErrors) {
      errors = transformErrors(errors, uiSchema);
    }
    return {errors, errorSchema: toErrorSchema<FormData>(errors)};
  }

  isValid(schema: RJSFSchema, formData: FormData | undefined, rootSchema: RJSFSchema): boolean {
    return validate(schema, formData, rootSchema).length === 0;
  }

  /** rjsf's playground hook, unused by forms; errors go through validateFormData instead. */
  rawValidation(): {errors?: never[]; validationError?: Error} {
    return {validationError: new Error('rawValidation is not supported by this validator.')};
  }
}

export const cfWorkerValidator = new CfWorkerValidator();
