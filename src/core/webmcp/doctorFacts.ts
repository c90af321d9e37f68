/**
 * The facts the WebMCP doctor reasons about (doctor.ts), read from the browser: its version and
 * mode, WebMCP.enable's error, the page's secure context and `document.modelContext`, and the
 * `tools` permissions policy of every child frame.
 */
import type {ManagedBrowser} from '../browser/launch/ManagedBrowser.js';
import {sendUntyped} from '../browser/cdp.js';
import type {PageState} from '../browser/pages/PageState.js';
import {hasModelContext} from './availability.js';
import {permissionsPolicyStateSchema} from './cdpSchemas.js';
import type {DoctorFacts, FrameFacts} from './doctor.js';
import type {PageWebMcp} from './PageWebMcp.js';

/** What is known without a page: the browser's side only. */
export function browserFacts(browser: ManagedBrowser): DoctorFacts {
  return {
    browserRunning: browser.chromium?.connected === true,
    mode: browser.mode,
    endpoint: browser.endpoint,
    browserVersion: browser.status.version,
    enableError: undefined,
    page: undefined,
    frames: [],
    toolCount: 0,
  };
}

export async function pageFacts(
  browser: ManagedBrowser,
  page: PageState,
  tracker: PageWebMcp,
): Promise<DoctorFacts> {
  const base = browserFacts(browser);
  await tracker.ready;
  const {frameTree} = await page.cdp.send('Page.getFrameTree');
  return {
    ...base,
    enableError: tracker.enableError,
    toolCount: tracker.entries().length,
    page: {
      id: page.id,
      url: frameTree.frame.url + (frameTree.frame.urlFragment ?? ''),
      secureContextType: frameTree.frame.secureContextType,
      modelContext: await hasModelContext(page),
    },
    frames: await frameFacts(page, tracker),
  };
}

async function frameFacts(page: PageState, tracker: PageWebMcp): Promise<FrameFacts[]> {
  const frames: FrameFacts[] = [];
  for (const {frame, source} of tracker.allFrames()) {
    if (frame.id === page.mainFrameId) {
      continue;
    }
    let toolsAllowed: boolean | undefined;
    let blockReason: string | undefined;
    try {
      const {states} = await sendUntyped(
        source.cdp,
        'Page.getPermissionsPolicyState',
        {frameId: frame.id},
        permissionsPolicyStateSchema,
      );
      const state = states.find(candidate => candidate.feature === 'tools');
      toolsAllowed = state?.allowed;
      blockReason = state?.locator?.blockReason;
    } catch {
      // Frames that are gone or not yet committed cannot be asked.
    }
    // An out-of-process iframe also shows up (as a placeholder) in its parent's cdp.
    const existing = frames.find(candidate => candidate.frameId === frame.id);
    if (existing) {
      if (source.kind === 'oopif') {
        existing.toolsAllowed = toolsAllowed;
        existing.blockReason = blockReason;
        existing.secureContextType = frame.secureContextType;
      }
      continue;
    }
    frames.push({
      frameId: frame.id,
      url: frame.url,
      secureContextType: frame.secureContextType,
      toolsAllowed,
      blockReason,
    });
  }
  return frames;
}
