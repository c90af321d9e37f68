/**
 * Console messages of one page, per navigation: console API calls and browser log entries (from
 * puppeteer's `console` event), uncaught exceptions and unhandled rejections (Runtime.exceptionThrown
 * on puppeteer's own cdp, so the exception object stays reachable for its cause chain), and
 * DevTools Issues (puppeteer's `issue` event, Audits domain) aggregated by kind.
 *
 * Per message only the CDP values already received are kept (type, argument values and previews,
 * raw stack); the text is built on first use and cached. Nothing here calls the browser while
 * collecting or listing; details (argument values, cause chains) are fetched by get_console_message.
 */
import {
  CDPSession,
  type ConsoleMessage,
  type Issue,
  type Page,
  type Protocol,
} from 'puppeteer-core';
import type {PageState} from '../pages/PageState.js';
import {
  errorHeadline,
  formatConsoleArgs,
  rawStackTraceSchema,
  type RawStackTrace,
} from './consoleFormat.js';
import {affectedResource, issueKind} from './issues.js';
import {NavigationLog, PRESERVED_NAVIGATIONS} from './NavigationLog.js';

/** chrome-devtools-mcp keeps 10,000 messages per navigation; so do we. */
export const MAX_MESSAGES_PER_NAVIGATION = 10_000;
/** Distinct resources kept per aggregated issue (its count keeps growing). */
const MAX_ISSUE_RESOURCES = 20;
/** Distinct issue payloads remembered per navigation to count repeats once. */
const MAX_SEEN_ISSUES = 1_000;

type RemoteObject = Protocol.Runtime.RemoteObject;

/** puppeteer's own cdp for a page (internal `_client()`): console and exception objects live there. */
function puppeteerCdp(page: Page): CDPSession | undefined {
  const method: unknown = Reflect.get(page, '_client');
  if (typeof method !== 'function') {
    return undefined;
  }
  const cdp: unknown = Reflect.apply(method, page, []);
  return cdp instanceof CDPSession ? cdp : undefined;
}

/**
 * The raw CDP stack of a puppeteer ConsoleMessage (internal `_rawStackTrace()`), kept unparsed:
 * it is validated only when shown. Falls back to the public locations (no function names).
 */
function rawStackOf(message: ConsoleMessage): unknown {
  const method: unknown = Reflect.get(message, '_rawStackTrace');
  if (typeof method === 'function') {
    const raw: unknown = Reflect.apply(method, message, []);
    return raw;
  }
  const frames = message.stackTrace().map(location => ({
    functionName: '',
    url: location.url ?? '',
    lineNumber: location.lineNumber ?? 0,
    columnNumber: location.columnNumber ?? 0,
  }));
  return frames.length > 0 ? {callFrames: frames} : undefined;
}

/** A console API call or a browser log entry. */
export class ApiMessageEntry {
  readonly kind = 'message';
  #text: string | undefined;

  constructor(
    readonly id: number,
    readonly type: string,
    /** The CDP values of the arguments (objects stay alive in the page until it navigates). */
    readonly args: readonly RemoteObject[],
    /** puppeteer's text, used when there are no arguments (browser log entries). */
    private readonly plainText: string,
    private readonly rawStack: unknown,
    /** The cdp the argument objects belong to. */
    readonly cdp: CDPSession | undefined,
  ) {}

  get argCount(): number {
    return this.args.length;
  }

  get stack(): RawStackTrace | undefined {
    if (this.rawStack === undefined) {
      return undefined;
    }
    const parsed = rawStackTraceSchema.safeParse(this.rawStack);
    return parsed.success ? parsed.data : undefined;
  }

  text(): string {
    if (this.#text === undefined) {
      const text = this.args.length > 0 ? formatConsoleArgs(this.args) : this.plainText;
      if (this.type === 'assert') {
        this.#text = text === 'console.assert' ? 'Assertion failed' : `Assertion failed: ${text}`;
      } else {
        this.#text = text;
      }
    }
    return this.#text;
  }
}

/** An uncaught exception or unhandled promise rejection, listed as an error. */
export class ExceptionEntry {
  readonly kind = 'exception';
  readonly type = 'error';
  readonly argCount = 0;
  #text: string | undefined;

  constructor(
    readonly id: number,
    readonly details: Protocol.Runtime.ExceptionDetails,
    /** The cdp the exception object belongs to (for its cause chain). */
    readonly cdp: CDPSession | undefined,
  ) {}

  get stack(): RawStackTrace | undefined {
    return this.details.stackTrace;
  }

  text(): string {
    if (this.#text === undefined) {
      const {text, exception} = this.details;
      let headline: string | undefined;
      if (exception) {
        if (exception.type === 'object' && exception.subtype !== 'null') {
          headline = errorHeadline(exception.description ?? exception.className ?? 'Object');
        } else {
          headline = formatConsoleArgs([exception]);
        }
      }
      this.#text = headline === undefined || text.includes(headline) ? text : `${text} ${headline}`;
    }
    return this.#text;
  }

