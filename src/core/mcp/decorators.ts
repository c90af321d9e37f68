/**
 * Page state that every response must repeat while it lasts (active emulation, for one), added by
 * features to any response that concerns a page.
 */
import type {PageState} from '../browser/PageState.js';
import type {ResponseBuilder} from '../tools/response/ResponseBuilder.js';

export type ResponseDecorator = (response: ResponseBuilder, page: PageState) => void;

const decorators: ResponseDecorator[] = [];

export function registerResponseDecorator(decorator: ResponseDecorator): void {
  decorators.push(decorator);
}

export function decorateResponse(response: ResponseBuilder): void {
  const page = response.page;
  if (!page || response.slim) {
    return;
  }
  for (const decorator of decorators) {
    decorator(response, page);
  }
}
