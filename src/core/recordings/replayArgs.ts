/**
 * A recorded call's arguments made fit for the replay's browser: its page id mapped to the page the
 * replay created in its place, its element uids to the same elements (role, name, ancestry, nth) in
 * the replay page's latest snapshot, or a fresh one when the latest does not show them.
 */
import type {RecordedElement} from '../../shared/protocol.js';
import type {PageState} from '../browser/PageState.js';
import {snapshotFeature, takeSnapshot} from '../browser/snapshot.js';
import type {RecordedCall} from './replayCalls.js';
import type {ReplayPageMap} from './replayPages.js';

/** The replay's own view of the pages: those it sees, and its own selected page. */
export interface ReplayPages {
  list(): PageState[];
  readonly selected: PageState | undefined;
}

export class ReplayMappingError extends Error {
  override name = 'ReplayMappingError';
}

/** Sets one element argument by its recorded param name: uid, from_uid, elements[i].uid, args[i]. */
function setUidArgument(args: Record<string, unknown>, param: string, uid: string): void {
  const item = /^(elements|args)\[(\d+)\](\.uid)?$/.exec(param);
  if (!item) {
    args[param] = uid;
    return;
  }
  const list = args[item[1] ?? ''];
  const index = Number(item[2]);
  if (!Array.isArray(list)) {
    return;
  }
  const copy = list.map((entry: unknown) => entry);
  const entry: unknown = copy[index];
  if (item[3] === undefined) {
    copy[index] = uid;
  } else if (typeof entry === 'object' && entry !== null) {
    copy[index] = {...entry, uid};
  }
  args[item[1] ?? ''] = copy;
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

/** The call's arguments for the replay; throws ReplayMappingError when a page or element is gone. */
export async function mapCallArguments(
  call: RecordedCall,
  pageMap: ReplayPageMap,
  pages: ReplayPages,
): Promise<MappedCall> {
  const args: Record<string, unknown> = {...call.args};
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
  if (call.elements.length > 0) {
    page ??= pages.selected;
    if (!page) {
      throw new ReplayMappingError('No page is open to look the elements up in.');
    }
    for (const element of call.elements) {
      setUidArgument(args, element.param, await findElement(page, element));
    }
  }
  return {args, ...(page ? {pageId: page.id} : {})};
}
