/**
 * Which variable of the generated test stands for each recorded page: the test's `page` for the
 * first one used, `context.newPage()` for pages the agent opened with new_page, the page a
 * `waitForEvent('popup')` caught for pages a click (or any action) opened, and for a page the
 * recording never saw open, a new page at the URL it had (a local file only inside a folder the
 * user named).
 */
import {isFileUrl, NO_FILES, type ExportFiles} from './files.js';
import {jsString, lineComment} from './literals.js';
import type {RecordedCall} from '../replay/calls.js';

export class ExportPages {
  constructor(private readonly files: ExportFiles = NO_FILES) {}

  readonly #vars = new Map<number, string>();
  #pageUsed = false;
  #count = 1;
  /** The variable of the page calls without a pageId act on (the selected page). */
  current = 'page';

  #fresh(): string {
    return `page${++this.#count}`;
  }

  /** The variable a new_page call's page gets, and the line that creates it (if any). */
  open(recordedId: number | undefined): {name: string; create?: string} {
    const first = !this.#pageUsed;
    const name = first ? 'page' : this.#fresh();
    this.#pageUsed = true;
    if (recordedId !== undefined) {
      this.#vars.set(recordedId, name);
    }
    this.current = name;
    return first ? {name} : {name, create: `const ${name} = await context.newPage();`};
  }

  /** The variable of a page an action opened (a popup); the caller waits for it. */
  popup(recordedId: number): string {
    const name = this.#fresh();
    this.#vars.set(recordedId, name);
    return name;
  }

  /** Whether a recorded page already has its variable. */
  has(recordedId: number): boolean {
    return this.#vars.has(recordedId);
  }

  /** The variable of a recorded page id (or the current page), with any lines that make it. */
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
    // Open before the recording, or by something the recording does not show: opened here.
    const name = this.#fresh();
    this.#vars.set(recordedId, name);
    const url = call.pagesAfter.find(info => info.id === recordedId)?.url;
    return {name, lines: [`const ${name} = await context.newPage();`, ...this.#goto(name, url)]};
  }

  /** Opening a page's recorded URL: the web, or a local file inside a folder the user named. */
  #goto(name: string, url: string | undefined): string[] {
    if (url === undefined || !/^https?:|^file:/i.test(url)) {
      return [];
    }
    const decision = isFileUrl(url) ? this.files.fileUrl(url) : {ok: url};
    return 'ok' in decision
      ? [`await ${name}.goto(${jsString(decision.ok)});`]
      : [lineComment(`(not opened: ${decision.refused})`)];
  }
}
