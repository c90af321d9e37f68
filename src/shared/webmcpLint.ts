/**
 * WebMCP authoring lint: what makes a page's tools hard for an agent to use, per tool and with the
 * fix. Declarative forms without `tooldescription` (the browser then does not register them) or
 * fields without `toolparamdescription`, schemas without `type`, with unknown (often misspelled)
 * keywords, or requiring fields they do not define, parameters without a description, and names
 * that several frames register. Pure functions over the tools (their info) and the page's forms, so the
 * doctor (core) and the panel (renderer) say the same thing.
 */
import type {WebMcpLintFinding, WebMcpToolInfo} from './protocol.js';
import {isRecord} from './values.js';

/** A `<form toolname>` as read from the page (registered or not). */
export interface DeclarativeFormFacts {
  frameId: string;
  toolName: string;
  hasDescription: boolean;
  /** Named fields, and whether each has a `toolparamdescription`. */
  fields: {name: string; described: boolean}[];
}

/** At most this many findings per tool: a generated schema can be wrong everywhere at once. */
const PER_TOOL_LIMIT = 20;
const PATH_DEPTH_LIMIT = 6;

/** JSON Schema 2020-12 keywords (plus draft-07 `definitions`); `x-…` extensions are allowed. */
const KNOWN_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  '$comment',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  'definitions',
  'type',
  'properties',
  'required',
  'description',
  'title',
  'enum',
  'const',
  'default',
  'examples',
  'items',
  'prefixItems',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

/** Keywords that give a schema its shape without a `type`. */
const TYPE_GIVING = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf'];

/** Edit distance, for "did you mean" on misspelled keywords (short strings only). */
function distance(a: string, b: string): number {
  const row = Array.from({length: b.length + 1}, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = Math.min(
        above + 1,
        (row[j - 1] ?? 0) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      previous = above;
    }
  }
  return row[b.length] ?? 0;
}

