/**
 * The element arguments of a call (uid, from_uid, to_uid, elements[i].uid, evaluate_script's
 * args[i]) as the page's latest snapshot knew them: role, name, named ancestry and nth. Read from
 * memory when the call starts (no CDP round trip), so a replay or an export can find the same
 * elements again without the uids.
 */
import type {RecordedElement} from '../../shared/protocol.js';
import type {PageState} from '../browser/PageState.js';
import {snapshotFeature} from '../browser/snapshot.js';

/** Each uid-valued argument of a call, with the name of the argument that held it. */
export function uidArguments(args: Record<string, unknown>): {param: string; uid: string}[] {
  const found: {param: string; uid: string}[] = [];
  for (const [key, value] of Object.entries(args)) {
    if ((key === 'uid' || key.endsWith('_uid')) && typeof value === 'string') {
      found.push({param: key, uid: value});
    }
  }
  const {elements, args: scriptArgs} = args;
  if (Array.isArray(elements)) {
    elements.forEach((element: unknown, index) => {
      if (typeof element === 'object' && element !== null && 'uid' in element) {
        const uid: unknown = element.uid;
        if (typeof uid === 'string') {
          found.push({param: `elements[${index}].uid`, uid});
        }
      }
    });
  }
  if (Array.isArray(scriptArgs)) {
    scriptArgs.forEach((uid: unknown, index) => {
      if (typeof uid === 'string') {
        found.push({param: `args[${index}]`, uid});
      }
    });
  }
  return found;
}

/** The recorded identity of every element argument the page's latest snapshot knows. */
export function recordedElements(
  page: PageState | undefined,
  args: Record<string, unknown>,
): RecordedElement[] {
  if (!page) {
    return [];
  }
  const wanted = uidArguments(args);
  if (wanted.length === 0) {
    return [];
  }
  const store = snapshotFeature.get(page);
  return wanted.flatMap(({param, uid}) => {
    const description = store.describe(uid);
    return description ? [{param, uid, ...description}] : [];
  });
}
