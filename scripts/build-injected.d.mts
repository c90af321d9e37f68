// Types for the test that imports build-injected.mjs.

/** Where the generated module lives, from the repository root. */
export const GENERATED_FILE: string;
/** The command that writes it again. */
export const REGENERATE_COMMAND: string;
/** `name` of `file` (from the repository root) and what it uses, as a standalone function expression. */
export function scriptSource(file: string, name: string): Promise<string>;
/** The generated module's text, formatted, as the generator would write it. */
export function generateInjectedSources(): Promise<string>;