function nearestKeyword(key: string): string | undefined {
  const lower = key.toLowerCase();
  // A shortened keyword ("additionalProps", "minLen"): all but at most its last letter match.
  const prefix = (known: string): number => {
    let length = 0;
    while (length < lower.length && lower[length] === known.toLowerCase()[length]) {
      length++;
    }
    return length;
  };
  const extended = [...KNOWN_KEYWORDS].find(
    known => lower.length >= 4 && known.length > lower.length && prefix(known) >= lower.length - 1,
  );
  if (extended !== undefined) {
    return extended;
  }
  let best: string | undefined;
  let bestDistance = 3;
  for (const known of KNOWN_KEYWORDS) {
    const d = distance(key.toLowerCase(), known.toLowerCase());
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return best;
}

type Finding = Omit<WebMcpLintFinding, 'toolName' | 'frameId' | 'frameUrl'>;

/** Keywords no JSON Schema version knows (often misspelled ones), with the likely meant one. */
function keywordFindings(schema: Record<string, unknown>, where: string): Finding[] {
  return Object.keys(schema)
    .filter(key => !KNOWN_KEYWORDS.has(key) && !key.startsWith('x-'))
    .map(key => {
      const near = nearestKeyword(key);
      return {
        code: 'schema-unknown-keyword',
        message: `${where} has the unknown keyword ${JSON.stringify(key)}; agents and validators ignore it.`,
        fix:
          near === undefined
            ? `Remove ${JSON.stringify(key)}, or rename it to an "x-" extension if it is meant for your own code.`
            : `Did you mean ${JSON.stringify(near)}? Rename ${JSON.stringify(key)} to ${JSON.stringify(near)}.`,
      };
    });
}

/** A missing type, and a parameter without a description. */
function shapeFindings(
  schema: Record<string, unknown>,
  path: string,
  where: string,
  declarative: boolean,
): Finding[] {
  const out: Finding[] = [];
  if (!TYPE_GIVING.some(key => key in schema)) {
    out.push(
      path === ''
        ? {
            code: 'schema-no-type',
            message: 'The input schema has no "type".',
            fix: 'Add "type": "object" at the root of inputSchema.',
          }
        : {
            code: 'param-no-type',
            message: `${where} has no "type", so an agent has to guess what to send.`,
            fix: `Add a "type" (e.g. "string", "number", "boolean") to ${JSON.stringify(path)} in inputSchema.properties.`,
          },
    );
  }
  if (path !== '' && !path.endsWith('[]') && typeof schema.description !== 'string') {
    out.push({
      code: 'param-no-description',
      message: `${where} has no description.`,
      fix: declarative
        ? `Add toolparamdescription="…" to the form field named ${JSON.stringify(path.split('.').at(-1) ?? path)}.`
        : `Add a "description" to ${JSON.stringify(path)} in inputSchema.properties.`,
    });
  }
  return out;
}

/** "properties" that is not an object; "required" that is not names, or names no property has. */
function structureFindings(schema: Record<string, unknown>, where: string): Finding[] {
  const out: Finding[] = [];
  const properties = schema.properties;
  if (properties !== undefined && !isRecord(properties)) {
    out.push({
      code: 'schema-invalid',
      message: `${where}: "properties" is not an object.`,
      fix: 'Make "properties" an object that maps each parameter name to its schema.',
    });
  }
  const names = isRecord(properties) ? Object.keys(properties) : [];
  const required = schema.required;
  if (required === undefined) {
    return out;
  }
  if (!Array.isArray(required) || required.some(name => typeof name !== 'string')) {
    out.push({
      code: 'schema-invalid',
      message: `${where}: "required" is not a list of names.`,
      fix: 'Make "required" an array of parameter names (strings).',
    });
    return out;
  }
  for (const name of required) {
    if (typeof name === 'string' && !names.includes(name)) {
      out.push({
        code: 'required-not-property',
        message: `${where} requires ${JSON.stringify(name)}, which is not in its properties: no call can satisfy it.`,
        fix: `Add ${JSON.stringify(name)} to "properties", or remove it from "required".`,
      });
    }
  }
  return out;
}

/** Problems of one (sub)schema at `path` ("" is the root), recursing into properties and items. */
function schemaFindings(
  schema: Record<string, unknown>,
  path: string,
  declarative: boolean,
  depth = 0,
): Finding[] {
  const where = path === '' ? 'The input schema' : `Parameter ${JSON.stringify(path)}`;
  const out = [
    ...keywordFindings(schema, where),
    ...shapeFindings(schema, path, where, declarative),
    ...structureFindings(schema, where),
  ];
  if (depth >= PATH_DEPTH_LIMIT) {
    return out;
  }
  const properties = schema.properties;
  if (isRecord(properties)) {
    for (const [name, child] of Object.entries(properties)) {
      const childPath = path === '' ? name : `${path}.${name}`;
      out.push(
        ...(isRecord(child)
          ? schemaFindings(child, childPath, declarative, depth + 1)
          : [
              {
                code: 'schema-invalid' as const,
                message: `Parameter ${JSON.stringify(childPath)} is not a schema object.`,
                fix: `Give ${JSON.stringify(childPath)} a schema such as {"type": "string", "description": "…"}.`,
              },
            ]),
      );
    }
  }
  if (isRecord(schema.items)) {
    out.push(...schemaFindings(schema.items, `${path}[]`, declarative, depth + 1));
  }
  return out;
}

/** Findings for the registered tools of one page (all frames). */
export function lintTools(tools: readonly WebMcpToolInfo[]): WebMcpLintFinding[] {
  const frameCount = new Map<string, Set<string>>();
  for (const tool of tools) {
    const frames = frameCount.get(tool.name) ?? new Set<string>();
    frames.add(tool.frameId);
    frameCount.set(tool.name, frames);
  }
  return tools.flatMap(tool => {
    const found: Finding[] = [];
    if (tool.description.trim() === '') {
      found.push({
        code: 'no-description',
        message: 'The tool has no description, so an agent cannot tell what it does.',
        fix: tool.declarative
          ? 'Add tooldescription="…" to the <form>.'
          : 'Give registerTool a "description" that says what the tool does and when to use it.',
      });
    }
    if (tool.inputSchema !== undefined) {
      found.push(...schemaFindings(tool.inputSchema, '', tool.declarative));
    }
    const frames = frameCount.get(tool.name)?.size ?? 0;
    if (frames > 1) {
      found.push({
        code: 'duplicate-name',
        message: `${frames} frames of this page register a tool named ${JSON.stringify(tool.name)}: callers must pick the frame (frameId), and webmcp_ names get a __frameN suffix.`,
        fix: 'Give each frame’s tool its own name, or register the tool in one frame only.',
      });
    }
    return found.slice(0, PER_TOOL_LIMIT).map(finding => ({
      ...finding,
      toolName: tool.name,
      frameId: tool.frameId,
      ...(tool.mainFrame === false ? {frameUrl: tool.frameUrl} : {}),
    }));
  });
}

/**
 * Findings for declarative forms read from the page: a form without tooldescription is not
 * registered at all, so only the page itself shows it. Registered forms are linted as tools.
 */
export function lintForms(
  forms: readonly DeclarativeFormFacts[],
  registered: readonly WebMcpToolInfo[],
): WebMcpLintFinding[] {
  return forms.flatMap(form => {
    const isRegistered = registered.some(
      tool => tool.declarative && tool.name === form.toolName && tool.frameId === form.frameId,
    );
    if (isRegistered || form.hasDescription) {
      return [];
    }
    const base = {toolName: form.toolName, frameId: form.frameId};
    const findings: WebMcpLintFinding[] = [
      {
        ...base,
        code: 'form-no-tooldescription',
        message: `The <form toolname=${JSON.stringify(form.toolName)}> has no tooldescription, so the browser does not register it as a tool.`,
        fix: 'Add tooldescription="…" to the <form>, saying what submitting it does.',
      },
    ];
    for (const field of form.fields) {
      if (!field.described) {
        findings.push({
          ...base,
          code: 'param-no-description',
          message: `Form field ${JSON.stringify(field.name)} has no toolparamdescription.`,
          fix: `Add toolparamdescription="…" to the field named ${JSON.stringify(field.name)}.`,
        });
      }
    }
    return findings.slice(0, PER_TOOL_LIMIT);
  });
}
