/**
 * The element arguments of a call (where its tool's record declares uids: uid, from_uid,
 * elements[i].uid, evaluate_script's args[i]) as the page's latest snapshot knew them: role, name,
 * named ancestry, enclosing frames and nth. Read from memory when the call starts (no CDP round
 * trip), so a replay or an export can find the same elements again without the uids.
 */
import {elementArguments} from '../../shared/elementParams.js';
import type {RecordedElement} from '../../shared/protocol.js';
import type {PageState} from '../browser/pages/PageState.js';
import {snapshotFeature} from '../browser/snapshot/snapshot.js';
import type {Tool} from '../tools/base/definition.js';

/** The recorded identity of every element argument the page's latest snapshot knows. */
export function recordedElements(
  page: PageState | undefined,
  tool: Pick<Tool, 'elementPaths'>,
  args: Record<string, unknown>,
): RecordedElement[] {
  if (!page) {
    return [];
  }
  const wanted = elementArguments(tool.elementPaths, args);
  if (wanted.length === 0) {
    return [];
  }
  const store = snapshotFeature.get(page);
  return wanted.flatMap(({param, uid}) => {
    const description = store.describe(uid);
    return description ? [{param, uid, ...description}] : [];
  });
}
