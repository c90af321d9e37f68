/**
 * A recorded call's arguments made fit for the replay's browser: its page id mapped to the page the
 * replay created in its place, its element uids to the same elements (role, name, ancestry, nth) in
 * the replay page's latest snapshot, or a fresh one when the latest does not show them. Where the
 * uids go is what the tool's record declares today (its element paths).
 */
import {withElementArgument, type ElementPath} from '../../../shared/elementParams.js';
import type {RecordedElement} from '../../../shared/protocol.js';
import type {PageState} from '../../browser/pages/PageState.js';
import {snapshotFeature, takeSnapshot} from '../../browser/snapshot/snapshot.js';
import type {RecordedCall} from './calls.js';
import type {ReplayPageMap} from './pages.js';

/** The replay's own pages: those it sees, and its own selected page. */
export interface ReplayPages {
  list(): PageState[];
  readonly selected: PageState | undefined;
}

export class ReplayMappingError extends Error {
  override name = 'ReplayMappingError';
}

function describeElement(element: RecordedElement): string {
  const within = element.ancestry[0]
    ? ` inside ${element.ancestry[0].role} ${JSON.stringify(element.ancestry[0].name)}`
    : '';
  return `${element.role} ${JSON.stringify(element.name)}${within}`;
}

async function findElement(page: PageState, element: RecordedElement): Promise<string> {
  const store = snapshotFeature.get(page);
  const inLatest = store.hasSnapshot ? store.find(element) : undefined;
  if (inLatest !== undefined) {
    return inLatest;
  }
  await takeSnapshot(page, {verbose: false});
  const inFresh = store.find(element);
  if (inFresh === undefined) {
    throw new ReplayMappingError(
      `The element of ${element.param} (${describeElement(element)}) is not on page ${page.id} any more: no node with that role and name in a fresh snapshot.`,
    );
  }
  return inFresh;
}

export interface MappedCall {
  args: Record<string, unknown>;
  /** The replay page the call acts on, when it names one or acts on elements. */
  pageId?: number;
}

/**
 * The call's arguments for the replay; throws ReplayMappingError when a page or element is gone.
 * `elementPaths` is where the tool takes uids today (undefined: no such tool; the run says so).
 */
export async function mapCallArguments(
  call: RecordedCall,
  pageMap: ReplayPageMap,
  pages: ReplayPages,
  elementPaths: readonly ElementPath[] | undefined,
): Promise<MappedCall> {
  let args: Record<string, unknown> = {...call.args};
  let page: PageState | undefined;
  if (typeof call.args.pageId === 'number') {
    const mapped = pageMap.get(call.args.pageId);
    if (mapped === undefined) {
      throw new ReplayMappingError(
        `Page ${call.args.pageId} of the recording has no counterpart in the replay: the call that opened it did not open a page here.`,
      );
    }
    args.pageId = mapped;
    page = pages.list().find(candidate => candidate.id === mapped);
  }
  if (call.elements.length > 0 && elementPaths !== undefined) {
    page ??= pages.selected;
    if (!page) {
      throw new ReplayMappingError('No page is open to look the elements up in.');
    }
    for (const element of call.elements) {
      const mapped = withElementArgument(
        elementPaths,
        args,
        element.param,
        await findElement(page, element),
      );
      if (mapped === undefined) {
        throw new ReplayMappingError(
          `${call.tool} takes no element at ${element.param} any more: the tool's parameters changed since the recording.`,
        );
      }
      args = mapped;
    }
  }
  return {args, ...(page ? {pageId: page.id} : {})};
}
