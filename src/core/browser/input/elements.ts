/**
 * Turning a snapshot uid back into a live element, with chrome-devtools-mcp's error texts so agents
 * react the same way: no snapshot yet, unknown uid, element gone. An element in a cross-site iframe
 * is resolved on that frame's own cdp; its box is given in the top page's viewport.
 */
import type {CDPSession} from 'puppeteer-core';
import type {DocumentRef} from '../documentWorld.js';
import {frameTargetsFeature} from '../pages/frames.js';
import {withTimeout} from '../lock.js';
import type {PageState} from '../pages/PageState.js';
import {normalizeUid, snapshotFeature} from '../snapshot/uids.js';

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
  /** The cdp of the element's document: the page's own, or a cross-site iframe's. */
  cdp: CDPSession;
  /** Remote object id, valid on `cdp`. */
  objectId: string;
}

const CDP_STEP_TIMEOUT_MS = 5_000;

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
  if (state.loaderIds.get(target.frameId) !== target.loaderId || target.cdp.detached) {
    throw gone;
  }
  try {
    const {object} = await withTimeout(
      target.cdp.send('DOM.resolveNode', {backendNodeId: target.backendNodeId}),
      CDP_STEP_TIMEOUT_MS,
      'DOM.resolveNode timed out',
    );
    if (!object.objectId) {
      throw gone;
    }
    return {
      uid,
      backendNodeId: target.backendNodeId,
      frameId: target.frameId,
      cdp: target.cdp,
      objectId: object.objectId,
    };
  } catch {
    throw gone;
  }
}

/**
 * The iframe documents the uids' elements live in (none for the top document's), still current:
 * what settling after an action on them watches besides the top document.
 */
export function frameDocumentsOf(state: PageState, uids: readonly string[]): DocumentRef[] {
  const store = snapshotFeature.get(state);
  return uids.flatMap(uid => {
    const target = store.target(normalizeUid(uid));
    return target &&
      target.frameId !== state.mainFrameId &&
      state.loaderIds.get(target.frameId) === target.loaderId
      ? [{cdp: target.cdp, frameId: target.frameId, loaderId: target.loaderId}]
      : [];
  });
}

/** Whether the element lives in another document than the top page's (an iframe). */
export function isInChildFrame(state: PageState, element: ResolvedElement): boolean {
  return element.frameId !== state.mainFrameId;
}

/**
 * Box of an element in the top page's viewport (CSS pixels), or undefined when it has no layout
 * (hidden, detached).
 */
export async function elementRect(
  state: PageState,
  element: Pick<ResolvedElement, 'cdp' | 'backendNodeId'>,
): Promise<Rect | undefined> {
  try {
    const [{quads}, offset] = await Promise.all([
      withTimeout(
        element.cdp.send('DOM.getContentQuads', {backendNodeId: element.backendNodeId}),
        CDP_STEP_TIMEOUT_MS,
        'DOM.getContentQuads timed out',
      ),
      element.cdp === state.cdp
        ? Promise.resolve({x: 0, y: 0})
        : frameTargetsFeature.get(state).offsetOf(element.cdp),
    ]);
    const quad = quads.find(q => q.length >= 8);
    if (!quad) {
      return undefined;
    }
    const xs = [quad[0], quad[2], quad[4], quad[6]].map(Number);
    const ys = [quad[1], quad[3], quad[5], quad[7]].map(Number);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    return {
      x: x + offset.x,
      y: y + offset.y,
      width: Math.max(...xs) - x,
      height: Math.max(...ys) - y,
    };
  } catch {
    return undefined;
  }
}

/**
 * Scrolls an element of an iframe into the top page's view: within its own document, then each
 * <iframe> on the way up so that the element's part of it is visible.
 */
export async function scrollIntoTopView(state: PageState, element: ResolvedElement): Promise<void> {
  const bounded = (work: Promise<unknown>): Promise<unknown> =>
    withTimeout(work, CDP_STEP_TIMEOUT_MS, 'scroll timed out').catch(() => undefined);
  await bounded(
    element.cdp.send('DOM.scrollIntoViewIfNeeded', {backendNodeId: element.backendNodeId}),
  );
  const frames = frameTargetsFeature.get(state);
  let cdp = element.cdp;
  for (let depth = 0; depth < 16; depth++) {
    const owner = frames.ownerOf(cdp);
    if (!owner) {
      return;
    }
    const rect = await elementRect(state, element);
    const frameOffset = await frames.offsetOf(cdp).catch(() => ({x: 0, y: 0}));
    const ownerNode = await withTimeout(
      owner.parent.send('DOM.getFrameOwner', {frameId: owner.frameId}),
      CDP_STEP_TIMEOUT_MS,
      'DOM.getFrameOwner timed out',
    ).catch(() => undefined);
    if (!ownerNode || !rect) {
      return;
    }
    await bounded(
      owner.parent.send('DOM.scrollIntoViewIfNeeded', {
        backendNodeId: ownerNode.backendNodeId,
        rect: {
          x: rect.x - frameOffset.x,
          y: rect.y - frameOffset.y,
          width: rect.width,
          height: rect.height,
        },
      }),
    );
    cdp = owner.parent;
  }
}

/** Releases remote objects we created so a long run does not pin DOM nodes. */
export function releaseObject(element: Pick<ResolvedElement, 'cdp' | 'objectId'>): void {
  void element.cdp
    .send('Runtime.releaseObject', {objectId: element.objectId})
    .catch(() => undefined);
}
