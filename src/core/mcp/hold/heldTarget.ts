/**
 * The element a held call targets, for the live view's outline: its first element argument (where
 * its tool's record declares uids), and the
 * element's box from the page's latest snapshot. Only CDP DOM calls (bounded, not blocked by a
 * JavaScript dialog), no script in the page.
 */
import {elementArguments} from '../../../shared/elementParams.js';
import type {HeldCall} from '../../../shared/hold.js';
import {elementRect} from '../../browser/input/elements.js';
import type {PageState} from '../../browser/pages/PageState.js';
import {normalizeUid, snapshotFeature} from '../../browser/snapshot/uids.js';
import type {Tool} from '../../tools/base/definition.js';

type Target = NonNullable<HeldCall['target']>;

/** The first element argument of a call that names an element (uid, from_uid, elements[0].uid…). */
export function targetUidOf(
  tool: Pick<Tool, 'elementPaths'>,
  args: Record<string, unknown>,
): {param: string; uid: string} | undefined {
  return elementArguments(tool.elementPaths, args).find(({uid}) => uid.trim() !== '');
}

/** The target with its box when the snapshot still knows it and it has a layout. */
export async function locateTarget(page: PageState, target: Target): Promise<Target> {
  const known = snapshotFeature.get(page).target(normalizeUid(target.uid));
  if (!known || known.cdp.detached || page.loaderIds.get(known.frameId) !== known.loaderId) {
    return target;
  }
  const rect = await elementRect(page, known);
  return rect ? {...target, rect} : target;
}
