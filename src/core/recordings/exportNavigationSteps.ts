/**
 * Step writers of the tools that open, choose, navigate and read pages: the navigation as a page
 * method, then what the agent saw (the URL it arrived at, the text it waited for, the headings of
 * its snapshot).
 */
import {z} from 'zod';
import {jsString, jsValue} from './exportLiterals.js';
import {MalformedRecordingError, pageOf, SkipStep, text, type StepWriter} from './exportStepKit.js';
import type {RecordedCall} from './replayCalls.js';

/** Headings asserted per snapshot: what the agent read first, bounded so the test stays short. */
const SNAPSHOT_ASSERTIONS = 3;

const navigationTypeSchema = z.enum(['url', 'back', 'forward', 'reload']).optional();

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

export const navigationSteps = {
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
  // --slim's navigate: a URL on the selected page.
  navigate: context => {
    const page = pageOf(context);
    return [
      ...page.lines,
      `await ${page.name}.goto(${jsString(text(context.call.args.url) ?? '')});`,
      ...urlAssertion(page.name, urlAfter(context.call, undefined)),
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
} satisfies Record<string, StepWriter>;
