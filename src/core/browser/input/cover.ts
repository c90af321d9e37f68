/**
 * Naming what covers an element, for the agent: the element a press would reach instead and its
 * nearest ancestors outside the target, as `<role> "<name>" (uid N)` from the latest snapshot when
 * the snapshot showed them, else from the accessibility tree, else by tag, id and classes. Runs
 * only when an action fails (and for click_at, to say what it clicked), so it may take a few
 * round trips.
 */
import type {CDPSession} from 'puppeteer-core';
import {z} from 'zod';
import type {ResolvedElement} from './elements.js';
import {
  INTERCEPTOR_CHAIN,
  INTERCEPTOR_CHAIN_AT,
  PREVIEW_ELEMENT,
} from '../injectedSources.generated.js';
import {withTimeout} from '../lock.js';
import type {PageState} from '../pages/PageState.js';
import {snapshotFeature} from '../snapshot/uids.js';

/** Where a press would land instead of on its element. */
export interface Covered {
  /** An in-page description, for when the hit element cannot be looked up. */
  by: string;
  /** The cdp and the point in its root document's viewport, when known. */
  at?: {cdp: CDPSession; point: {x: number; y: number}};
  /** Else the point in the viewport of the element's own document (a same-site iframe's). */
  inDocument?: {x: number; y: number};
  /** Whether a position:fixed/sticky element covers it (scrolling may uncover it). */
  pinned: boolean;
  /** Whether what covers it contains it (its own container draws over it). */
  inside?: boolean;
}

const STEP_TIMEOUT_MS = 3_000;
const OBJECT_GROUP = 'mcp-browser-inspector-cover';
/** Roles that say nothing about what an element is. */
const VAGUE_ROLES = new Set(['', 'generic', 'none', 'presentation', 'StaticText', 'InlineTextBox']);

function step<T>(work: Promise<T>): Promise<T | undefined> {
  return withTimeout(work, STEP_TIMEOUT_MS, 'CDP step timed out').catch(() => undefined);
}

/**
 * The node a pointer event at `point` (the viewport of the cdp's root document, CSS pixels)
 * would reach: DOM.getNodeForLocation takes document coordinates, so the scroll offset is added.
 */
export async function nodeAt(
  cdp: CDPSession,
  point: {x: number; y: number},
): Promise<{backendNodeId: number; frameId: string} | undefined> {
  const metrics = await step(cdp.send('Page.getLayoutMetrics'));
  const scroll = metrics?.cssLayoutViewport ?? {pageX: 0, pageY: 0};
  return step(
    cdp.send('DOM.getNodeForLocation', {
      x: Math.round(point.x + scroll.pageX),
      y: Math.round(point.y + scroll.pageY),
      includeUserAgentShadowDOM: false,
    }),
  );
}

/** What covers the element, worded for the agent. Never throws: falls back to the preview. */
export async function coverOf(
  state: PageState,
  element: ResolvedElement,
  cover: Covered,
): Promise<string> {
  const cdp = cover.at?.cdp ?? element.cdp;
  try {
    if (cover.at) {
      return (await lookUp(state, element, cover.at.cdp, cover.at.point)) ?? cover.by;
    }
    if (cover.inDocument) {
      return (await lookUpInDocument(state, element, cover.inDocument)) ?? cover.by;
    }
    return cover.by;
  } catch {
    return cover.by;
  } finally {
    void cdp.send('Runtime.releaseObjectGroup', {objectGroup: OBJECT_GROUP}).catch(() => undefined);
  }
}

/**
 * What a click at `point` (the top page's viewport) reaches, worded like a cover: the nearest
 * element the latest snapshot showed, else its accessible role and name, else tag, id and classes.
 */
export async function describePoint(
  state: PageState,
  point: {x: number; y: number},
): Promise<string> {
  const {cdp} = state;
  try {
    const hit = await nodeAt(cdp, point);
    if (!hit) {
      return 'nothing (outside the page)';
    }
    const elements = await chainFrom(cdp, hit.backendNodeId, undefined);
    const nearest = elements[0];
    return (
      namedInSnapshot(state, cdp, elements)[0] ??
      (await accessibleLabel(cdp, hit.backendNodeId)) ??
      (nearest === undefined ? undefined : await preview(cdp, nearest.objectId)) ??
      'the page'
    );
  } catch {
    return 'the page';
  } finally {
    void cdp.send('Runtime.releaseObjectGroup', {objectGroup: OBJECT_GROUP}).catch(() => undefined);
  }
}

/** The hit element and its ancestors (up to the target's, when `target` is given). */
async function chainFrom(
  cdp: CDPSession,
  backendNodeId: number,
  target: string | undefined,
): Promise<ChainElement[]> {
  const resolved = await step(
    cdp.send('DOM.resolveNode', {backendNodeId, objectGroup: OBJECT_GROUP}),
  );
  const hitObject = resolved?.object.objectId;
  if (hitObject === undefined) {
    return [];
  }
  const chain = await step(
    cdp.send('Runtime.callFunctionOn', {
      functionDeclaration: INTERCEPTOR_CHAIN,
      objectId: hitObject,
      arguments: target === undefined ? [] : [{objectId: target}],
      objectGroup: OBJECT_GROUP,
    }),
  );
  return chainElements(cdp, chain?.result.objectId);
}

