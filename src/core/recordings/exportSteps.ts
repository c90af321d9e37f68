/**
 * One recorded call → the lines of a Playwright Test step: the action with role-based locators,
 * then an assertion of what the agent checked (where it navigated, text it read back, what a
 * script returned). Calls that only read state the test does not need (listings, screenshots)
 * become a comment, so every step still names its original call.
 */
import {z} from 'zod';
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from '../../shared/boundedValue.js';
import type {RecordedElement} from '../../shared/protocol.js';
import {jsString, jsValue} from './exportLiterals.js';
import {locatorFor} from './exportLocators.js';
import type {ExportPages} from './exportPages.js';
import type {RecordedCall} from './replayCalls.js';

export interface StepContext {
  pages: ExportPages;
  call: RecordedCall;
}

type StepWriter = (context: StepContext) => string[];

/** Headings asserted per snapshot: what the agent read first, bounded so the test stays short. */
const SNAPSHOT_ASSERTIONS = 3;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function elementOf(call: RecordedCall, param: string): RecordedElement | undefined {
  return call.elements.find(element => element.param === param);
}

class SkipStep extends Error {}

/** A recorded value the tool never accepts: the file was made or changed by hand, not recorded. */
export class MalformedRecordingError extends Error {
  override name = 'MalformedRecordingError';
}

const navigationTypeSchema = z.enum(['url', 'back', 'forward', 'reload']).optional();

/** The page variable and its lookup lines, for the call's pageId (or the current page). */
function pageOf({pages, call}: StepContext): {name: string; lines: string[]} {
  const pageId = typeof call.args.pageId === 'number' ? call.args.pageId : undefined;
  return pages.of(pageId, call);
}

function locator(
  context: StepContext,
  param: string,
): {page: string; lines: string[]; loc: string} {
  const page = pageOf(context);
  const element = elementOf(context.call, param);
  const loc = element ? locatorFor(page.name, element) : '';
  if (loc === '') {
    throw new SkipStep(`no role or name was recorded for ${param}`);
  }
  return {page: page.name, lines: page.lines, loc};
}

/** The URL the page had after the call, for toHaveURL (not for blank or browser pages). */
function urlAfter(call: RecordedCall, pageId: number | undefined): string | undefined {
  const id = pageId ?? call.ended?.pageId;
  const info = call.pagesAfter.find(candidate =>
    id === undefined ? candidate.selected : candidate.id === id,
  );
  return info && /^https?:|^file:/.test(info.url) ? info.url : undefined;
}

function urlAssertion(page: string, url: string | undefined): string[] {
  return url === undefined ? [] : [`await expect(${page}).toHaveURL(${jsString(url)});`];
}

/** Heading names of a snapshot's text (`12 heading "Title" level=1`), first few. */
function headingsOf(snapshot: string): string[] {
  const names: string[] = [];
  for (const match of snapshot.matchAll(/^\s*\d+ heading ("(?:[^"\\]|\\.)*")/gm)) {
    try {
      const name: unknown = JSON.parse(match[1] ?? '');
      if (typeof name === 'string' && name.trim() !== '' && !name.endsWith('…')) {
        names.push(name);
      }
    } catch {
      continue;
    }
    if (names.length >= SNAPSHOT_ASSERTIONS) {
      break;
    }
  }
  return names;
}

function scriptResult(resultText: string): {value: unknown} | undefined {
  const match = /Script ran on page and returned:\n```json\n([\s\S]*?)\n```/.exec(resultText);
  if (!match) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(match[1] ?? '');
  } catch {
    return undefined;
  }
  // A page may return any depth; the assertion is written only for what a test can hold.
  if (nestsDeeperThan(value, VALUE_DEPTH_LIMIT)) {
    throw new SkipStep(`the recorded result nests deeper than ${VALUE_DEPTH_LIMIT} levels`);
  }
  return {value};
}

/** The navigation a navigate_page call did, as a Playwright page method. */
function navigationAction(call: RecordedCall): string {
  const type = navigationTypeSchema.safeParse(call.args.type);
  if (!type.success) {
    throw new MalformedRecordingError(
      `call #${call.index} navigate_page has type ${jsValue(call.args.type).slice(0, 60)}, which navigate_page never accepts (url, back, forward or reload)`,
    );
  }
  switch (type.data ?? 'url') {
    case 'back':
      return 'goBack()';
    case 'forward':
      return 'goForward()';
    case 'reload':
      return 'reload()';
    case 'url':
      return `goto(${jsString(text(call.args.url) ?? '')})`;
  }
}

