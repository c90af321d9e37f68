/**
 * Sections that list the page's own tools (WebMCP, third-party developer tools) after navigation
 * and in list_pages, when their categories are on. Features register a provider here.
 */
import type {PageState} from '../browser/PageState.js';
import type {ResponseBuilder} from './response/ResponseBuilder.js';
import type {ToolCall} from './definition.js';

export type PageToolSectionProvider = (
  call: ToolCall<unknown>,
  response: ResponseBuilder,
  page: PageState,
) => void;

const providers: PageToolSectionProvider[] = [];

export function registerPageToolSection(provider: PageToolSectionProvider): void {
  providers.push(provider);
}

export function pageToolSections(
  call: ToolCall<unknown>,
  response: ResponseBuilder,
  page: PageState | undefined,
): void {
  if (!page) {
    return;
  }
  for (const provider of providers) {
    provider(call, response, page);
  }
}
