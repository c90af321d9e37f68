/**
 * What every Playwright step writer shares: the step's context (the pages' variables, the call),
 * the page variable a call acts on, role-based locators for its recorded elements, and the two ways
 * a step ends without code (a skipped step says why; a malformed recording stops the export).
 */
import type {RecordedElement} from '../../shared/protocol.js';
import {locatorFor} from './exportLocators.js';
import type {ExportPages} from './exportPages.js';
import type {RecordedCall} from './replayCalls.js';

export interface StepContext {
  pages: ExportPages;
  call: RecordedCall;
}

/** One recorded call → the lines of its test step. */
export type StepWriter = (context: StepContext) => string[];

/** The call has no code in the test; the message says why (shown under its comment). */
export class SkipStep extends Error {}

/** A recorded value the tool never accepts: the file was made or changed by hand, not recorded. */
export class MalformedRecordingError extends Error {
  override name = 'MalformedRecordingError';
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function elementOf(call: RecordedCall, param: string): RecordedElement | undefined {
  return call.elements.find(element => element.param === param);
}

/** The page variable and its lookup lines, for the call's pageId (or the current page). */
export function pageOf({pages, call}: StepContext): {name: string; lines: string[]} {
  const pageId = typeof call.args.pageId === 'number' ? call.args.pageId : undefined;
  return pages.of(pageId, call);
}

/** The locator of the call's element argument `param` (a SkipStep when none was recorded). */
export function locator(
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
