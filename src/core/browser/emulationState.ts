/**
 * Per-page emulation state, echoed in responses. (Filled in by the tool-parity issue.)
 */
import type {AttachableFeature} from './PageState.js';

export const emulationFeatures: AttachableFeature[] = [];
