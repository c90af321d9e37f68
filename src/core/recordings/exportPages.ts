/**
 * Which variable of the generated test stands for each recorded page: the test's `page` for the
 * first one used, `context.newPage()` for pages the agent opened later, and a lookup by URL for
 * pages the agent did not open itself (popups).
 */
import {jsString} from './exportLiterals.js';
import type {RecordedCall} from './replayCalls.js';

export class ExportPages {
  readonly #vars = new Map<number, string>();
  #pageUsed = false;
  #count = 1;
  /** The variable of the page calls without a pageId act on (the selected page). */
  current = 'page';

  /** The variable a new_page call's page gets, and the line that creates it (if any). */
  open(recordedId: number | undefined): {name: string; create?: string} {
    const fresh = !this.#pageUsed;
    const name = fresh ? 'page' : `page${++this.#count}`;
    this.#pageUsed = true;
    if (recordedId !== undefined) {
      this.#vars.set(recordedId, name);
    }
    this.current = name;
    return fresh ? {name} : {name, create: `const ${name} = await context.newPage();`};
  }

  /** The variable of a recorded page id (or the current page), with any lines that find it. */
  of(recordedId: number | undefined, call: RecordedCall): {name: string; lines: string[]} {
    if (recordedId === undefined) {
      this.#pageUsed = true;
      return {name: this.current, lines: []};
    }
    const known = this.#vars.get(recordedId);
    if (known !== undefined) {
      return {name: known, lines: []};
    }
    if (!this.#pageUsed) {
      this.#pageUsed = true;
      this.#vars.set(recordedId, 'page');
      return {name: 'page', lines: []};
    }
    const name = `page${++this.#count}`;
    this.#vars.set(recordedId, name);
    const url = call.pagesAfter.find(info => info.id === recordedId)?.url ?? '';
    return {
      name,
      lines: [
        `const ${name} = context.pages().find(candidate => candidate.url() === ${jsString(url)}) ?? page;`,
      ],
    };
  }
}