const navigation: Record<string, StepWriter> = {
  new_page: ({pages, call}) => {
    const url = text(call.args.url) ?? 'about:blank';
    const recordedId = call.ended?.pageId ?? call.newPageIds.at(-1);
    const current = pages.current;
    const opened = pages.open(recordedId);
    if (call.args.background === true) {
      // A background tab does not become the page later calls without a pageId act on.
      pages.current = current;
    }
    return [
      ...(opened.create === undefined ? [] : [opened.create]),
      `await ${opened.name}.goto(${jsString(url)});`,
      ...urlAssertion(opened.name, urlAfter(call, recordedId)),
    ];
  },
  navigate_page: context => {
    const {call} = context;
    const page = pageOf(context);
    const action = navigationAction(call);
    const pageId = typeof call.args.pageId === 'number' ? call.args.pageId : undefined;
    return [
      ...page.lines,
      `await ${page.name}.${action};`,
      ...urlAssertion(page.name, urlAfter(call, pageId)),
    ];
  },
  select_page: context => {
    const page = pageOf(context);
    context.pages.current = page.name;
    return [...page.lines, `await ${page.name}.bringToFront();`];
  },
  close_page: context => {
    const page = pageOf(context);
    return [...page.lines, `await ${page.name}.close();`];
  },
  wait_for: context => {
    const page = pageOf(context);
    const texts = Array.isArray(context.call.args.text)
      ? context.call.args.text.flatMap((value: unknown) =>
          typeof value === 'string' ? [value] : [],
        )
      : [];
    if (texts.length === 0) {
      throw new SkipStep('no text to wait for');
    }
    const locators = texts.map(value => `${page.name}.getByText(${jsString(value)})`);
    const either = locators.slice(1).reduce((all, next) => `${all}.or(${next})`, locators[0] ?? '');
    return [...page.lines, `await expect(${either}.first()).toBeVisible();`];
  },
  take_snapshot: context => {
    const page = pageOf(context);
    const headings = headingsOf(context.call.ended?.text ?? '');
    if (headings.length === 0) {
      throw new SkipStep('the snapshot showed no heading to check');
    }
    return [
      ...page.lines,
      ...headings.map(
        name =>
          `await expect(${page.name}.getByRole('heading', { name: ${jsString(name)}, exact: true }).first()).toBeVisible();`,
      ),
    ];
  },
};

const input: Record<string, StepWriter> = {
  click: context => {
    const {lines, loc} = locator(context, 'uid');
    return [
      ...lines,
      `await ${loc}.${context.call.args.dblClick === true ? 'dblclick' : 'click'}();`,
    ];
  },
  click_at: context => {
    const page = pageOf(context);
    const {x, y, dblClick} = context.call.args;
    if (typeof x !== 'number' || typeof y !== 'number') {
      throw new SkipStep('no coordinates were recorded');
    }
    const options = dblClick === true ? ', { clickCount: 2 }' : '';
    return [...page.lines, `await ${page.name}.mouse.click(${x}, ${y}${options});`];
  },
  hover: context => {
    const {lines, loc} = locator(context, 'uid');
    return [...lines, `await ${loc}.hover();`];
  },
  fill: context => {
    const {lines, loc} = locator(context, 'uid');
    return [...lines, `await fillField(${loc}, ${jsString(text(context.call.args.value) ?? '')});`];
  },
  fill_form: context => {
    const list = Array.isArray(context.call.args.elements) ? context.call.args.elements : [];
    return list.flatMap((entry: unknown, index) => {
      const value =
        typeof entry === 'object' && entry !== null && 'value' in entry
          ? text(entry.value)
          : undefined;
      const {lines, loc} = locator(context, `elements[${index}].uid`);
      return [...lines, `await fillField(${loc}, ${jsString(value ?? '')});`];
    });
  },
  drag: context => {
    const from = locator(context, 'from_uid');
    const to = locator(context, 'to_uid');
    return [...from.lines, `await ${from.loc}.dragTo(${to.loc});`];
  },
  press_key: context => {
    const page = pageOf(context);
    return [
      ...page.lines,
      `await ${page.name}.keyboard.press(${jsString(text(context.call.args.key) ?? '')});`,
    ];
  },
  type_text: context => {
    const page = pageOf(context);
    const submit = text(context.call.args.submitKey);
    return [
      ...page.lines,
      `await ${page.name}.keyboard.type(${jsString(text(context.call.args.text) ?? '')});`,
      ...(submit === undefined ? [] : [`await ${page.name}.keyboard.press(${jsString(submit)});`]),
    ];
  },
  evaluate_script: context => {
    const {call} = context;
    const result = scriptResult(call.ended?.text ?? '');
    const fn = text(call.args.function) ?? '';
    const args = Array.isArray(call.args.args) ? call.args.args : [];
    if (!result) {
      throw new SkipStep('the recorded result is not a JSON value');
    }
    if (args.length > 1) {
      throw new SkipStep('scripts on several elements are not exported');
    }
    const target = args.length === 1 ? locator(context, 'args[0]') : undefined;
    const page = target ? {name: target.page, lines: target.lines} : pageOf(context);
    // The agent's function stays a string literal in the file; the page turns it back into a
    // function, as the recorded call did.
    const run = target
      ? `${target.loc}.evaluate((element, source) => globalThis.eval('(' + source + ')')(element), ${jsString(fn)})`
      : `${page.name}.evaluate(source => globalThis.eval('(' + source + ')')(), ${jsString(fn)})`;
    return [...page.lines, `expect(await ${run}).toEqual(${jsValue(result.value)});`];
  },
};

/** Looked up by own name only: a recorded tool called `constructor` or `__proto__` has none. */
const WRITERS = new Map<string, StepWriter>([
  ...Object.entries(navigation),
  ...Object.entries(input),
]);

/** The step's code lines, or why the call has none (shown as a note under its comment). */
export function stepLines(context: StepContext): {lines: string[]} | {note: string} {
  const {call} = context;
  if (call.ended === undefined) {
    return {note: 'not exported: the recording ends before the call did'};
  }
  if (call.ended.status !== 'ok') {
    return {note: `not exported: the call ended ${call.ended.status} in the recording`};
  }
  const writer = WRITERS.get(call.tool);
  if (!writer) {
    return {note: 'nothing to do in a test'};
  }
  try {
    return {lines: writer(context)};
  } catch (error) {
    if (error instanceof SkipStep) {
      return {note: `not exported: ${error.message}`};
    }
    throw error;
  }
}
