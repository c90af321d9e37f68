/**
 * Input automation: click, hover, fill, forms, keyboard, drag, file upload and dialogs. Elements
 * come from snapshot uids; every action waits for what it started (a navigation, DOM updates)
 * and returns at once when it started nothing.
 */
import {z} from 'zod';
import {clickAt} from '../browser/input/actions.js';
import {describePoint} from '../browser/input/cover.js';
import {dragElement, placeOf} from '../browser/input/drag.js';
import {describeDrop} from '../browser/input/dragScript.js';
import type {Rect} from '../browser/input/elements.js';
import {fillElement} from '../browser/input/fill.js';
import {pressCombo, typeText} from '../browser/input/keyInput.js';
import {clickElement, hoverElement} from '../browser/input/pointer.js';
import {parseKeyCombo} from '../browser/input/keyboard.js';
import {pressAndSettleScroll} from '../browser/input/keyScroll.js';
import type {PageState} from '../browser/pages/PageState.js';
import {settleDom, type SettleOutcome} from '../browser/settle/settle.js';
import {actionTimeout, LONGEST_ACTION_WAIT_MS, slowdownFeature} from '../browser/timeouts.js';
import {uploadFiles} from '../browser/input/upload.js';
import type {ResponseBuilder} from './base/ResponseBuilder.js';
import {definePageTool, includeSnapshotSchema} from './base/definition.js';
import {actOnElement, explained, settle, withElement} from './base/elementAction.js';
import {uidString} from './base/paramShapes.js';
import {
  boundedList,
  boundedText,
  FILLED_TEXT_LIMIT,
  FORM_ELEMENTS_LIMIT,
  KEY_COMBO_LIMIT,
  TYPED_TEXT_LIMIT,
  UPLOAD_FILES_LIMIT,
} from './base/inputLimits.js';

const uidParam = uidString('uid of the element, from the latest snapshot.');
const dblClickParam = z.boolean().optional().describe('Double click. Default false.');

function report(
  response: ResponseBuilder,
  outcome: SettleOutcome<unknown>,
  lines: {done: string; dialog: string},
  includeSnapshot: boolean | undefined,
): void {
  if (outcome.dialog) {
    // The page is blocked until handle_dialog; the open dialog is listed below this line.
    response.appendLine(lines.dialog);
    return;
  }
  response.appendLine(lines.done);
  response.setNavigatedTo(outcome.navigatedTo);
  if (includeSnapshot) {
    response.includeSnapshot();
  }
}

function timeoutFor(page: PageState): number {
  return actionTimeout(slowdownFeature.get(page));
}

export const click = definePageTool({
  name: 'click',
  description: 'Click an element. A <select> option is chosen through its select.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    uid: uidParam,
    dblClick: dblClickParam,
    includeSnapshot: includeSnapshotSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const double = params.dblClick ?? false;
    const outcome = await actOnElement(call, params.uid, element =>
      clickElement(page, element, {
        clickCount: double ? 2 : 1,
        timeoutMs: timeoutFor(page),
        signal: call.signal,
      }),
    );
    response.setActedOn(outcome.value);
    report(
      response,
      outcome,
      double
        ? {
            done: 'Successfully double clicked on the element',
            dialog: 'The element was double clicked and it opened a dialog.',
          }
        : {
            done: 'Successfully clicked on the element',
            dialog: 'The element was clicked and it opened a dialog.',
          },
      params.includeSnapshot,
    );
  },
});

export const clickAtTool = definePageTool({
  name: 'click_at',
  description:
    'Click at viewport coordinates (CSS pixels), e.g. from a screenshot. The answer names what was at the point.',
  category: 'input',
  readOnly: false,
  conditions: ['experimentalVision'],
  blockedByDialog: true,
  schema: {
    x: z.number().describe('x in CSS pixels from the left of the viewport.'),
    y: z.number().describe('y in CSS pixels from the top of the viewport.'),
    dblClick: dblClickParam,
    includeSnapshot: includeSnapshotSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const double = params.dblClick ?? false;
    const point = {x: params.x, y: params.y};
    const outcome = await settle(call, async () => {
      // Nothing checks that a coordinate hits what the agent meant: say what it hit, looked up
      // right before the press (the press may change it).
      const hit = await describePoint(page, point);
      await clickAt(page, point, double ? 2 : 1, page.cdp, call.signal);
      return hit;
    });
    response.setActedOn({x: params.x - 4, y: params.y - 4, width: 8, height: 8});
    const on = outcome.value === undefined ? '' : ` It landed on ${outcome.value}.`;
    report(
      response,
      outcome,
      double
        ? {
            done: `Successfully double clicked at the coordinates.${on}`,
            dialog: `The coordinates were double clicked and it opened a dialog.${on}`,
          }
        : {
            done: `Successfully clicked at the coordinates.${on}`,
            dialog: `The coordinates were clicked and it opened a dialog.${on}`,
          },
      params.includeSnapshot,
    );
  },
});

