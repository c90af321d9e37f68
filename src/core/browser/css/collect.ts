/**
 * Reads one element's matched styles from the browser, on a cdp of its own (DOM and CSS
 * agents live only for the call), and builds the get_css_styles report. The element's label
 * (DESCRIBE_ELEMENT) comes from src/injected/cssElement.ts.
 */
import type {CDPSession, Protocol} from 'puppeteer-core';
import {z} from 'zod';
import {releaseObject, resolveUid} from '../input/elements.js';
import {callFunctionInPage, PROBE_TIMEOUT_MS} from '../evaluation.js';
import {DESCRIBE_ELEMENT, STYLED_ELEMENT_OF} from '../injectedSources.generated.js';
import {withTimeout} from '../lock.js';
import type {PageState} from '../pages/PageState.js';
import {actionTimeout, slowdownFeature} from '../timeouts.js';
import {buildReport, type CssReport, type ElementInfo} from './report.js';
import {containerKey} from './styleBlocks.js';

type StyleSheetHeader = Protocol.CSS.CSSStyleSheetHeader;

const elementInfoSchema = z.object({selector: z.string(), ancestors: z.array(z.string())});

/** Looks up the element each @container query of the matched rules resolves to. */
async function containerLabels(
  state: PageState,
  cdp: CDPSession,
  nodeId: number,
  matched: Protocol.CSS.GetMatchedStylesForNodeResponse,
): Promise<Map<string, string>> {
  const queries = new Map<string, Protocol.CSS.CSSContainerQuery>();
  const rules = [
    ...(matched.matchedCSSRules ?? []),
    ...(matched.pseudoElements ?? []).flatMap(pseudo => pseudo.matches),
  ];
  for (const {rule} of rules) {
    for (const query of rule.containerQueries ?? []) {
      queries.set(containerKey(query), query);
    }
  }
  const labels = new Map<string, string>();
  await Promise.all(
    [...queries].map(async ([key, query]) => {
      try {
        const {nodeId: containerId} = await cdp.send('DOM.getContainerForNode', {
          nodeId,
          ...(query.name ? {containerName: query.name} : {}),
          ...(query.physicalAxes ? {physicalAxes: query.physicalAxes} : {}),
          ...(query.logicalAxes ? {logicalAxes: query.logicalAxes} : {}),
          ...(query.queriesScrollState ? {queriesScrollState: true} : {}),
          ...(query.queriesAnchored ? {queriesAnchored: true} : {}),
        });
        if (containerId === undefined) {
          return;
        }
        const {object} = await cdp.send('DOM.resolveNode', {nodeId: containerId});
        if (!object.objectId) {
          return;
        }
        const objectId = object.objectId;
        const described = await callFunctionInPage(
          state,
          {objectId, functionDeclaration: DESCRIBE_ELEMENT, returnByValue: true},
          {cdp, timeoutMs: PROBE_TIMEOUT_MS},
        );
        const info = elementInfoSchema.safeParse(described.result.value);
        if (info.success) {
          labels.set(key, info.data.selector);
        }
      } catch {
        // The container is optional detail; the rule still prints.
      }
    }),
  );
  return labels;
}

export async function collectReport(state: PageState, uid: string): Promise<CssReport> {
  const resolved = await resolveUid(state, uid);
  releaseObject(resolved);
  if (resolved.cdp !== state.cdp) {
    throw new Error(
      `Element with uid "${uid}" is inside a cross-site iframe, whose styles get_css_styles cannot read. Use evaluate_script with the uid as an argument and getComputedStyle instead.`,
    );
  }
  // A cdp of our own: DOM and CSS agents are enabled only for this call and vanish with it,
  // so the page pays nothing for them afterwards and no other tool's cdp is disturbed.
  const cdp = await state.page.createCDPSession();
  try {
    const headers = new Map<string, StyleSheetHeader>();
    cdp.on('CSS.styleSheetAdded', event => headers.set(event.header.styleSheetId, event.header));
    const {nodeId, element} = await styledElement(state, cdp, uid, resolved.backendNodeId);
    // CSS.enable waits for the page's stylesheets to finish loading: bounded.
    await withTimeout(
      cdp.send('CSS.enable'),
      actionTimeout(slowdownFeature.get(state)),
      'Timed out waiting for the page stylesheets to load. Retry once the page has finished loading.',
    );
    const matched = await cdp.send('CSS.getMatchedStylesForNode', {nodeId});
    const usesVariables = JSON.stringify(matched).includes('var(');
    const [containers, computed] = await Promise.all([
      containerLabels(state, cdp, nodeId, matched),
      usesVariables
        ? cdp
            .send('CSS.getComputedStyleForNode', {nodeId})
            .then(
              ({computedStyle}) => new Map(computedStyle.map(entry => [entry.name, entry.value])),
            )
        : Promise.resolve(undefined),
    ]);
    return buildReport(
      matched,
      element,
      {headers, pageOrigin: originOf(state)},
      containers,
      computed,
    );
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The element whose styles are read, on `cdp`'s DOM agent, with its label. Text nodes (what
 * snapshots often point at) are styled through their parent element.
 */
async function styledElement(
  state: PageState,
  cdp: CDPSession,
  uid: string,
  backendNodeId: number,
): Promise<{nodeId: number; element: ElementInfo}> {
  const gone = `Element with uid "${uid}" was detached or no longer exists on the page. Take a new snapshot with take_snapshot.`;
  await cdp.send('DOM.enable');
  await cdp.send('DOM.getDocument', {depth: 0});
  const node = await cdp.send('DOM.resolveNode', {backendNodeId}).catch(() => {
    throw new Error(gone);
  });
  if (!node.object.objectId) {
    throw new Error(gone);
  }
  const elementRef = await callFunctionInPage(
    state,
    {
      objectId: node.object.objectId,
      functionDeclaration: STYLED_ELEMENT_OF,
    },
    {cdp, timeoutMs: PROBE_TIMEOUT_MS},
  );
  const elementId = elementRef.result.objectId;
  if (!elementId) {
    throw new Error(`Element with uid "${uid}" is not an element node and has no parent element.`);
  }
  const described = await callFunctionInPage(
    state,
    {objectId: elementId, functionDeclaration: DESCRIBE_ELEMENT, returnByValue: true},
    {cdp, timeoutMs: PROBE_TIMEOUT_MS},
  );
  const element = elementInfoSchema.safeParse(described.result.value);
  if (!element.success) {
    throw new Error(`Could not describe the element with uid "${uid}".`);
  }
  const {nodeId} = await cdp.send('DOM.requestNode', {objectId: elementId});
  return {nodeId, element: element.data};
}

/** The page's origin; about:blank and the like have none, and full URLs are printed. */
function originOf(state: PageState): string {
  try {
    return new URL(state.page.url()).origin;
  } catch {
    return 'null';
  }
}
