/**
 * Turns a filled ResponseBuilder into MCP content: one text block in a fixed section order, then
 * images. Expensive sections (snapshot, lists) are produced in parallel.
 */
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js';
import type {PageInfo} from '../../shared/protocol.js';
import type {ClientPages} from '../browser/pages/ClientPages.js';
import {takeSnapshot} from '../browser/snapshot/snapshot.js';
import {seenSnapshotsFeature} from '../browser/snapshot/diffs.js';
import type {FileAccess} from '../files/FileAccess.js';
import {SECTION_ORDER, type ResponseBuilder} from '../tools/base/ResponseBuilder.js';
import {
  boundValue,
  cutText,
  SHOWN_URL_CHARS,
  VALUE_DEPTH_LIMIT,
} from '../../shared/boundedValue.js';
import {errorText, isRecord} from '../../shared/values.js';
import {oneLine} from '../../shared/inertText.js';

const TITLE_LIMIT = 50;
/**
 * About this many characters of structuredContent: it repeats the text's key fields as data, and
 * a 50 MB script result sent twice (text and copy) doubled the seconds every other client waited
 * while it was written. The text carries the whole value; the copy is cut with a marker.
 */
const STRUCTURED_CONTENT_CHARS = 1024 * 1024;

/**
 * What the page list of a reply is read from: the caller's pages (its selection, the
 * pages it may see); a plain object in unit tests.
 */
export type PageListSource = Pick<ClientPages, 'infos' | 'takeSelectionNote'>;

/**
 * Who a reply's snapshot is for: with snapshot diffs on, a client session that has a snapshot of
 * the page gets the changes since (snapshot/diffs.ts).
 */
export interface SnapshotAudience {
  client: string;
  diffs: boolean;
}

function formatPageLine(page: PageInfo): string {
  const title = oneLine(
    page.title.length > TITLE_LIMIT ? `${page.title.slice(0, TITLE_LIMIT)}...` : page.title,
  );
  const url = oneLine(page.url);
  const label = title && title !== url ? `${title} (${url})` : url;
  const selected = page.selected ? ' [selected]' : '';
  const context =
    page.isolatedContext === undefined ? '' : ` isolatedContext=${page.isolatedContext}`;
  return `${page.id}: ${label}${selected}${context}`;
}

export async function renderResponse(
  response: ResponseBuilder,
  pages: PageListSource,
  files: FileAccess,
  audience?: SnapshotAudience,
): Promise<CallToolResult> {
  const out: string[] = [...response.notes];
  if (response.slim) {
    out.push(...response.lines);
    if (response.error) {
      out.push(`Error: ${response.error.message}`);
    }
    return {
      content: [{type: 'text', text: out.join('\n')}],
      ...resultFlags(response),
    };
  }

  // A snapshot added to an action fails in place (the action itself succeeded); one the call
  // exists for (take_snapshot), or one that could not be saved, fails the call.
  const snapshotPromise = renderSnapshot(response, files, audience).catch((error: unknown) => {
    const request = response.snapshot;
    if (request?.required || request?.filePath !== undefined) {
      response.error ??= error instanceof Error ? error : new Error(errorText(error));
      return undefined;
    }
    return `Could not take a snapshot: ${errorText(error)}`;
  });
  const rendered = await renderSections(response);
  const pushSections = (from: number, to: number): void => {
    for (const section of rendered) {
      if (section.order >= from && section.order < to && section.text) {
        out.push(section.text);
      }
    }
  };

  out.push(...response.lines);
  if (response.navigatedTo !== undefined) {
    out.push(`Page navigated to ${oneLine(cutText(response.navigatedTo, SHOWN_URL_CHARS))}.`);
  }
  pushSections(0, 50);
  out.push(...dialogLines(response));
  if (response.includePagesList) {
    out.push(...pageListLines(response, pages));
  }
  pushSections(50, SECTION_ORDER.snapshot);
  const snapshotText = await snapshotPromise;
  if (snapshotText) {
    out.push(snapshotText);
  }
  pushSections(SECTION_ORDER.snapshot, Number.POSITIVE_INFINITY);
  if (response.error) {
    out.push(`Error: ${response.error.message}`);
  }

  const content: CallToolResult['content'] = [{type: 'text', text: out.join('\n')}];
  for (const image of response.images) {
    content.push({type: 'image', data: image.data, mimeType: image.mimeType});
  }
  return {content, ...resultFlags(response)};
}

