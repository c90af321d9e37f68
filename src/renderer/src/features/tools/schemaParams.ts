/** Reads a tool's JSON schema (untrusted shape) into a flat parameter list for display. */
import {isRecord} from '../../../../shared/values.js';

export interface ToolParam {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) {
    return schema.enum.map(value => JSON.stringify(value)).join(' | ');
  }
  if (typeof schema.type === 'string') {
    if (schema.type === 'array' && isRecord(schema.items)) {
      return `${typeOf(schema.items)}[]`;
    }
    return schema.type;
  }
  if (Array.isArray(schema.type)) {
    return schema.type.filter(value => typeof value === 'string').join(' | ');
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      return options
        .filter(isRecord)
        .map(option => typeOf(option))
        .join(' | ');
    }
  }
  return 'any';
}

export function toolParams(inputSchema: Record<string, unknown>): ToolParam[] {
  const properties = isRecord(inputSchema.properties) ? inputSchema.properties : {};
  const required = new Set(
    Array.isArray(inputSchema.required)
      ? inputSchema.required.filter(value => typeof value === 'string')
      : [],
  );
  return Object.entries(properties).map(([name, value]) => {
    const schema = isRecord(value) ? value : {};
    return {
      name,
      type: typeOf(schema),
      required: required.has(name),
      description: typeof schema.description === 'string' ? schema.description : '',
    };
  });
}
