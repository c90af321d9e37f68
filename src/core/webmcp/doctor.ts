/**
 * The WebMCP doctor: why a page's tools do not show up, and the exact next step. Facts are gathered
 * from the browser (version, WebMCP.enable, secure context, `document.modelContext`, the `tools`
 * permissions policy of every frame); `diagnose` turns them into problems, so the wording can be
 * tested without a browser for every case.
 */
import type {WebMcpDoctorReport, WebMcpProblem} from '../../shared/protocol.js';

/** chrome-devtools-mcp's WebMCP category needs Chrome 150+ (`--enable-features=WebMCP`). */
export const MIN_CHROME_VERSION = 150;
/** From 146 to 149 WebMCP existed only behind the older testing flags. */
const FIRST_PREVIEW_VERSION = 146;

export interface FrameFacts {
  frameId: string;
  url: string;
  /** Secure context type from Page.getFrameTree (Secure, SecureLocalhost, InsecureScheme, InsecureAncestor). */
  secureContextType: string | undefined;
  /** The `tools` permissions policy: undefined when the browser does not know the feature. */
  toolsAllowed: boolean | undefined;
  blockReason: string | undefined;
}

export interface DoctorFacts {
  browserRunning: boolean;
  mode: 'launch' | 'connect';
  /** The endpoint attached to in connect mode. */
  endpoint: string | undefined;
  browserVersion: string | undefined;
  /** The error WebMCP.enable gave on the page's own cdp, if any. */
  enableError: string | undefined;
  page:
    | {
        id: number;
        url: string;
        secureContextType: string | undefined;
        /** `document.modelContext` exists in the main frame; undefined when it could not be checked. */
        modelContext: boolean | undefined;
      }
    | undefined;
  /** The page's child frames (same-process and out-of-process). */
  frames: FrameFacts[];
  toolCount: number;
}

