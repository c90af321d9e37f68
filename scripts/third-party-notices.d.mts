// Types for what TypeScript config files import from third-party-notices.mjs.

/** The notices text (licenses of the npm packages) for bundled files, relative to `root` or absolute. */
export function thirdPartyNotices(root: string, inputs: readonly string[]): string;
