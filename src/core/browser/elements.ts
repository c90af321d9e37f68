/**
 * Turning a snapshot uid back into a live element, with chrome-devtools-mcp's error texts so agents
 * react the same way: no snapshot yet, unknown uid, element gone.
 */
import {normalizeUid, snapshotFeature} from './snapshot.js';
import type {PageState} from './PageState.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ResolvedElement {
  uid: string;
  backendNodeId: number;
  frameId: string;
  /** Remote object id in the element's frame, valid on the page's own CDP session. */
  objectId: string;
}

export async function resolveUid(state: PageState, givenUid: string): Promise<ResolvedElement> {
  const uid = normalizeUid(givenUid);
  const store = snapshotFeature.get(state);
  if (!store.hasSnapshot) {
    throw new Error(`No snapshot found for page ${state.id}. Use take_snapshot to capture one.`);
  }
  const target = store.target(uid);
  if (!target) {
    throw new Error(
      `Element uid "${uid}" not found on page ${state.id}. Use a uid from the latest snapshot (take_snapshot).`,
    );
  }
  const gone = new Error(
    `Element with uid ${uid} no longer exists on the page. Take a new snapshot (take_snapshot) and use its uids.`,
  );
  if (state.loaderIds.get(target.frameId) !== target.loaderId) {
    throw gone;
  }
  try {
    const {object} = await state.session.send('DOM.resolveNode', {
      backendNodeId: target.backendNodeId,
    });
    if (!object.objectId) {
      throw gone;
    }
    return {
      uid,
      backendNodeId: target.backendNodeId,
      frameId: target.frameId,
      objectId: object.objectId,
    };
  } catch {
    throw gone;
  }
}

/** Viewport-relative box of an element, or undefined when it has no layout (hidden, detached). */
export async function elementRect(
  state: PageState,
  backendNodeId: number,
): Promise<Rect | undefined> {
  try {
    const {quads} = await state.session.send('DOM.getContentQuads', {backendNodeId});
    const quad = quads.find(q => q.length >= 8);
    if (!quad) {
      return undefined;
    }
    const xs = [quad[0], quad[2], quad[4], quad[6]].map(Number);
    const ys = [quad[1], quad[3], quad[5], quad[7]].map(Number);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    return {x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y};
  } catch {
    return undefined;
  }
}

/** Releases remote objects we created so long sessions do not pin DOM nodes. */
export function releaseObject(state: PageState, objectId: string): void {
  void state.session.send('Runtime.releaseObject', {objectId}).catch(() => undefined);
}
