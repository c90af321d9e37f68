/**
 * One line that says what a call did, in a person's words: the tool and what it acted on, built
 * from its arguments and the elements it resolved when it ran (role and name from the snapshot
 * the agent acted on): `click button "Press me"`, `fill textbox "Name" ← "Ada"`,
 * `navigate_page → example.org/cart`, `evaluate_script (12 lines)`. The Log shows it on every row
 * and searches it; a recording keeps what it is built from (the arguments and the callElements
 * event), so an opened recording reads the same. Arguments and element names are client and page
 * text: the line is one line, cut, and shown as text.
 */
import type {RecordedElement} from './recordingSchemas.js';
import {isRecord} from './values.js';

/** Longest quoted value (a name, a typed text) in the line. */
const VALUE_CHARS = 40;
/** Longest URL in the line (without its scheme). */
const URL_CHARS = 60;
/** Longest line. */
const LINE_CHARS = 160;

export interface DescribedCall {
  tool: string;
  args: Record<string, unknown>;
  /** Who the element arguments were when the call ran (callElements); absent: not known. */
  elements?: readonly RecordedElement[] | undefined;
}

export interface DescribeOptions {
  /** Whole URLs (scheme included, up to LINE_CHARS): where a person decides on the call. */
  fullUrls?: boolean;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function quoted(value: unknown): string {
  // Arguments are JSON: anything else (undefined) is shown as nothing.
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return `"${cut(oneLine(text), VALUE_CHARS)}"`;
}

function shownUrl(value: unknown, options: DescribeOptions): string {
  const url = oneLine(typeof value === 'string' ? value : '');
  if (options.fullUrls === true) {
    return cut(url, LINE_CHARS);
  }
  return cut(url.replace(/^https?:\/\//i, '').replace(/\/$/, ''), URL_CHARS);
}

function count(value: unknown, noun: string): string {
  const n = Array.isArray(value) ? value.length : 0;
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Where the path's last part starts (either slash). */
function baseName(value: unknown): string {
  const path = typeof value === 'string' ? value : '';
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

class Phrases {
  constructor(
    private readonly call: DescribedCall,
    readonly options: DescribeOptions,
  ) {}

  arg(name: string): unknown {
    return this.call.args[name];
  }

  /** The element an argument named: `button "Go"`, or its uid when it is not known. */
  element(param: string, uid: unknown = this.arg(param)): string {
    const found = this.call.elements?.find(element => element.param === param);
    if (found) {
      const name = oneLine(found.name);
      return name === '' ? `${found.role} (uid ${found.uid})` : `${found.role} ${quoted(name)}`;
    }
    return `uid ${typeof uid === 'string' ? cut(oneLine(uid), VALUE_CHARS) : '?'}`;
  }

  /** Every element argument the call resolved, in order. */
  elements(): string[] {
    return (this.call.elements ?? []).map(element => this.element(element.param));
  }
}

type Describer = (phrases: Phrases) => string;

function fillForm(p: Phrases): string {
  const given = p.arg('elements');
  const fields: unknown[] = Array.isArray(given) ? given : [];
  const shown = fields.slice(0, 2).map((field, index) => {
    const value = isRecord(field) ? field.value : undefined;
    return `${p.element(`elements[${index}].uid`, isRecord(field) ? field.uid : undefined)} ← ${quoted(value)}`;
  });
  const more = fields.length > 2 ? `, … ${fields.length - 2} more` : '';
  return `${count(fields, 'field')}: ${shown.join(', ')}${more}`;
}

function navigate(p: Phrases): string {
  const type = p.arg('type');
  if (type === 'back' || type === 'forward' || type === 'reload') {
    return type;
  }
  return `→ ${shownUrl(p.arg('url'), p.options)}`;
}

function script(p: Phrases): string {
  const source = p.arg('function');
  const what =
    typeof source === 'string'
      ? `(${source.split('\n').length} line${source.includes('\n') ? 's' : ''})`
      : baseName(p.arg('sourcePath'));
  const on = p.elements();
  return on.length === 0 ? what : `${what} on ${on.join(', ')}`;
}

function screenshot(p: Phrases): string {
  if (typeof p.arg('uid') === 'string') {
    return `of ${p.element('uid')}`;
  }
  return p.arg('fullPage') === true ? '(full page)' : '';
}

function waitFor(p: Phrases): string {
  const texts = p.arg('text');
  const list = Array.isArray(texts) ? texts : [];
  const more = list.length > 1 ? ` or ${list.length - 1} more` : '';
  return list.length === 0 ? '' : `${quoted(list[0])}${more}`;
}

const DESCRIBERS: Readonly<Record<string, Describer>> = {
  click: p => p.element('uid'),
  hover: p => p.element('uid'),
  fill: p => `${p.element('uid')} ← ${quoted(p.arg('value'))}`,
  fill_form: fillForm,
  drag: p => `${p.element('from_uid')} → ${p.element('to_uid')}`,
  upload_file: p => `${baseName(p.arg('filePath'))} → ${p.element('uid')}`,
  type_text: p => quoted(p.arg('text')),
  press_key: p => (typeof p.arg('key') === 'string' ? cut(String(p.arg('key')), VALUE_CHARS) : ''),
  click_at: p => `(${String(p.arg('x'))}, ${String(p.arg('y'))})`,
  navigate_page: navigate,
  new_page: p => `→ ${shownUrl(p.arg('url'), p.options)}`,
  select_page: p => `page ${String(p.arg('pageId'))}`,
  close_page: p => `page ${String(p.arg('pageId'))}`,
  evaluate_script: script,
  take_screenshot: screenshot,
  wait_for: waitFor,
  handle_dialog: p =>
    [p.arg('action'), p.arg('promptText') === undefined ? '' : quoted(p.arg('promptText'))]
      .filter(part => typeof part === 'string' && part !== '')
      .join(' '),
  resize_page: p => `${String(p.arg('width'))}×${String(p.arg('height'))}`,
  execute_webmcp_tool: p =>
    typeof p.arg('toolName') === 'string' ? cut(String(p.arg('toolName')), VALUE_CHARS) : '',
};

/** Any other tool: the elements it acted on, else the URL it was given. */
function fallback(p: Phrases): string {
  const on = p.elements();
  if (on.length > 0) {
    return on.join(', ');
  }
  return typeof p.arg('url') === 'string' ? `→ ${shownUrl(p.arg('url'), p.options)}` : '';
}

/** The call in one line: `click button "Press me"`. */
export function describeCall(call: DescribedCall, options: DescribeOptions = {}): string {
  const phrases = new Phrases(call, options);
  const describe = Object.hasOwn(DESCRIBERS, call.tool) ? DESCRIBERS[call.tool] : undefined;
  const rest = oneLine((describe ?? fallback)(phrases));
  return cut(rest === '' ? call.tool : `${call.tool} ${rest}`, LINE_CHARS);
}
