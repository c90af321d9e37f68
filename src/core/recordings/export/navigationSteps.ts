/**
 * Step writers of the tools that open, choose, navigate and read pages: the navigation as a page
 * method; what the agent read (the text it waited for; a snapshot's changes, compared by the
 * test export) as assertions. The URL a navigation led to is asserted by the test export.
 */
import {z} from 'zod';
import {jsString, jsValue} from './literals.js';
import {isFileUrl} from './files.js';
import {
  allowed,
  MalformedRecordingError,
  pageOf,
  SkipStep,
  text,
  type StepContext,
  type StepWriter,
} from './stepKit.js';

const navigationTypeSchema = z.enum(['url', 'back', 'forward', 'reload']).optional();

/** A URL to open as a literal: a local file only inside a folder the user named. */
function urlLiteral(context: StepContext, url: string): string {
  return jsString(isFileUrl(url) ? allowed(context.export.files.fileUrl(url)) : url);
}

/** The navigation a navigate_page call did, as a Playwright page method. */
function navigationAction(context: StepContext): string {
  const {call} = context;
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
      return `goto(${urlLiteral(context, text(call.args.url) ?? '')})`;
  }
}

export const navigationSteps = {
  new_page: context => {
    const {pages, call} = context;
    const url = urlLiteral(context, text(call.args.url) ?? 'about:blank');
    const recordedId = call.ended?.pageId ?? call.newPageIds.at(-1);
    const current = pages.current;
    const opened = pages.open(recordedId);
    if (call.args.background === true) {
      // A background tab does not become the page later calls without a pageId act on.
      pages.current = current;
    }
    return [
      ...(opened.create === undefined ? [] : [opened.create]),
      `await ${opened.name}.goto(${url});`,
    ];
  },
  navigate_page: context => {
    const page = pageOf(context);
    return [...page.lines, `await ${page.name}.${navigationAction(context)};`];
  },
  // --slim's navigate: a URL on the selected page.
  navigate: context => {
    const page = pageOf(context);
    return [
      ...page.lines,
      `await ${page.name}.goto(${urlLiteral(context, text(context.call.args.url) ?? '')});`,
    ];
  },
  select_page: {
    reads: context => {
      const page = pageOf(context);
      context.pages.current = page.name;
      return [...page.lines, `await ${page.name}.bringToFront();`];
    },
  },
  close_page: context => {
    const page = pageOf(context);
    return [...page.lines, `await ${page.name}.close();`];
  },
  wait_for: {
    reads: context => {
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
      const either = locators
        .slice(1)
        .reduce((all, next) => `${all}.or(${next})`, locators[0] ?? '');
      return [...page.lines, `await expect(${either}.first()).toBeVisible();`];
    },
  },
  // What the snapshot showed is compared with the one before it by the test export.
  take_snapshot: {reads: context => pageOf(context).lines},
} satisfies Record<string, StepWriter | {reads: StepWriter}>;