  /** First cause, from the preview the browser already sent (no round trip). */
  previewCause(): string | undefined {
    const cause = this.details.exception?.preview?.properties.find(
      property => property.name === 'cause',
    );
    if (!cause) {
      return undefined;
    }
    return errorHeadline(cause.value ?? cause.type);
  }
}

/** DevTools Issues of one kind within a navigation. */
export class IssueEntry {
  readonly kind = 'issue';
  readonly type = 'issue';
  readonly argCount = 0;
  count = 0;
  readonly resources: string[] = [];

  constructor(
    readonly id: number,
    readonly code: string,
    readonly title: string,
    readonly description: string,
  ) {}

  text(): string {
    return this.title;
  }
}

export type ConsoleEntry = ApiMessageEntry | ExceptionEntry | IssueEntry;

export class ConsoleCollector {
  readonly log: NavigationLog<ConsoleEntry>;
  #cdp: CDPSession | undefined;
  #issues = new Map<string, IssueEntry>();
  #seenIssues = new Set<string>();
  readonly #unsubscribe: (() => void)[] = [];

  constructor(private readonly state: PageState) {
    this.log = new NavigationLog<ConsoleEntry>({
      perNavigationLimit: MAX_MESSAGES_PER_NAVIGATION,
      preservedNavigations: PRESERVED_NAVIGATIONS,
      onEvict: (entry, reason) => {
        // Still-open documents keep argument objects alive until released; old documents are gone.
        if (reason === 'full' && entry.kind === 'message') {
          releaseArgs(entry);
        }
      },
    });
    const page = state.page;
    const onConsole = (message: ConsoleMessage): void => this.#onConsole(message);
    const onIssue = (issue: Issue): void => this.#onIssue(issue);
    page.on('console', onConsole);
    page.on('issue', onIssue);
    this.#unsubscribe.push(() => page.off('console', onConsole));
    this.#unsubscribe.push(() => page.off('issue', onIssue));

    const onNavigated = (event: Protocol.Page.FrameNavigatedEvent): void => {
      if (event.frame.parentId === undefined) {
        this.#startNavigation();
      }
    };
    state.cdp.on('Page.frameNavigated', onNavigated);
    this.#unsubscribe.push(() => state.cdp.off('Page.frameNavigated', onNavigated));
    this.#attachExceptions();
  }

  #onException = (event: Protocol.Runtime.ExceptionThrownEvent): void => {
    this.log.add(new ExceptionEntry(this.log.allocateId(), event.exceptionDetails, this.#cdp));
  };

  /** Listens on puppeteer's cdp; follows it if puppeteer swapped it (prerender activation). */
  #attachExceptions(): void {
    const cdp = puppeteerCdp(this.state.page);
    if (cdp === this.#cdp) {
      return;
    }
    this.#cdp?.off('Runtime.exceptionThrown', this.#onException);
    this.#cdp = cdp;
    cdp?.on('Runtime.exceptionThrown', this.#onException);
  }

  #onConsole(message: ConsoleMessage): void {
    this.log.add(
      new ApiMessageEntry(
        this.log.allocateId(),
        message.type(),
        message.args().map(arg => arg.remoteObject()),
        message.text(),
        rawStackOf(message),
        this.#cdp,
      ),
    );
  }

  #onIssue(issue: Issue): void {
    const kind = issueKind(issue.code, issue.details);
    const resource = affectedResource(issue.details);
    const fingerprint = `${kind.key}\n${resource}`;
    if (this.#seenIssues.has(fingerprint)) {
      return;
    }
    if (this.#seenIssues.size < MAX_SEEN_ISSUES) {
      this.#seenIssues.add(fingerprint);
    }
    let entry = this.#issues.get(kind.key);
    if (!entry) {
      entry = new IssueEntry(this.log.allocateId(), issue.code, kind.title, kind.description);
      this.#issues.set(kind.key, entry);
      this.log.add(entry);
    }
    entry.count++;
    if (entry.resources.length < MAX_ISSUE_RESOURCES) {
      entry.resources.push(resource);
    }
    this.log.touch();
  }

  #startNavigation(): void {
    this.log.startNavigation();
    this.#issues = new Map();
    this.#seenIssues = new Set();
    this.#attachExceptions();
  }

  entries(includePreserved: boolean): readonly ConsoleEntry[] {
    return this.log.entries(includePreserved);
  }

  find(id: number): ConsoleEntry | undefined {
    return this.log.find(id);
  }

  dispose(): void {
    for (const unsubscribe of this.#unsubscribe) {
      unsubscribe();
    }
    this.#cdp?.off('Runtime.exceptionThrown', this.#onException);
    this.#cdp = undefined;
  }
}

function releaseArgs(entry: ApiMessageEntry): void {
  const cdp = entry.cdp;
  if (!cdp) {
    return;
  }
  for (const arg of entry.args) {
    if (arg.objectId !== undefined) {
      void cdp.send('Runtime.releaseObject', {objectId: arg.objectId}).catch(() => undefined);
    }
  }
}
