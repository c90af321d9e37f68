/**
 * The element a held call targets, for the live view's outline: its uid argument, and the
 * element's box from the page's latest snapshot. Only CDP DOM calls (bounded, not blocked by a
 * JavaScript dialog), no script in the page.
 */
import type {HeldCall} from '../../../shared/hold.js';
import {elementRect} from '../../browser/elements.js';
import type {PageState} from '../../browser/PageState.js';
import {normalizeUid, snapshotFeature} from '../../browser/snapshotStore.js';

type Target = NonNullable<HeldCall['target']>;

/** The first element argument of a call (uid, from_uid, then elements[0].uid). */
export function targetUidOf(
  args: Record<string, unknown>,
): {param: string; uid: string} | undefined {
  for (const param of ['uid', 'from_uid', 'to_uid']) {
    const value = args[param];
    if (typeof value === 'string' && value.trim() !== '') {
      return {param, uid: value};
    }
  }
  const elements = args.elements;
  if (Array.isArray(elements)) {
    const first: unknown = elements[0];
    if (first !== null && typeof first === 'object' && 'uid' in first) {
      const uid: unknown = first.uid;
      if (typeof uid === 'string') {
        return {param: 'elements[0].uid', uid};
      }
    }
  }
  return undefined;
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
