/**
 * What the snapshot reads from each document besides its accessibility tree, in an isolated world
 * (the page's own scripts cannot see or tamper with it):
 *
 * - the tree probe's reading: equal readings mean the tree is still the same.
 * - the change log's take: what changed since the tree the engine keeps.
 * - the DOM marks: elements with `aria-current`, `aria-sort` or `aria-valuetext`, which the AX
 *   properties do not carry (or, for the last, not always), visible controls aria-hidden takes
 *   out, and grids' indices and counts (gridOrder.ts).
 *
 * The in-page side is src/injected/treeProbe.ts, treeChanges.ts and domMarks.ts (the probe itself
 * in src/injected/common/treeProbe.ts).
 */
import {z} from 'zod';
import {evaluateInDocument, sendsAtOnce, type DocumentRef} from '../documentWorld.js';
import {gridMarkSchema, type GridMark} from './gridOrder.js';
import {
  DialogOpenedError,
  EvaluationTimeoutError,
  inPage,
  PROBE_TIMEOUT_MS,
} from '../evaluation.js';
import {callExpression} from '../injectedCall.js';
import {FIND_DOM_MARKS, READ_TREE_PROBE, TAKE_TREE_CHANGES} from '../injectedSources.generated.js';
import type {PageState} from '../pages/PageState.js';
import {snapshotBoundsFeature} from './snapshotBounds.js';

/**
 * Each read releases its own group of remote objects: reads of two documents on one cdp (a
 * page and its same-site frame) run at once, and one must not release the other's objects.
 */
let groups = 0;
function objectGroup(what: string): string {
  groups = (groups + 1) % Number.MAX_SAFE_INTEGER;
  return `mcp-browser-inspector-${what}-${groups}`;
}

/** Installs the probe once per document and returns its reading. */
const READ_PROBE = callExpression(READ_TREE_PROBE);

/**
 * The marked elements, as a flat list of element, info pairs, or null. The info is '' for
 * aria-current / aria-sort / aria-valuetext; for a control that aria-hidden removes from the AX
 * tree although a sighted user sees and can click it, its role and name as JSON; for a grid's
 * rows, cells and the grid itself, their indices and counts as JSON (gridOrder.ts).
 */
const FIND_MARKED = callExpression(FIND_DOM_MARKS);

/**
 * Whether a probe of the document is sent at once, in the same turn, so that a command sent right
 * after it on the same cdp (the tree read) is answered after it.
 */
export function probeSendsAtOnce(doc: ProbeTarget): boolean {
  return sendsAtOnce(doc);
}