/**
 * isError, or the structured result (tools with an outputSchema) when the call succeeded. It holds
 * page values (a script's result), so it is cut at the depth bound: the transport serializes it.
 */
function resultFlags(
  response: ResponseBuilder,
): Pick<CallToolResult, 'isError' | 'structuredContent'> {
  if (response.error) {
    return {isError: true};
  }
  if (Object.keys(response.structured).length === 0) {
    return {};
  }
  const bounded = boundValue(response.structured, {
    maxDepth: VALUE_DEPTH_LIMIT,
    maxChars: STRUCTURED_CONTENT_CHARS,
  });
  return isRecord(bounded.value) ? {structuredContent: bounded.value} : {};
}

/** Every section, produced in parallel; a failing one says so in its place. */
function renderSections(
  response: ResponseBuilder,
): Promise<{order: number; text: string | undefined}[]> {
  return Promise.all(
    response.sections.map(async section => ({
      order: section.order,
      text: await Promise.resolve(section.render()).catch(
        (error: unknown) => `Error: ${errorText(error)}`,
      ),
    })),
  );
}

/** The open JavaScript dialog of the page, which blocks most tools until handled. */
function dialogLines(response: ResponseBuilder): string[] {
  const dialog = response.page?.dialog;
  if (!dialog) {
    return [];
  }
  const defaultValue = dialog.defaultValue
    ? ` (default value: ${JSON.stringify(dialog.defaultValue)})`
    : '';
  return [
    '# Open dialog',
    `${dialog.type}: ${oneLine(dialog.message)}${defaultValue}.`,
    'Call handle_dialog to handle it before continuing.',
  ];
}

/** The pages (and extension pages and workers), after a one-time note if the selection moved. */
function pageListLines(response: ResponseBuilder, pages: PageListSource): string[] {
  const out: string[] = [];
  const note = pages.takeSelectionNote();
  if (note) {
    out.push(note);
  }
  const infos = pages.infos();
  const isExtensionPage = (page: PageInfo): boolean => page.url.startsWith('chrome-extension://');
  out.push('## Pages', ...infos.filter(page => !isExtensionPage(page)).map(formatPageLine));
  const extensionPages = infos.filter(isExtensionPage);
  if (extensionPages.length > 0) {
    out.push('## Extension Pages', ...extensionPages.map(formatPageLine));
  }
  const workers = response.extensionWorkers ?? [];
  if (workers.length > 0) {
    out.push(
      '## Extension Service Workers',
      ...workers.map(({id, url}) => `${id}: ${oneLine(url)}`),
    );
  }
  return out;
}

async function renderSnapshot(
  response: ResponseBuilder,
  files: FileAccess,
  audience: SnapshotAudience | undefined,
): Promise<string | undefined> {
  const request = response.snapshot;
  const page = response.page;
  if (!request || !page) {
    return undefined;
  }
  const snapshot = await takeSnapshot(page, {verbose: request.verbose, rootUid: request.rootUid});
  if (request.filePath !== undefined) {
    const saved = await files.writeFile(request.filePath, snapshot.text);
    return `Saved snapshot to ${saved}.`;
  }
  if (audience?.diffs === true && request.rootUid === undefined && snapshot.document) {
    const text = seenSnapshotsFeature
      .get(page)
      .answer(
        audience.client,
        {text: snapshot.text, document: snapshot.document, verbose: request.verbose},
        request.full === true,
      );
    return `## Latest page snapshot\n${text}`;
  }
  return `## Latest page snapshot\n${snapshot.text}`;
}
