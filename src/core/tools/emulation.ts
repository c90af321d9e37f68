/**
 * Tool family: emulation. (Filled in by its issue; registered in tools/index.ts.)
 */
import type {Tool} from './definition.js';

export const emulationTools: Tool[] = [];
