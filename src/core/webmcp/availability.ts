/**
 * Whether this browser has WebMCP, told to the browser's status once per browser: a browser too
 * old or without the DevTools domain says so at once; otherwise the first secure page answers
 * the real question (does `document.modelContext` exist?).
 */
import type {BrowserStatus} from '../../shared/protocol.js';
import type {ManagedBrowser} from '../browser/launch/ManagedBrowser.js';
import {evaluateInPage, PROBE_TIMEOUT_MS} from '../browser/evaluation.js';
import type {PageState} from '../browser/pages/PageState.js';
import {majorVersion, MIN_CHROME_VERSION} from './doctor.js';
import type {PageWebMcp} from './PageWebMcp.js';

/** `document.modelContext` in the main frame; undefined when the page could not be asked. */
export async function hasModelContext(page: PageState): Promise<boolean | undefined> {
  try {
    const {result} = await evaluateInPage(
      page,
      {expression: "'modelContext' in document", returnByValue: true},
      {timeoutMs: PROBE_TIMEOUT_MS},
    );
    return typeof result.value === 'boolean' ? result.value : undefined;
  } catch {
    return undefined;
  }
}

export class WebMcpAvailability {
  /** Availability was checked on a real secure page of the current browser. */
  #verified = false;
  #lastBrowserState: BrowserStatus['state'] | undefined;

  constructor(private readonly browser: ManagedBrowser) {}

  /** A tracker's WebMCP.enable failed: a browser without the domain has no WebMCP at all. */
  enableFailed(enableError: string | undefined): void {
    if (enableError !== undefined && /wasn't found|not found/i.test(enableError)) {
      this.browser.setWebMcpAvailability({
        available: false,
        reason: `This browser has no WebMCP DevTools domain. Use Chrome ${MIN_CHROME_VERSION} or newer with --enable-features=WebMCP.`,
      });
    }
  }

  /** The browser started or stopped; on start, every tracked page may answer the question. */
  onBrowserStatus(status: BrowserStatus, trackers: readonly PageWebMcp[]): void {
    const previous = this.#lastBrowserState;
    this.#lastBrowserState = status.state;
    if (status.state !== 'running' || previous === 'running') {
      if (status.state !== 'running') {
        this.#verified = false;
      }
      return;
    }
    const major = majorVersion(status.version);
    if (this.#verified) {
      // A page already answered the real question while the browser was starting.
    } else if (major !== undefined && major < MIN_CHROME_VERSION) {
      this.browser.setWebMcpAvailability({
        available: false,
        reason: `${status.version ?? 'This browser'} is too old for WebMCP; use Chrome ${MIN_CHROME_VERSION} or newer.`,
      });
    } else if (this.browser.mode === 'launch') {
      this.browser.setWebMcpAvailability({available: true});
    }
    for (const tracker of trackers) {
      void this.verify(tracker).catch(() => undefined);
    }
  }

  /** Once per browser, on the first secure page: does `document.modelContext` exist? */
  async verify(tracker: PageWebMcp): Promise<void> {
    if (this.#verified) {
      return;
    }
    const frame = tracker.pageCdp?.frames.get(tracker.page.mainFrameId);
    if (frame?.secureContextType !== 'Secure' && frame?.secureContextType !== 'SecureLocalhost') {
      return;
    }
    const present = await hasModelContext(tracker.page);
    if (present === undefined) {
      return;
    }
    this.#verified = true;
    this.browser.setWebMcpAvailability(
      present
        ? {available: true}
        : {
            available: false,
            reason:
              this.browser.mode === 'connect'
                ? 'The attached browser was started without --enable-features=WebMCP. Restart it with that flag.'
                : 'WebMCP is switched off in this browser (a --chromeArg disables it).',
          },
    );
  }
}