async function lookUp(
  state: PageState,
  element: ResolvedElement,
  cdp: CDPSession,
  point: {x: number; y: number},
): Promise<string | undefined> {
  const hit = await nodeAt(cdp, point);
  if (!hit) {
    return undefined;
  }
  // Ancestors up to the first that holds the target, when the target is in the same document.
  const sameDocument = cdp === element.cdp && hit.frameId === element.frameId;
  const elements = await chainFrom(
    cdp,
    hit.backendNodeId,
    sameDocument ? element.objectId : undefined,
  );
  return (
    nameChain(state, cdp, elements) ??
    (await accessibleLabel(cdp, hit.backendNodeId)) ??
    (await previewOutermost(cdp, elements))
  );
}

/** As lookUp, hit-testing in the element's own document at a point of its viewport. */
async function lookUpInDocument(
  state: PageState,
  element: ResolvedElement,
  point: {x: number; y: number},
): Promise<string | undefined> {
  const {cdp} = element;
  const chain = await step(
    cdp.send('Runtime.callFunctionOn', {
      functionDeclaration: INTERCEPTOR_CHAIN_AT,
      objectId: element.objectId,
      arguments: [{value: point.x}, {value: point.y}],
      objectGroup: OBJECT_GROUP,
    }),
  );
  const elements = await chainElements(cdp, chain?.result.objectId);
  const first = elements[0];
  return (
    nameChain(state, cdp, elements) ??
    (first === undefined ? undefined : await accessibleLabel(cdp, first.backendNodeId)) ??
    (await previewOutermost(cdp, elements))
  );
}

/** `inner in outer` from the chain's elements the latest snapshot showed, if any. */
function nameChain(
  state: PageState,
  cdp: CDPSession,
  elements: readonly ChainElement[],
): string | undefined {
  const named = namedInSnapshot(state, cdp, elements);
  const inner = named[0];
  const outer = named[named.length - 1];
  return inner === outer ? inner : `${inner} in ${outer}`;
}

function previewOutermost(
  cdp: CDPSession,
  elements: readonly ChainElement[],
): Promise<string | undefined> {
  const outermost = elements.at(-1);
  return outermost === undefined ? Promise.resolve(undefined) : preview(cdp, outermost.objectId);
}

interface ChainElement {
  objectId: string;
  backendNodeId: number;
}

async function chainElements(
  cdp: CDPSession,
  arrayId: string | undefined,
): Promise<ChainElement[]> {
  if (arrayId === undefined) {
    return [];
  }
  const properties = await step(
    cdp.send('Runtime.getProperties', {objectId: arrayId, ownProperties: true}),
  );
  const objectIds = (properties?.result ?? [])
    .filter(property => /^\d+$/.test(property.name))
    .sort((a, b) => Number(a.name) - Number(b.name))
    .flatMap(property => (property.value?.objectId ? [property.value.objectId] : []));
  const described = await Promise.all(
    objectIds.map(async objectId => {
      const node = await step(cdp.send('DOM.describeNode', {objectId}));
      return node ? [{objectId, backendNodeId: node.node.backendNodeId}] : [];
    }),
  );
  return described.flat();
}

/** The chain's elements that the latest snapshot showed, nearest first, as `role "name" (uid)`. */
function namedInSnapshot(
  state: PageState,
  cdp: CDPSession,
  elements: readonly ChainElement[],
): string[] {
  const store = snapshotFeature.get(state);
  const named: string[] = [];
  for (const {backendNodeId} of elements) {
    const uid = store.uidOf(backendNodeId, cdp);
    const described = uid === undefined ? undefined : store.describe(uid);
    if (uid !== undefined && described) {
      named.push(`${described.role} "${described.name}" (uid ${uid})`);
    }
  }
  return named;
}

const axSchema = z.object({
  nodes: z.array(
    z.object({
      role: z.object({value: z.unknown()}).optional(),
      name: z.object({value: z.unknown()}).optional(),
    }),
  ),
});

async function accessibleLabel(
  cdp: CDPSession,
  backendNodeId: number,
): Promise<string | undefined> {
  const reply = await step(
    cdp.send('Accessibility.getPartialAXTree', {backendNodeId, fetchRelatives: false}),
  );
  const parsed = axSchema.safeParse(reply);
  const node = parsed.success ? parsed.data.nodes[0] : undefined;
  const role = typeof node?.role?.value === 'string' ? node.role.value : '';
  const name = typeof node?.name?.value === 'string' ? node.name.value : '';
  return VAGUE_ROLES.has(role) ? undefined : `${role} "${name}" (not in the latest snapshot)`;
}

async function preview(cdp: CDPSession, objectId: string): Promise<string | undefined> {
  const reply = await step(
    cdp.send('Runtime.callFunctionOn', {
      functionDeclaration: PREVIEW_ELEMENT,
      objectId,
      returnByValue: true,
    }),
  );
  const value: unknown = reply?.result.value;
  return typeof value === 'string' ? value : undefined;
}