/** Bounded, and given up as soon as a JavaScript dialog blocks the page (evaluation.ts rules). */
export function raceDialog<T>(
  state: PageState,
  work: Promise<T>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<T> {
  return inPage(state, () => work, {timeoutMs, what: 'The page'});
}

export type ProbeTarget = DocumentRef;

/**
 * The probe reading of one document, or undefined when it cannot be read (treated as changed).
 * `timeoutMs` bounds the read (default PROBE_TIMEOUT_MS).
 */
export async function readProbe(
  state: PageState,
  doc: ProbeTarget,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<string | undefined> {
  try {
    const {value} = await evaluateInDocument(state, doc, {
      expression: READ_PROBE,
      returnByValue: true,
      timeoutMs,
    });
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** What is left of a bound shared by the steps of one read (at least 1 ms). */
function until(timeoutMs: number): () => number {
  const deadline = Date.now() + timeoutMs;
  return () => Math.max(1, deadline - Date.now());
}

/** How a root of a change is read again: its subtree, its own node and child list, or its node. */
export type ChangeKind = 'tree' | 'children' | 'self';

export interface ChangeRoot {
  backendNodeId: number;
  kind: ChangeKind;
  /** A small child of a `children` or `self` root, whose ancestors are the root's. */
  anchor?: number | undefined;
}

/** What changed in a document since the tree kept of it (src/injected/treeChanges.ts). */
export interface TakenChanges {
  /** The log's epoch after this take: the next take expects it. */
  epoch: number;
  /** The probe reading at the take (for the snapshot cache). */
  reading: string;
  /** Why the change cannot be scoped ('' when it can). */
  full: string;
  /** A root holds a frame: the documents inside it may have changed too. */
  frames: boolean;
  /** The document's element count. */
  elements: number;
  roots: ChangeRoot[];
}

const takenSchema = z.object({
  epoch: z.number(),
  reading: z.string(),
  full: z.string(),
  frames: z.boolean(),
  kinds: z.string(),
  elements: z.number(),
});

const KINDS: Record<string, ChangeKind> = {t: 'tree', c: 'children', s: 'self'};

/**
 * Takes the document's change log (installing the probe if needed): the roots of what changed
 * since `expectedEpoch`, or why it cannot be scoped. Undefined when the document cannot be read;
 * throws EvaluationTimeoutError when it does not answer in time, DialogOpenedError for a dialog.
 */
export async function takeChanges(
  state: PageState,
  doc: ProbeTarget,
  expectedEpoch: number,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<TakenChanges | undefined> {
  const group = objectGroup('changes');
  const left = until(timeoutMs);
  try {
    const {objectId} = await evaluateInDocument(state, doc, {
      expression: callExpression(
        TAKE_TREE_CHANGES,
        expectedEpoch,
        snapshotBoundsFeature.get(state).wholeReadElementLimit,
      ),
      returnByValue: false,
      objectGroup: group,
      timeoutMs: left(),
    });
    if (objectId === undefined) {
      return undefined;
    }
    const {result} = await raceDialog(
      state,
      doc.cdp.send('Runtime.getProperties', {objectId, ownProperties: true}),
      left(),
    );
    const byIndex = new Map(result.map(property => [property.name, property.value]));
    const info = takenSchema.parse(JSON.parse(String(byIndex.get('0')?.value)));
    const taken: TakenChanges = {...info, roots: []};
    if (info.full !== '') {
      return taken;
    }
    const describe = async (objectId: string | undefined): Promise<number | undefined> => {
      if (objectId === undefined) {
        return undefined;
      }
      const node = describeSchema.safeParse(
        await raceDialog(state, doc.cdp.send('DOM.describeNode', {objectId}), left()),
      );
      return node.success ? node.data.node.backendNodeId : undefined;
    };
    const described = await Promise.all(
      Array.from({length: info.kinds.length}, (_, index) => info.kinds.charAt(index)).map(
        async (letter, index) => {
          const kind = KINDS[letter];
          const rootId = byIndex.get(String(2 * index + 1))?.objectId;
          const anchorId = byIndex.get(String(2 * index + 2))?.objectId;
          const [backendNodeId, anchor] = await Promise.all([describe(rootId), describe(anchorId)]);
          if (backendNodeId === undefined || kind === undefined) {
            return undefined;
          }
          return {backendNodeId, kind, anchor};
        },
      ),
    );
    for (const root of described) {
      if (!root) {
        return {...taken, full: 'a changed node could not be read'};
      }
      taken.roots.push(root);
    }
    return taken;
  } catch (error) {
    // A page that does not answer in time, or a dialog, is the caller's to report.
    if (error instanceof EvaluationTimeoutError || error instanceof DialogOpenedError) {
      throw error;
    }
    return undefined;
  } finally {
    void doc.cdp.send('Runtime.releaseObjectGroup', {objectGroup: group}).catch(() => undefined);
  }
}

export interface HiddenControl {
  role: string;
  name: string;
}

export interface Marks {
  current: Map<number, string>;
  sort: Map<number, string>;
  valueText: Map<number, string>;
  /** Visible controls that aria-hidden takes out of the AX tree. */
  hiddenControls: Map<number, HiddenControl>;
  /** Row and column indices and counts of grids (gridOrder.ts). */
  grid: Map<number, GridMark[]>;
}

const hiddenControlSchema = z.object({role: z.string(), name: z.string()});

const describeSchema = z.object({
  node: z.object({backendNodeId: z.number(), attributes: z.array(z.string()).optional()}),
});

function attribute(attributes: readonly string[] | undefined, name: string): string | undefined {
  const list = attributes ?? [];
  for (let index = 0; index + 1 < list.length; index += 2) {
    if (list[index] === name) {
      return list[index + 1];
    }
  }
  return undefined;
}

/** Files one marked node: a hidden control or grid mark (JSON info), else its ARIA attributes. */
function addMark(
  marks: Marks,
  backendNodeId: number,
  attributes: string[] | undefined,
  info: unknown,
): void {
  if (typeof info === 'string' && info !== '') {
    const json: unknown = JSON.parse(info);
    const control = hiddenControlSchema.safeParse(json);
    const grid = control.success ? undefined : gridMarkSchema.safeParse(json);
    if (control.success) {
      marks.hiddenControls.set(backendNodeId, control.data);
    } else if (grid?.success === true) {
      marks.grid.set(backendNodeId, [...(marks.grid.get(backendNodeId) ?? []), grid.data]);
    }
    return;
  }
  const current = attribute(attributes, 'aria-current')?.trim().toLowerCase();
  if (current !== undefined && current !== 'false') {
    marks.current.set(backendNodeId, current === '' ? 'true' : current);
  }
  const sort = attribute(attributes, 'aria-sort')?.trim().toLowerCase();
  if (sort !== undefined && sort !== 'none' && sort !== '') {
    marks.sort.set(backendNodeId, sort);
  }
  const valueText = attribute(attributes, 'aria-valuetext')?.trim();
  if (valueText) {
    marks.valueText.set(backendNodeId, valueText);
  }
}

/** aria-current and aria-sort values by backend node id (empty when none or unreadable). */
export async function readMarks(
  state: PageState,
  doc: ProbeTarget,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Marks> {
  const marks: Marks = {
    current: new Map(),
    sort: new Map(),
    valueText: new Map(),
    hiddenControls: new Map(),
    grid: new Map(),
  };
  const group = objectGroup('marks');
  const left = until(timeoutMs);
  try {
    const {objectId} = await evaluateInDocument(state, doc, {
      expression: FIND_MARKED,
      returnByValue: false,
      objectGroup: group,
      timeoutMs: left(),
    });
    if (objectId === undefined) {
      return marks;
    }
    const {result} = await raceDialog(
      state,
      doc.cdp.send('Runtime.getProperties', {objectId, ownProperties: true}),
      left(),
    );
    const byIndex = new Map(result.map(property => [property.name, property.value]));
    const pairs: {objectId: string; info: unknown}[] = [];
    for (let index = 0; byIndex.has(String(index)); index += 2) {
      const objectId = byIndex.get(String(index))?.objectId;
      if (objectId !== undefined) {
        pairs.push({objectId, info: byIndex.get(String(index + 1))?.value});
      }
    }
    const described = await Promise.all(
      pairs.map(async pair => ({
        info: pair.info,
        node: describeSchema.safeParse(
          await raceDialog(
            state,
            doc.cdp.send('DOM.describeNode', {objectId: pair.objectId}),
            left(),
          ),
        ),
      })),
    );
    for (const {info, node} of described) {
      if (!node.success) {
        continue;
      }
      const {backendNodeId, attributes} = node.data.node;
      addMark(marks, backendNodeId, attributes, info);
    }
  } catch {
    // Without the marks the snapshot still shows everything the AX tree has.
  } finally {
    void doc.cdp.send('Runtime.releaseObjectGroup', {objectGroup: group}).catch(() => undefined);
  }
  return marks;
}
