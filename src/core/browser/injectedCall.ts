/**
 * How the engine runs a script of src/injected (a function source from
 * injectedSources.generated.ts) as an expression: the call with its arguments written out as JSON.
 */

/** A value JSON carries into the page unchanged (no undefined, no non-finite numbers). */
export type PageArgument =
  | string
  | number
  | boolean
  | null
  | readonly PageArgument[]
  | {readonly [key: string]: PageArgument};

/** `(source)(arg, …)`: an expression that calls the script with these arguments. */
export function callExpression(source: string, ...args: readonly PageArgument[]): string {
  return `(${source})(${args.map(arg => JSON.stringify(arg)).join(', ')})`;
}
