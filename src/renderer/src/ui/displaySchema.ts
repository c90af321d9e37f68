/**
 * The schema as a form shows it: labels and descriptions (page-supplied text) with invisible and
 * bidi characters made visible. Property names and values are left alone, so what is sent is
 * unchanged.
 */
import type {RJSFSchema} from '@rjsf/utils';
import {revealInvisible} from './revealInvisible.js';

type SchemaDefinition = NonNullable<RJSFSchema['properties']>[string];

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
