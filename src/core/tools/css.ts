/**
 * get_css_styles: the CSS cascade of one element, read from the browser's CSS domain — matched
 * rules from highest to lowest precedence with their source lines, the inline style, inherited
 * styles, pseudo-elements, custom properties and the @layer/@media/@container/@scope/@supports
 * wrappers, with every declaration that loses the cascade marked [overloaded].
 *
 * The winner of each property is computed here from the browser's rule order, including what
 * DevTools' own panel gets wrong: `!important` reverses the order of cascade layers and origins.
 */
import {z} from 'zod';
import {collectReport} from '../browser/css/collect.js';
import {definePageTool} from './base/definition.js';
import {uidString} from './base/paramShapes.js';
import {renderReport} from './formatters/cssFormatter.js';

export const getCssStyles = definePageTool({
  name: 'get_css_styles',
  description:
    'CSS rules applying to an element (uid from take_snapshot), highest precedence first, with source lines: inline, matched, inherited and pseudo-element styles, custom properties (var() values resolved), @layer/@media/@container/@scope wrappers. Losing declarations are marked [overloaded]. Paged by rule.',
  category: 'debugging',
  readOnly: true,
  blockedByDialog: true,
  schema: {
    uid: uidString('Element uid from the latest snapshot.'),
    pageSize: z.number().int().positive().default(10).describe('Rules per page.'),
    pageIdx: z.number().int().min(0).default(0).describe('0-based page.'),
  },
  handler: async (call, response) => {
    const report = await collectReport(call.page, call.params.uid);
    response.appendLine(
      renderReport(report, call.params.uid, call.params.pageSize, call.params.pageIdx),
    );
  },
});

export const cssTools = [getCssStyles];
