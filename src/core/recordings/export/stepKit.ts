/**
 * What every Playwright step writer shares: the step's context (the pages' variables, the call,
 * the test export that knows the recorded snapshots), the page variable a call acts on, and the
 * two ways a step ends without code (a skipped step says why; a malformed recording stops the
 * export).
 */
import type {RecordedElement} from '../../../shared/protocol.js';
import type {FieldKind, HelperName} from './context.js';
import type {ExportFiles, FileDecision} from './files.js';
import type {ExportPages} from './pages.js';
import type {RecordedCall} from '../replay/calls.js';

export type {HelperName} from './context.js';

/** What a step writer asks of the test export as a whole (testExport.ts keeps its state). */
export interface TestExport {
  /** The locator of the call's element argument `param`, in its frame; SkipStep when unknown. */
  locate(context: StepContext, param: string): {page: string; lines: string[]; loc: string};
  /** A field the agent filled: a later snapshot's change of its value is asserted. */
  noteField(call: RecordedCall, param: string, kind: FieldKind): void;
  /** Puts a helper function in the file; returns its name. */
  helper(name: HelperName): string;
  /** The call whose dialog a handle_dialog call answered (its handler is registered there). */
  dialogOpenedAt(call: RecordedCall): number | undefined;
  /** The emulated settings in force on the call's page (emulate's writer keeps it). */
  emulated(call: RecordedCall): Set<string>;
  /** The recorded paths a step may use: only files inside folders the user named. */
  readonly files: ExportFiles;
}

export interface StepContext {
  pages: ExportPages;
  call: RecordedCall;
  export: TestExport;
}

/** One recorded call → the lines of its test step. */
export type StepWriter = (context: StepContext) => string[];

/** The call has no code in the test; the message says why (shown under its comment). */
export class SkipStep extends Error {}

/** The call has no code of its own; the message, shown as it is, says where its effect went. */
export class NoteStep extends SkipStep {}

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

/** The locator of the call's element argument `param`, in its frame (SkipStep when unknown). */
export function locator(
  context: StepContext,
  param: string,
): {page: string; lines: string[]; loc: string} {
  return context.export.locate(context, param);
}

/** The value a file decision allows, or a skipped step saying why not. */
export function allowed(decision: FileDecision): string {
  if ('refused' in decision) {
    throw new SkipStep(decision.refused);
  }
  return decision.ok;
}
