/**
 * The response a tool handler fills: it says what to include, the pipeline decides how to render.
 * Sections render in a fixed order (chrome-devtools-mcp's), so responses look the same whichever
 * tool produced them. Features add their own sections (network list, console, WebMCP…) through
 * `addSection` with an order from SECTION_ORDER.
 */
import type {Rect} from '../../browser/input/elements.js';
import type {PageState} from '../../browser/pages/PageState.js';

export const SECTION_ORDER = {
  emulation: 40,
  trace: 70,
  lighthouse: 80,
  snapshot: 90,
  heap: 100,
  detail: 110,
  extensions: 115,
  pageOfferedTools: 120,
  networkList: 130,
  consoleList: 140,
} as const;

export interface ImageAttachment {
  data: string;
  mimeType: string;
}

type SectionRenderer = () => Promise<string | undefined> | string | undefined;

export interface SnapshotRequest {
  verbose: boolean;
  filePath?: string | undefined;
  /** The snapshot is what the call is for: failing to take or save it fails the call. */
  required?: boolean;
  /** Only this element's subtree, with every option of its lists. */
  rootUid?: string | undefined;
  /** The whole tree even where the client could get the changes since its last (snapshot diffs). */
  full?: boolean | undefined;
}

export class ResponseBuilder {
  readonly lines: string[] = [];
  readonly images: ImageAttachment[] = [];
  readonly #sections: {order: number; render: SectionRenderer}[] = [];
  readonly structured: Record<string, unknown> = {};
  includePagesList = false;
  snapshot: SnapshotRequest | undefined;
  navigatedTo: string | undefined;
  page: PageState | undefined;
  error: Error | undefined;
  /** Element the tool acted on, for the inspector's live view highlight. */
  actedOn: Rect | undefined;
  /** Extension service workers listed with the pages (Extensions category on). */
  extensionWorkers: {id: string; url: string}[] | undefined;
  /** A one-time note shown first (browser reconnect). */
  readonly notes: string[] = [];

  constructor(readonly slim: boolean) {}

  appendLine(line: string): void {
    this.lines.push(line);
  }

  includePages(): void {
    this.includePagesList = true;
  }

  includeSnapshot(request: SnapshotRequest = {verbose: false}): void {
    this.snapshot = request;
  }

  attachImage(image: ImageAttachment): void {
    this.images.push(image);
  }

  setNavigatedTo(url: string | undefined): void {
    this.navigatedTo = url;
  }

  setPage(page: PageState): void {
    this.page = page;
  }

  setError(error: Error): void {
    this.error = error;
  }

  setActedOn(rect: Rect | undefined): void {
    this.actedOn = rect;
  }

  addSection(order: number, render: SectionRenderer): void {
    this.#sections.push({order, render});
  }

  get sections(): readonly {order: number; render: SectionRenderer}[] {
    return [...this.#sections].sort((a, b) => a.order - b.order);
  }
}
