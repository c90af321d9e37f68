/**
 * What tool families add to responses besides their own tools' output. Each family exports its
 * sections; tools/index.ts lists them with the tools and the catalog holds them, so what a
 * response carries never depends on which modules happened to be imported.
 */
import type {ManagedBrowser} from '../../browser/launch/ManagedBrowser.js';
import type {PageState} from '../../browser/pages/PageState.js';
import type {Tool} from './definition.js';
import type {ResponseBuilder} from './ResponseBuilder.js';
import type {EngineServices} from './services.js';

/** Page state every response about the page repeats while it lasts (active emulation, for one). */
export type PageStateSection = (response: ResponseBuilder, page: PageState) => void;

/** The engine-wide parts of a call a section of page-offered tools may consult. */
export interface SectionContext {
  browser: ManagedBrowser;
  services: EngineServices;
}

/** Lists the page's own tools (WebMCP, third-party developer tools) while their category is on. */
export type PageOfferedToolSection = (
  response: ResponseBuilder,
  page: PageState,
  context: SectionContext,
) => void;

/** Every tool and response section the engine has: what the catalog is built from. */
export interface ToolSet {
  tools: readonly Tool[];
  pageStateSections: readonly PageStateSection[];
  pageOfferedToolSections: readonly PageOfferedToolSection[];
}
