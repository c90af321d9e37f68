/**
 * Text for console messages, built from the CDP values the browser already sent with each message
 * (value, description, preview): no round trip to the page. Format specifiers (%s %d %i %f %o %O %c)
 * are applied as the DevTools console does, and objects are shown by their previews, so a list line
 * reads `user {id: 7, name: 'Ada'}` rather than an opaque handle name.
 */
import type {Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {oneLine} from '../../../shared/inertText.js';

type RemoteObject = Protocol.Runtime.RemoteObject;
type ObjectPreview = Protocol.Runtime.ObjectPreview;
type PropertyPreview = Protocol.Runtime.PropertyPreview;

/** The first line of an error description ("Error: boom\n    at f (…)" → "Error: boom"). */
export function errorHeadline(description: string): string {
  const frameStart = description.search(/\n\s+at /);
  return frameStart === -1 ? description : description.slice(0, frameStart);
}

function quote(value: string): string {
  return `'${value}'`;
}

function firstLine(text: string, limit = 100): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

function formatPropertyPreview(property: PropertyPreview): string {
  if (property.valuePreview) {
    return formatPreview(property.valuePreview);
  }
  const value = property.value ?? property.type;
  if (property.type === 'string') {
    return quote(value);
  }
  if (property.type === 'function') {
    return 'ƒ';
  }
  if (property.subtype === 'error') {
    return errorHeadline(value);
  }
  return value;
}

function formatPreview(preview: ObjectPreview): string {
  const more = preview.overflow ? ', …' : '';
  if (preview.subtype === 'error') {
    return errorHeadline(preview.description ?? 'Error');
  }
  if (preview.entries) {
    const entries = preview.entries.map(entry =>
      entry.key
        ? `${formatPreview(entry.key)} => ${formatPreview(entry.value)}`
        : formatPreview(entry.value),
    );
    return `${preview.description ?? ''} {${entries.join(', ')}${preview.overflow ? ', …' : ''}}`;
  }
  if (preview.type !== 'object') {
    const description = preview.description ?? '';
    return preview.type === 'string' ? quote(description) : description;
  }
  if (preview.subtype === 'array' || preview.subtype === 'typedarray') {
    const items = preview.properties.map(formatPropertyPreview);
    return `[${items.join(', ')}${more}]`;
  }
  if (preview.subtype !== undefined && preview.subtype !== 'proxy') {
    return preview.description ?? preview.subtype;
  }
  const properties = preview.properties.map(
    property => `${property.name}: ${formatPropertyPreview(property)}`,
  );
  const body = `{${properties.join(', ')}${more}}`;
  const className = preview.description;
  return className && className !== 'Object' ? `${className} ${body}` : body;
}

/** One argument as the console shows it (strings raw at the top level, quoted inside previews). */
export function formatRemoteObject(object: RemoteObject): string {
  switch (object.type) {
    case 'string':
      return typeof object.value === 'string' ? object.value : (object.description ?? '');
    case 'undefined':
      return 'undefined';
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'symbol':
      return object.description ?? object.unserializableValue ?? String(object.value);
    case 'function':
      return `ƒ ${firstLine(object.description ?? 'function')}`;
    case 'object':
      break;
  }
  if (object.subtype === 'null') {
    return 'null';
  }
  if (object.subtype === 'error') {
    return errorHeadline(object.description ?? 'Error');
  }
  if (object.preview && object.subtype !== 'node') {
    return formatPreview(object.preview);
  }
  return object.description ?? object.className ?? 'Object';
}

/** The format specifiers console.log reads (`%%` is an escape, not an argument). */
const SPECIFIERS = ['s', 'd', 'i', 'f', 'o', 'O', 'c'] as const;
type Specifier = (typeof SPECIFIERS)[number];

function isSpecifier(char: string): char is Specifier {
  return SPECIFIERS.some(specifier => specifier === char);
}

function numberOf(object: RemoteObject | undefined, parse: (text: string) => number): string {
  if (!object) {
    return 'NaN';
  }
  if (typeof object.value === 'number') {
    return String(parse(String(object.value)));
  }
  const text = object.type === 'string' ? String(object.value) : (object.description ?? '');
  return String(parse(text));
}

/** The message text of console API arguments, with format specifiers applied. */
export function formatConsoleArgs(args: readonly RemoteObject[]): string {
  const [first, ...rest] = args;
  if (!first) {
    return '';
  }
  if (first.type !== 'string' || typeof first.value !== 'string' || !first.value.includes('%')) {
    return args.map(formatRemoteObject).join(' ');
  }
  const template = first.value;
  const remaining = [...rest];
  let text = '';
  for (let index = 0; index < template.length; index++) {
    const char = template.charAt(index);
    const next = template[index + 1];
    if (char !== '%' || next === undefined) {
      text += char;
      continue;
    }
    if (next === '%') {
      text += '%';
      index++;
      continue;
    }
    if (!isSpecifier(next)) {
      text += char;
      continue;
    }
    index++;
    const arg = remaining.shift();
    switch (next) {
      case 's':
      case 'o':
      case 'O':
        text += arg ? formatRemoteObject(arg) : `%${next}`;
        break;
      case 'd':
      case 'i':
        text += numberOf(arg, value => Math.trunc(Number.parseFloat(value)));
        break;
      case 'f':
        text += numberOf(arg, Number.parseFloat);
        break;
      case 'c':
        // CSS styling has no meaning in text.
        break;
    }
  }
  return [text, ...remaining.map(formatRemoteObject)].join(' ');
}

// Stack traces ------------------------------------------------------------------------------------

export interface RawCallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface RawStackTrace {
  description?: string | undefined;
  callFrames: RawCallFrame[];
  parent?: RawStackTrace | undefined;
}

const callFrameSchema = z.object({
  functionName: z.string(),
  url: z.string(),
  lineNumber: z.number(),
  columnNumber: z.number(),
});

export const rawStackTraceSchema: z.ZodType<RawStackTrace> = z.object({
  description: z.string().optional(),
  callFrames: z.array(callFrameSchema),
  get parent() {
    return rawStackTraceSchema.optional();
  },
});

const STACK_TRACE_MAX_LINES = 50;
const ASYNC_SEPARATOR_WIDTH = 40;
export const STACK_NOTE = 'Note: line and column numbers use 1-based indexing';

/** Frames puppeteer adds for its own evaluations, not the page's code. */
function isInternalFrame(frame: RawCallFrame): boolean {
  return frame.url.startsWith('pptr:');
}

function formatFrame(frame: RawCallFrame): string {
  const name = frame.functionName || '<anonymous>';
  if (!frame.url) {
    return `at ${name}`;
  }
  return `at ${name} (${frame.url}:${frame.lineNumber + 1}:${frame.columnNumber + 1})`;
}

/** Lines of a CDP stack trace (0-based positions shown 1-based), async parts separated. */
export function stackTraceLines(stack: RawStackTrace | undefined): string[] {
  const lines: string[] = [];
  let fragment: RawStackTrace | undefined = stack;
  let first = true;
  let depth = 0;
  while (fragment && depth < 32) {
    const frames = fragment.callFrames.filter(frame => !isInternalFrame(frame));
    if (frames.length > 0) {
      if (!first) {
        const description = fragment.description ?? '';
        // The page names its own tasks (console.createTask): one line.
        const prefix = `--- ${description === '' ? 'async' : oneLine(description)} `;
        lines.push(prefix + '-'.repeat(Math.max(0, ASYNC_SEPARATOR_WIDTH - prefix.length)));
      }
      lines.push(...frames.map(formatFrame));
    }
    first = false;
    fragment = fragment.parent;
    depth++;
  }
  return lines;
}

/** Frame lines of a V8 `error.stack` string ("    at f (u:1:2)" → "at f (u:1:2)"); already 1-based. */
export function stackStringFrames(stack: string): string[] {
  return stack
    .split('\n')
    .filter(line => /^\s+at /.test(line) && !line.includes('pptr:'))
    .map(line => line.trim());
}

/** Caps a stack to 50 lines, noting how many were left out. */
export function capStackLines(lines: readonly string[]): string[] {
  if (lines.length <= STACK_TRACE_MAX_LINES) {
    return [...lines];
  }
  const kept = lines.slice(0, STACK_TRACE_MAX_LINES);
  kept.push(`... and ${lines.length - STACK_TRACE_MAX_LINES} more frames`);
  return kept;
}
