/**
 * What the heap snapshot analysis tools share: their parameters, chrome-devtools-mcp's
 * "## Heap Snapshot Data" section with its paging lines, and defineSnapshotTool, which gives each
 * tool the family's fixed traits (memory category, --memoryDebugging, offline: files only).
 */
import {z} from 'zod';
import {HeapSnapshotStore, type LoadedSnapshot} from '../../heap/HeapSnapshotStore.js';
import type {HeapRequest} from '../../heap/protocol.js';
import {MAX_NAME_LENGTH} from '../../heap/format.js';
import {HEAP_SNAPSHOT_FILTERS} from '../../heap/protocol.js';
import {pageWindow, type PageRequest} from '../../../shared/pageWindow.js';
import {defineTool, type BrowserToolSpec, type Tool} from '../base/definition.js';
import {paginationLines} from '../base/pagination.js';
import {SECTION_ORDER} from '../base/ResponseBuilder.js';

const HEADER = '## Heap Snapshot Data';

export const filePathSchema = z.string().describe('A path to a .heapsnapshot file to read.');
export const nodeIdSchema = (purpose: string) =>
  z.number().describe(`The node ID to get ${purpose} for.`);
export const maxNameLengthSchema = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(`Maximum length of names before truncation. Defaults to ${MAX_NAME_LENGTH}.`);
const pageIdxSchema = z
  .number()
  .int()
  .nonnegative()
  .optional()
  .describe('The page index for pagination.');
const pageSizeSchema = z
  .number()
  .int()
  .positive()
  .optional()
  .describe('The page size for pagination.');
export const filterSchema = z
  .enum(HEAP_SNAPSHOT_FILTERS)
  .optional()
  .describe('An optional filter to apply.');
export const objectIdSchema = z
  .number()
  .optional()
  .describe(
    'Node id of the native context to filter by when filterName is attributedToSpecificNativeContext.',
  );
export const paging = {pageIdx: pageIdxSchema, pageSize: pageSizeSchema};

/** The one snapshot file most tools read. */
export const FILE_PATH = [{param: 'filePath', scope: 'always'}] as const;

export function pageLines(total: number, page: PageRequest): string[] {
  return paginationLines(pageWindow(total, page), total);
}

export function pageOf(params: {
  pageIdx?: number | undefined;
  pageSize?: number | undefined;
}): PageRequest {
  return {pageIdx: params.pageIdx, pageSize: params.pageSize};
}

/**
 * One page of a list from the snapshot worker, formatted, then its paging lines: what every list
 * tool of the family answers.
 */
export async function listPageLines<T extends z.ZodType<{items: unknown[]; total: number}>>(
  snapshot: LoadedSnapshot,
  params: {pageIdx?: number | undefined; pageSize?: number | undefined},
  ask: {request: (page: PageRequest) => HeapRequest; reply: T},
  format: (items: z.infer<T>['items']) => string,
): Promise<string[]> {
  const page = pageOf(params);
  const data = await snapshot.ask(ask.request(page), ask.reply);
  return [format(data.items), ...pageLines(data.total, page)];
}

type Params<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

export interface SnapshotToolSpec<S extends z.ZodRawShape, N extends string> {
  name: N;
  description: string;
  schema: S;
  filePaths: NonNullable<BrowserToolSpec<S>['filePaths']>;
  /** The section's lines; `open` loads (and caches) a snapshot file, bounded and cancellable. */
  lines: (params: Params<S>, open: (file: string) => Promise<LoadedSnapshot>) => Promise<string[]>;
}

/** A read-only analysis tool whose answer is one heap snapshot data section. */
export function defineSnapshotTool<S extends z.ZodRawShape, const N extends string>(
  spec: SnapshotToolSpec<S, N>,
): Tool<N> {
  return defineTool({
    name: spec.name,
    description: spec.description,
    category: 'memory',
    readOnly: true,
    conditions: ['memoryDebugging'],
    offline: true,
    browserLock: 'none',
    schema: spec.schema,
    filePaths: spec.filePaths,
    handler: async (call, response) => {
      const lines = await spec.lines(call.params, async file => {
        // Opened once and checked here; the worker reads only through this handle.
        HeapSnapshotStore.checkExtension(file);
        const {target, handle} = await call.files.openForReading(file);
        return call.services.heapSnapshots.get(target, handle, call.signal);
      });
      const text = [HEADER, ...lines].join('\n');
      response.addSection(SECTION_ORDER.heap, () => text);
    },
  });
}
