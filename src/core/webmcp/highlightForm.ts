/** Shows a declarative tool's form: scrolled into view and outlined by the overlay for a moment. */
import {sendUntyped} from '../browser/cdp.js';
import type {PageState} from '../browser/pages/PageState.js';
import {errorText} from '../../shared/values.js';
import {boxModelSchema} from './cdpSchemas.js';
import type {ToolEntry} from './PageWebMcp.js';

const HIGHLIGHT_MS = 3_000;

export async function highlightForm(
  page: PageState,
  entry: ToolEntry,
  toolName: string,
): Promise<{x: number; y: number; width: number; height: number}> {
  const backendNodeId = entry.raw.backendNodeId;
  if (backendNodeId === undefined) {
    throw new Error(
      `Tool ${toolName} was registered by script, not by a <form>, so there is no form to highlight.`,
    );
  }
  // A cdp of its own: enabling DOM and Overlay there leaves the page's own cdp untouched, and
  // detaching it later removes the highlight.
  const cdp = entry.source.kind === 'page' ? await page.page.createCDPSession() : entry.source.cdp;
  const ownCdp = entry.source.kind === 'page';
  try {
    await cdp.send('DOM.enable');
    await cdp.send('Overlay.enable');
    await cdp.send('DOM.scrollIntoViewIfNeeded', {backendNodeId}).catch(() => undefined);
    await cdp.send('Overlay.highlightNode', {
      backendNodeId,
      highlightConfig: {
        showInfo: true,
        contentColor: {r: 111, g: 168, b: 220, a: 0.35},
        borderColor: {r: 255, g: 0, b: 170, a: 0.9},
        paddingColor: {r: 147, g: 196, b: 125, a: 0.3},
        marginColor: {r: 246, g: 178, b: 107, a: 0.3},
      },
    });
    const {model} = await sendUntyped(cdp, 'DOM.getBoxModel', {backendNodeId}, boxModelSchema);
    const [x = 0, y = 0] = model.border;
    const timer = setTimeout(() => {
      if (ownCdp) {
        void cdp.detach().catch(() => undefined);
      } else {
        void cdp.send('Overlay.hideHighlight').catch(() => undefined);
      }
    }, HIGHLIGHT_MS);
    timer.unref();
    return {x, y, width: model.width, height: model.height};
  } catch (error) {
    if (ownCdp) {
      void cdp.detach().catch(() => undefined);
    }
    throw new Error(
      `Could not highlight the form of ${toolName}: ${errorText(error)}. The form may have been removed; list the tools again.`,
      {cause: error},
    );
  }
}