export const hover = definePageTool({
  name: 'hover',
  description: 'Move the mouse over an element.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    uid: uidParam,
    includeSnapshot: includeSnapshotSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const outcome = await actOnElement(call, params.uid, element =>
      hoverElement(page, element, {timeoutMs: timeoutFor(page), signal: call.signal}),
    );
    response.setActedOn(outcome.value);
    report(
      response,
      outcome,
      {
        done: 'Successfully hovered over the element',
        dialog: 'The element was hovered and it opened a dialog.',
      },
      params.includeSnapshot,
    );
  },
});

/**
 * Longer values get more time, as in chrome-devtools-mcp (10 ms per character), within the
 * longest wait an action may make other calls on the page do.
 */
function fillTimeout(page: PageState, value: string): number {
  return Math.min(timeoutFor(page) + value.length * 10, LONGEST_ACTION_WAIT_MS);
}

const fillValueDescription =
  'Text to enter; for a select, the option\'s visible text; "true"/"false" for checkboxes, radios, switches.';
const fillValue = (): z.ZodString =>
  boundedText(FILLED_TEXT_LIMIT, 'Fill a shorter value.').describe(fillValueDescription);
const keyCombo = (): z.ZodString =>
  boundedText(KEY_COMBO_LIMIT, 'Pass one key or combination, e.g. "Control+A".');

export const fill = definePageTool({
  name: 'fill',
  description:
    'Fill a text field, textarea or contenteditable, choose a <select> option, or set a checkbox, radio or switch.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    uid: uidParam,
    value: fillValue(),
    includeSnapshot: includeSnapshotSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const outcome = await actOnElement(call, params.uid, element =>
      fillElement(page, element, {
        value: params.value,
        timeoutMs: fillTimeout(page, params.value),
        signal: call.signal,
      }),
    );
    response.setActedOn(outcome.value);
    report(
      response,
      outcome,
      {
        done: 'Successfully filled out the element',
        dialog: 'The element was filled out and it opened a dialog.',
      },
      params.includeSnapshot,
    );
  },
});

export const fillForm = definePageTool({
  name: 'fill_form',
  description:
    'Fill several form elements (text fields, selects, checkboxes, radios) in one call. Prefer it to several fill or click calls.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    elements: boundedList(
      z.object({
        uid: uidString('uid of the element to fill.'),
        value: fillValue(),
      }),
      FORM_ELEMENTS_LIMIT,
      'Fill the rest in another fill_form call.',
    ).describe('Elements from the snapshot and their values, filled in order.'),
    includeSnapshot: includeSnapshotSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const progress: {uid: string | undefined; rect: Rect | undefined; stopped: boolean} = {
      uid: undefined,
      rect: undefined,
      stopped: false,
    };
    const outcome = await settle(
      call,
      async () => {
        for (const [index, {uid, value}] of params.elements.entries()) {
          // A dialog ended the call: the rest stays unfilled even after the dialog is handled.
          if (progress.stopped) {
            return;
          }
          call.signal.throwIfAborted();
          progress.uid = uid;
          progress.rect = await withElement(page, uid, element =>
            explained(
              uid,
              fillElement(page, element, {
                value,
                timeoutMs: fillTimeout(page, value),
                signal: call.signal,
                commit: index < params.elements.length - 1,
              }),
            ),
          );
        }
      },
      params.elements.map(element => element.uid),
    );
    progress.stopped = true;
    response.setActedOn(progress.rect);
    const last = params.elements[params.elements.length - 1];
    const remaining =
      progress.uid !== last?.uid ? ' The remaining elements were not filled out.' : '';
    report(
      response,
      outcome,
      {
        done: 'Successfully filled out the form',
        dialog: `Filling out the element with uid ${progress.uid ?? ''} opened a dialog.${remaining}`,
      },
      params.includeSnapshot,
    );
  },
});

export const typeTextTool = definePageTool({
  name: 'type_text',
  description: 'Type text with the keyboard into the focused element, then optionally press a key.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    text: boundedText(
      TYPED_TEXT_LIMIT,
      'Type it in several calls, or set a field at once with fill.',
    ).describe('Text to type.'),
    submitKey: keyCombo()
      .optional()
      .describe('Key to press after typing, e.g. "Enter", "Tab", "Escape".'),
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const submit = params.submitKey === undefined ? undefined : parseKeyCombo(params.submitKey);
    const outcome = await settle(call, async () => {
      await typeText(page, params.text, call.signal);
      if (submit) {
        await pressCombo(page, submit);
      }
    });
    const typed = `Typed text "${params.text}${params.submitKey ? ` + ${params.submitKey}` : ''}"`;
    report(response, outcome, {done: typed, dialog: `${typed} and it opened a dialog.`}, false);
  },
});