/** Major version from `Chrome/156.0…`, `HeadlessChrome/156…`, `Chromium/…`; undefined if unknown. */
export function majorVersion(version: string | undefined): number | undefined {
  const match = version === undefined ? null : /(?:Chrome|Chromium)\/(\d+)/i.exec(version);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function isSecure(type: string | undefined): boolean | undefined {
  if (type === undefined) {
    return undefined;
  }
  return type === 'Secure' || type === 'SecureLocalhost';
}

/** Domain missing: old browsers answer "'WebMCP.enable' wasn't found". */
function domainMissing(error: string | undefined): boolean {
  return error !== undefined && /wasn't found|not found|unknown method/i.test(error);
}

export function diagnose(facts: DoctorFacts): WebMcpDoctorReport {
  const notes: string[] = [];
  const base = {
    ...(facts.page ? {pageId: facts.page.id, pageUrl: facts.page.url} : {}),
    ...(facts.browserVersion === undefined ? {} : {browserVersion: facts.browserVersion}),
  };
  if (!facts.browserRunning) {
    const problem: WebMcpProblem = {
      code: 'browser-not-running',
      message: 'The browser is not running, so nothing could be checked.',
      fix: 'Call any tool that lists or opens pages (e.g. list_pages), then run the doctor again.',
    };
    return {available: false, ...base, problems: [problem], notes};
  }
  const problems = browserProblems(facts);
  const page = facts.page;
  if (page) {
    const found = pageProblem(facts, page, problems.length === 0);
    if (found?.problem) {
      problems.push(found.problem);
    }
    if (found?.note !== undefined) {
      notes.push(found.note);
    }
  }
  problems.push(...facts.frames.flatMap(frameProblems));
  if (page) {
    notes.push(
      `${facts.toolCount} WebMCP tool${facts.toolCount === 1 ? '' : 's'} registered on page ${page.id}; ${facts.frames.length} iframe${facts.frames.length === 1 ? '' : 's'} checked.`,
    );
  }
  const blocking = problems.some(
    p =>
      p.code === 'browser-too-old' ||
      p.code === 'domain-missing' ||
      p.code === 'feature-disabled' ||
      p.code === 'insecure-context',
  );
  return {available: !blocking, ...base, problems, notes};
}

/** The browser itself: too old, or without the WebMCP DevTools domain. */
function browserProblems(facts: DoctorFacts): WebMcpProblem[] {
  const problems: WebMcpProblem[] = [];
  const major = majorVersion(facts.browserVersion);
  const restartHint =
    facts.mode === 'connect'
      ? `Restart the browser at ${facts.endpoint ?? 'the --browserUrl address'} from Chrome ${MIN_CHROME_VERSION} or newer with --enable-features=WebMCP, or drop --browserUrl/--wsEndpoint so this app launches one.`
      : `Point --executablePath (or --channel) at Chrome ${MIN_CHROME_VERSION} or newer.`;
  if (major !== undefined && major < MIN_CHROME_VERSION) {
    problems.push({
      code: 'browser-too-old',
      message:
        major >= FIRST_PREVIEW_VERSION
          ? `This browser is ${facts.browserVersion ?? `Chrome ${major}`}; WebMCP there only exists behind the old --enable-features=WebMCPTesting,DevToolsWebMCPSupport flags and a different protocol.`
          : `This browser is ${facts.browserVersion ?? `Chrome ${major}`}; WebMCP needs Chrome ${MIN_CHROME_VERSION} or newer.`,
      fix: restartHint,
    });
  }
  if (domainMissing(facts.enableError)) {
    problems.push({
      code: 'domain-missing',
      message: `The browser has no WebMCP DevTools domain (WebMCP.enable failed: ${facts.enableError ?? ''}).`,
      fix: restartHint,
    });
  }
  return problems;
}

/**
 * The page: not a secure context, or `document.modelContext` missing on a secure page (only
 * worth saying when the browser itself looked fine).
 */
function pageProblem(
  facts: DoctorFacts,
  page: NonNullable<DoctorFacts['page']>,
  browserFine: boolean,
): {problem?: WebMcpProblem; note?: string} | undefined {
  const secure = isSecure(page.secureContextType);
  if (secure === false) {
    return {
      problem: {
        code: 'insecure-context',
        message: `Page ${page.id} (${page.url}) is not a secure context, so document.modelContext does not exist there.`,
        fix: 'Serve the page over https://, or from http://localhost or http://127.0.0.1, and load it again.',
      },
    };
  }
  if (page.modelContext === false && browserFine) {
    return {
      problem: {
        code: 'feature-disabled',
        message:
          facts.mode === 'connect'
            ? `The browser at ${facts.endpoint ?? '--browserUrl'} was started without --enable-features=WebMCP: document.modelContext is missing on a secure page.`
            : 'WebMCP is switched off in this browser although it was launched with --enable-features=WebMCP (a --chromeArg such as --disable-features=WebMCP overrides it).',
        fix:
          facts.mode === 'connect'
            ? 'Quit that browser and start it again with --enable-features=WebMCP added to its command line (keep --remote-debugging-port and --user-data-dir), or drop --browserUrl/--wsEndpoint so this app launches a browser with the flag.'
            : 'Remove the --chromeArg that disables WebMCP and restart the server.',
      },
    };
  }
  if (page.modelContext === undefined) {
    return {note: 'Could not check document.modelContext on the page (it may still be loading).'};
  }
  return undefined;
}

/** A child frame: not a secure context, or the `tools` permissions policy blocks it. */
function frameProblems(frame: FrameFacts): WebMcpProblem[] {
  if (isSecure(frame.secureContextType) === false) {
    return [
      {
        code: 'iframe-insecure',
        message: `The iframe ${frame.url || frame.frameId} is not a secure context, so it cannot register tools.`,
        fix: 'Serve the iframe (and every page above it) over https://, or from localhost or 127.0.0.1.',
        frameId: frame.frameId,
        frameUrl: frame.url,
      },
    ];
  }
  if (frame.toolsAllowed !== false) {
    return [];
  }
  const byHeader = frame.blockReason === 'Header';
  return [
    {
      code: 'iframe-not-allowed',
      message: byHeader
        ? `The iframe ${frame.url || frame.frameId} may not use WebMCP: a Permissions-Policy header blocks the "tools" feature.`
        : `The iframe ${frame.url || frame.frameId} may not use WebMCP: its <iframe> element lacks allow="tools" (cross-origin frames need it).`,
      fix: byHeader
        ? 'Allow the feature in the Permissions-Policy header, e.g. Permissions-Policy: tools=(self "https://the-iframe-origin").'
        : 'Add allow="tools" to that <iframe> element and reload the page.',
      frameId: frame.frameId,
      frameUrl: frame.url,
    },
  ];
}
