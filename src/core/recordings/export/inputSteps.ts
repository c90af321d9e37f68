/**
 * Step writers of the input tools: each action on a role-based locator, done the way the engine
 * did it. A checkbox, radio or switch is set with setChecked; a <select> chooses its option by
 * label; a field that reacts to each key (a combobox, an autocomplete) is typed into key by key
 * (pressSequentially), as the agent's fill was; other fields are filled; files go to the input
 * (setInputFiles) or to the file chooser the element opens, when they lie in a folder the user
 * named (export/files.ts).
 */
import {jsString, jsValue} from './literals.js';
import {
  allowed,
  elementOf,
  locator,
  NoteStep,
  pageOf,
  SkipStep,
  text,
  type StepContext,
  type StepWriter,
} from './stepKit.js';

/** Roles whose fill value is "true" or "false" (checked or not). */
const CHECKABLE_ROLES = new Set([
  'checkbox',
  'radio',
  'switch',
  'menuitemcheckbox',
  'menuitemradio',
]);

/** One fill: what the element was decides how it takes the value. */
function fillLines(context: StepContext, param: string, value: string): string[] {
  const {lines, loc} = locator(context, param);
  const element = elementOf(context.call, param);
  const literal = jsString(value);
  if (element && CHECKABLE_ROLES.has(element.role)) {
    if (value !== 'true' && value !== 'false') {
      throw new SkipStep(`the value for ${param} is neither "true" nor "false"`);
    }
    return [...lines, `await ${loc}.setChecked(${value});`];
  }
  const field = element?.field;
  if (field !== undefined) {
    context.export.noteField(context.call, param, field);
  }
  switch (field) {
    case 'select':
      return [...lines, `await ${loc}.selectOption({ label: ${literal} });`];
    case 'keys':
      return [...lines, `await ${loc}.clear();`, `await ${loc}.pressSequentially(${literal});`];
    case 'text':
      return [...lines, `await ${loc}.fill(${literal});`];
    case undefined:
      // Recorded before fields were told apart: decided when the test runs.
      return [...lines, `await ${context.export.helper('fillField')}(${loc}, ${literal});`];
  }
}

export const inputSteps = {
  click: context => {
    const {lines, loc} = locator(context, 'uid');
    return [
      ...lines,
      `await ${loc}.${context.call.args.dblClick === true ? 'dblclick' : 'click'}();`,
    ];
  },
  click_at: context => {
    const page = pageOf(context);
    const {x, y, dblClick} = context.call.args;
    if (typeof x !== 'number' || typeof y !== 'number') {
      throw new SkipStep('no coordinates were recorded');
    }
    const options = dblClick === true ? ', { clickCount: 2 }' : '';
    return [...page.lines, `await ${page.name}.mouse.click(${x}, ${y}${options});`];
  },
  hover: context => {
    const {lines, loc} = locator(context, 'uid');
    return [...lines, `await ${loc}.hover();`];
  },
  fill: context => fillLines(context, 'uid', text(context.call.args.value) ?? ''),
  fill_form: context => {
    const list = Array.isArray(context.call.args.elements) ? context.call.args.elements : [];
    return list.flatMap((entry: unknown, index) => {
      const value =
        typeof entry === 'object' && entry !== null && 'value' in entry
          ? text(entry.value)
          : undefined;
      return fillLines(context, `elements[${index}].uid`, value ?? '');
    });
  },
  drag: context => {
    const from = locator(context, 'from_uid');
    const to = locator(context, 'to_uid');
    return [...from.lines, `await ${from.loc}.dragTo(${to.loc});`];
  },
  press_key: context => {
    const page = pageOf(context);
    return [
      ...page.lines,
      `await ${page.name}.keyboard.press(${jsString(text(context.call.args.key) ?? '')});`,
    ];
  },
  type_text: context => {
    const page = pageOf(context);
    const submit = text(context.call.args.submitKey);
    return [
      ...page.lines,
      `await ${page.name}.keyboard.type(${jsString(text(context.call.args.text) ?? '')});`,
      ...(submit === undefined ? [] : [`await ${page.name}.keyboard.press(${jsString(submit)});`]),
    ];
  },
  upload_file: context => {
    const {lines, loc} = locator(context, 'uid');
    const paths = Array.isArray(context.call.args.filePaths)
      ? context.call.args.filePaths.flatMap((path: unknown) =>
          typeof path === 'string' ? [path] : [],
        )
      : [];
    if (paths.length === 0) {
      throw new SkipStep('no file paths were recorded');
    }
    // Only files inside a folder the user named are handed to the page.
    const files = paths.map(path => allowed(context.export.files.upload(path)));
    return [...lines, `await ${context.export.helper('uploadFiles')}(${loc}, ${jsValue(files)});`];
  },
  // The answer is given by a handler registered before the action that opened the dialog.
  handle_dialog: {
    reads: context => {
      const openedAt = context.export.dialogOpenedAt(context.call);
      throw new NoteStep(
        openedAt === undefined
          ? 'not exported: no recorded call opened this dialog, so no handler could wait for it'
          : `answered by the dialog handler registered before #${openedAt}, which opened the dialog`,
      );
    },
  },
} satisfies Record<string, StepWriter | {reads: StepWriter}>;