export const pressKey = definePageTool({
  name: 'press_key',
  description:
    'Press a key or combination, e.g. "Enter", "Control+A", "Control++" (modifiers: Control, Shift, Alt, Meta). For shortcuts and keys fill cannot do.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    key: keyCombo().describe('A key or combination, e.g. "Control+A".'),
    includeSnapshot: includeSnapshotSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const combo = parseKeyCombo(params.key);
    const outcome = await settle(call, () => pressAndSettleScroll(page, combo));
    const scroll = outcome.value;
    if (scroll?.kind === 'bounded') {
      response.notes.push(
        `The page was still scrolling ${(scroll.waitedMs / 1000).toFixed(1)} s after ${params.key}; take a snapshot again to see where it stopped.`,
      );
    } else if (scroll?.kind === 'unanswered') {
      response.notes.push(
        `The page did not answer within ${(scroll.waitedMs / 1000).toFixed(1)} s after ${params.key} (busy or frozen), so whether the scroll ended is not known; take a snapshot again to see where it is.`,
      );
    }
    report(
      response,
      outcome,
      {
        done: `Successfully pressed key: ${params.key}`,
        dialog: `Pressing ${params.key} opened a dialog.`,
      },
      params.includeSnapshot,
    );
  },
});

export const drag = definePageTool({
  name: 'drag',
  description: 'Drag an element onto another element.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    from_uid: uidString('uid of the element to drag.'),
    to_uid: uidString('uid of the element to drop it on.'),
    includeSnapshot: includeSnapshotSchema,
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const outcome = await withElement(page, params.from_uid, from =>
      withElement(page, params.to_uid, async to => {
        const dragged = await settle(
          call,
          () =>
            explained(
              params.from_uid,
              dragElement(page, from, to, {timeoutMs: timeoutFor(page), signal: call.signal}),
            ),
          [params.from_uid, params.to_uid],
        );
        // Read once what the drop set in motion has settled: never a bare success.
        const said =
          dragged.value && !dragged.dialog
            ? describeDrop(dragged.value.before, await placeOf(page, from, to))
            : '';
        return {...dragged, said};
      }),
    );
    response.setActedOn(outcome.value?.rect);
    report(
      response,
      outcome,
      {done: outcome.said, dialog: 'The element was dragged and it opened a dialog.'},
      params.includeSnapshot,
    );
  },
});

export const uploadFile = definePageTool({
  name: 'upload_file',
  description:
    'Upload files through a file input, or an element that opens a file chooser when clicked.',
  category: 'input',
  readOnly: false,
  blockedByDialog: true,
  schema: {
    uid: uidString('uid of the file input, or of an element that opens a file chooser.'),
    filePaths: boundedList(z.string(), UPLOAD_FILES_LIMIT, 'Upload the rest in another call.')
      .min(1)
      .describe('Paths of the files to upload, on the machine the browser runs on.'),
    includeSnapshot: includeSnapshotSchema,
  },
  filePaths: [{param: 'filePaths', scope: 'localBrowser'}],
  handler: async (call, response) => {
    const {page, params} = call;
    // A local browser reads the files whenever the page does: it gets checked copies, made now.
    const files = call.browser.isLocal
      ? await Promise.all(params.filePaths.map(file => call.files.copyForBrowser(file)))
      : params.filePaths;
    const outcome = await withElement(page, params.uid, element =>
      settle(
        call,
        () =>
          uploadFiles(page, element, files, {
            timeoutMs: timeoutFor(page),
            signal: call.signal,
          }),
        [params.uid],
      ),
    );
    response.appendLine(`File uploaded from ${params.filePaths.join(', ')}.`);
    if (!outcome.dialog) {
      response.setNavigatedTo(outcome.navigatedTo);
      if (params.includeSnapshot) {
        response.includeSnapshot();
      }
    }
  },
});

export const handleDialog = definePageTool({
  name: 'handle_dialog',
  description: 'Accept or dismiss the JavaScript dialog (alert, confirm, prompt) the page shows.',
  category: 'input',
  readOnly: false,
  schema: {
    action: z.enum(['accept', 'dismiss']).describe('Accept or dismiss the dialog.'),
    promptText: boundedText(FILLED_TEXT_LIMIT, 'Answer with a shorter text.')
      .optional()
      .describe('Text to answer a prompt with (accept only).'),
  },
  handler: async (call, response) => {
    const {page, params} = call;
    const open = page.dialog;
    if (!open) {
      throw new Error('No open dialog found');
    }
    // Cleared before answering: the page may open the next dialog as soon as this one closes.
    page.dialog = undefined;
    let nextDialog: () => void = () => undefined;
    const another = new Promise<void>(resolve => {
      nextDialog = page.onDialog(() => resolve());
    });
    try {
      try {
        if (params.action === 'accept') {
          await open.dialog.accept(params.promptText);
        } else {
          await open.dialog.dismiss();
        }
      } catch {
        // Already answered elsewhere (e.g. by the user in a headful browser).
      }
      response.appendLine(
        params.action === 'accept'
          ? 'Successfully accepted the dialog'
          : 'Successfully dismissed the dialog',
      );
      response.includePages();
      // Let what the page does with the answer show up; a new dialog ends the wait.
      await Promise.race([settleDom(page, {signal: call.signal}), another]);
    } finally {
      nextDialog();
    }
  },
});

export const inputTools = [
  click,
  clickAtTool,
  hover,
  fill,
  fillForm,
  typeTextTool,
  pressKey,
  drag,
  uploadFile,
  handleDialog,
];
