/**
 * Step writers of the input tools and evaluate_script: the action on a role-based locator, and for
 * a script the value it returned.
 */
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from '../../shared/boundedValue.js';
import {jsString, jsValue} from './exportLiterals.js';
import {locator, pageOf, SkipStep, text, type StepWriter} from './exportStepKit.js';

function scriptResult(resultText: string): {value: unknown} | undefined {
  const match = /Script ran on page and returned:\n```json\n([\s\S]*?)\n```/.exec(resultText);
  if (!match) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(match[1] ?? '');
  } catch {
    return undefined;
  }
  // A page may return any depth; the assertion is written only for what a test can hold.
  if (nestsDeeperThan(value, VALUE_DEPTH_LIMIT)) {
    throw new SkipStep(`the recorded result nests deeper than ${VALUE_DEPTH_LIMIT} levels`);
  }
  return {value};
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
  fill: context => {
    const {lines, loc} = locator(context, 'uid');
    return [...lines, `await fillField(${loc}, ${jsString(text(context.call.args.value) ?? '')});`];
  },
  fill_form: context => {
    const list = Array.isArray(context.call.args.elements) ? context.call.args.elements : [];
    return list.flatMap((entry: unknown, index) => {
      const value =
        typeof entry === 'object' && entry !== null && 'value' in entry
          ? text(entry.value)
          : undefined;
      const {lines, loc} = locator(context, `elements[${index}].uid`);
      return [...lines, `await fillField(${loc}, ${jsString(value ?? '')});`];
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
  evaluate_script: context => {
    const {call} = context;
    const result = scriptResult(call.ended?.text ?? '');
    const fn = text(call.args.function) ?? '';
    const args = Array.isArray(call.args.args) ? call.args.args : [];
    if (!result) {
      throw new SkipStep('the recorded result is not a JSON value');
    }
    if (args.length > 1) {
      throw new SkipStep('scripts on several elements are not exported');
    }
    const target = args.length === 1 ? locator(context, 'args[0]') : undefined;
    const page = target ? {name: target.page, lines: target.lines} : pageOf(context);
    // The agent's function stays a string literal in the file; the page turns it back into a
    // function, as the recorded call did.
    const run = target
      ? `${target.loc}.evaluate((element, source) => globalThis.eval('(' + source + ')')(element), ${jsString(fn)})`
      : `${page.name}.evaluate(source => globalThis.eval('(' + source + ')')(), ${jsString(fn)})`;
    return [...page.lines, `expect(await ${run}).toEqual(${jsValue(result.value)});`];
  },
  // --slim's evaluate: a classic script; its completion value as JSON.
  evaluate: context => {
    const page = pageOf(context);
    const source = text(context.call.args.script) ?? '';
    let value: unknown;
    try {
      value = JSON.parse(context.call.ended?.text ?? '');
    } catch {
      throw new SkipStep('the recorded result is not a JSON value');
    }
    if (nestsDeeperThan(value, VALUE_DEPTH_LIMIT)) {
      throw new SkipStep(`the recorded result nests deeper than ${VALUE_DEPTH_LIMIT} levels`);
    }
    return [
      ...page.lines,
      `expect(await ${page.name}.evaluate(source => globalThis.eval(source), ${jsString(source)})).toEqual(${jsValue(value)});`,
    ];
  },
} satisfies Record<string, StepWriter>;
