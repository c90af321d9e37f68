/**
 * The pages built from npm component libraries (test/fixtures/libraries, served under
 * /libraries/): open one and wait until its script says it is ready (`<body data-ready="true">`).
 */
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {openPage, waitFor} from './engine.js';
import type {FixtureServer} from './fixtureServer.js';
import {evaluate} from './snapshotText.js';

/** The corpus: one page per library. */
export const LIBRARY_PAGES = ['shoelace', 'mui', 'aggrid', 'sortable', 'virtual'] as const;
export type LibraryPage = (typeof LIBRARY_PAGES)[number];

/** Opens /libraries/<name>.html and returns its page id once the page marked itself ready. */
export async function openLibraryPage(
  client: Client,
  server: FixtureServer,
  name: LibraryPage,
): Promise<number> {
  const pathname = `/libraries/${name}.html`;
  const id = await openPage(client, server.url(pathname), pathname);
  await waitFor(
    async () =>
      (await evaluate(client, id, '() => document.body.dataset.ready === "true"')) === true,
    20_000,
    `${pathname} to be ready`,
  );
  return id;
}
