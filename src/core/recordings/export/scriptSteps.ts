/**
 * Step writers of evaluate_script and --slim's evaluate: the agent's source runs in the page as
 * the engine ran it (a function called with the call's elements, or a classic script), with the
 * value it returned asserted when that was JSON. The source stays a string literal in the file
 * (a sourcePath file's source too, read when exporting and only from a folder the user named) and
 * is turned back into code in the page, never in the test; a source ending in a `//` comment
 * still closes its parenthesis.
 */
import {nestsDeeperThan, VALUE_DEPTH_LIMIT} from '../../../shared/boundedValue.js';
import {jsString, jsValue} from './literals.js';
import {
  allowed,
  locator,
  pageOf,
  SkipStep,
  text,
  type StepContext,
  type StepWriter,
} from './stepKit.js';

/** The JSON value a script returned, if its recorded result shows one a test can hold. */
function returned(json: string | undefined): {value: unknown} | undefined {
  if (json === undefined) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (nestsDeeperThan(value, VALUE_DEPTH_LIMIT)) {
    throw new SkipStep(`the recorded result nests deeper than ${VALUE_DEPTH_LIMIT} levels`);
  }
  return {value};
}

function scriptResult(resultText: string): {value: unknown} | undefined {
  const match = /Script ran on page and returned:\n```json\n([\s\S]*?)\n```/.exec(resultText);
  return returned(match?.[1]);
}

/**
 * The source as a string literal of the test: the agent's function, or the source of its
 * sourcePath file, read now and only from a folder the user named (the test reads no file).
 */
function sourceExpression(context: StepContext, format: 'function' | 'script'): string {
  const {args} = context.call;
  let source = text(args.function);
  if (source === undefined) {
    const path = text(args.sourcePath);
    if (path === undefined) {
      throw new SkipStep('neither function nor sourcePath was recorded');
    }
    source = allowed(context.export.files.script(path));
  }
  // As the engine wraps it: trailing `;` dropped, a line break before the closing parenthesis.
  const body = source.trimEnd().replace(/;$/, '');
  return jsString(format === 'function' ? `(\n${body}\n)` : source);
}

function evaluateScript(context: StepContext): string[] {
  const {call} = context;
  if (call.args.serviceWorkerId !== undefined) {
    throw new SkipStep('scripts in an extension service worker are not exported');
  }
  const format = call.args.format === 'script' ? 'script' : 'function';
  const source = sourceExpression(context, format);
  const uids = Array.isArray(call.args.args) ? call.args.args : [];
  const page = pageOf(context);
  const elements = uids.map((_uid: unknown, index) => locator(context, `args[${index}]`));
  const [first, ...others] = elements;
  let run: string;
  if (format === 'script') {
    run = `${page.name}.evaluate(source => globalThis.eval(source), ${source})`;
  } else if (first === undefined) {
    run = `${page.name}.evaluate(source => globalThis.eval(source)(), ${source})`;
  } else if (others.length === 0) {
    run = `${first.loc}.evaluate((element, source) => globalThis.eval(source)(element), ${source})`;
  } else {
    const handles = others.map(other => `await ${other.loc}.elementHandle()`).join(', ');
    run = `${first.loc}.evaluate((element, [source, ...rest]) => globalThis.eval(source)(element, ...rest), [${source}, ${handles}] as const)`;
  }
  const result = scriptResult(call.ended?.text ?? '');
  return [
    ...page.lines,
    result === undefined
      ? `await ${run};`
      : `expect(await ${run}).toEqual(${jsValue(result.value)});`,
  ];
}

export const scriptSteps = {
  evaluate_script: evaluateScript,
  // --slim's evaluate: a classic script; its completion value as JSON.
  evaluate: context => {
    const page = pageOf(context);
    const source = jsString(text(context.call.args.script) ?? '');
    const run = `${page.name}.evaluate(source => globalThis.eval(source), ${source})`;
    const result = returned(context.call.ended?.text);
    return [
      ...page.lines,
      result === undefined
        ? `await ${run};`
        : `expect(await ${run}).toEqual(${jsValue(result.value)});`,
    ];
  },
} satisfies Record<string, StepWriter>;
