/**
 * Per-page collectors (console, network): eager page features, attached as soon as a page is
 * registered so they see its first request. (Filled in by the tool-parity issue.)
 */
import type {AttachableFeature} from '../PageState.js';

export const collectorFeatures: AttachableFeature[] = [];
