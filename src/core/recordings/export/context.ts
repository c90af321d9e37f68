/**
 * What the assertion writers (observed.ts, states.ts, texts.ts) get from the test
 * export: the expression of a page or frame, the fields the agent filled, and helper functions
 * the file needs.
 */
import type {RecordedElement} from '../../../shared/protocol.js';
import {locatorFor} from './locators.js';
import type {FrameStep, SnapshotNode} from './snapshot.js';

/** How a filled field takes its value (from the element as recorded when the agent filled it). */
export type FieldKind = NonNullable<RecordedElement['field']>;

/** Helper functions a step may need in the file (written once, typed). */
export type HelperName = 'fillField' | 'uploadFiles' | 'expectValue' | 'expectActiveDescendant';

export interface ObservationContext {
  /** The expression of the page, or of the frame at the end of a chain of iframes in it. */
  scopeOf: (frames: readonly FrameStep[]) => string;
  /** Fields the agent filled on this page, by uid: how they take a value is known. */
  fields: ReadonlyMap<string, FieldKind>;
  /** Puts a helper function in the file; returns its name. */
  helper: (name: HelperName) => string;
}

/** The locator of a snapshot node in its frame; '' when it has no handle. */
export function locate(context: ObservationContext, node: SnapshotNode): string {
  return locatorFor(context.scopeOf(node.frames), node);
}
