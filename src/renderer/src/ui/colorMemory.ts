/**
 * Client colours remembered between runs, in the browser's own storage for this inspector's
 * origin: a name keeps the colour it had, even one it was moved to because another client had
 * its own. What is read back is checked (another tab or an old version may have written it).
 */
import {isRecord} from '../../../shared/values.js';
import type {ColorMemory} from './clientStyles.js';

const KEY = 'mcp-browser-inspector.client-colors';

/** The stored colours that are whole numbers (the styler checks their range); zod stays out of the first paint. */
function readColors(text: string): Record<string, number> {
  const parsed: unknown = JSON.parse(text);
  const colors: Record<string, number> = {};
  if (isRecord(parsed)) {
    for (const [name, color] of Object.entries(parsed)) {
      if (typeof color === 'number' && Number.isInteger(color)) {
        colors[name] = color;
      }
    }
  }
  return colors;
}

export function browserColorMemory(): ColorMemory | undefined {
  let storage: Storage;
  try {
    storage = window.localStorage;
  } catch {
    // Storage refused (a sandboxed frame, a privacy setting): colours follow the names alone.
    return undefined;
  }
  return {
    load: () => {
      try {
        return readColors(storage.getItem(KEY) ?? '{}');
      } catch {
        return {};
      }
    },
    save: colors => {
      try {
        storage.setItem(KEY, JSON.stringify(colors));
      } catch {
        // Full or refused: the colours still hold for this run.
      }
    },
  };
}
