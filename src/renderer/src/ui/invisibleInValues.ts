/**
 * The values a form or a JSON field holds that contain invisible or bidi characters (a WebMCP
 * schema's default, a call handed over from the log). A field shows its value raw — changing it
 * would change what is sent — so the editor lists these values below it with the characters made
 * visible. The walk is bounded: the values come from a page or a client.
 */
import {isRecord} from '../../../shared/values.js';
import {hasInvisible, revealInvisible} from './revealInvisible.js';

/** A value with hidden characters: where it is (`address.street`, `tags[2]`) and how it reads. */
export interface InvisibleValue {
  path: string;
  shown: string;
}

const MAX_DEPTH = 8;
const MAX_VISITED = 2_000;
const MAX_FOUND = 10;
/** Characters of a value shown (revealed), so one huge value cannot flood the notice. */
const MAX_SHOWN = 200;

export interface InvisibleValues {
  found: InvisibleValue[];
  /** More values than listed have hidden characters, or the walk stopped at its bounds. */
  more: boolean;
}

export function invisibleInValues(values: Record<string, unknown>): InvisibleValues {
  const found: InvisibleValue[] = [];
  let visited = 0;
  let more = false;
  const visit = (value: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) {
      more = true;
      return;
    }
    // Sliced before mapping: a page's array of a million items costs no more than MAX_VISITED.
    const children: [string, unknown][] = Array.isArray(value)
      ? value.slice(0, MAX_VISITED).map((item, index) => [`${path}[${index}]`, item])
      : isRecord(value)
        ? Object.entries(value)
            .slice(0, MAX_VISITED)
            .map(([key, item]) => [path === '' ? key : `${path}.${key}`, item])
        : [];
    for (const [childPath, child] of children) {
      if (more || ++visited > MAX_VISITED) {
        more = true;
        return;
      }
      // A key the page chose can hide characters as well as a value.
      if (typeof child === 'string' && hasInvisible(child + childPath)) {
        if (found.length === MAX_FOUND) {
          more = true;
          return;
        }
        found.push({path: revealInvisible(childPath), shown: shownValue(child)});
      } else if (typeof child !== 'string') {
        visit(child, childPath, depth + 1);
      }
    }
  };
  visit(values, '', 0);
  return {found, more};
}

function shownValue(value: string): string {
  const shown = revealInvisible(value.slice(0, MAX_SHOWN));
  return value.length > MAX_SHOWN ? `${shown}… (${value.length} characters)` : shown;
}
