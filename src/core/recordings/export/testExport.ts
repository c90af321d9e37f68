/**
 * One export's state, call by call: the latest recorded snapshot of each page (what elements are
 * located by, and what the next snapshot is compared with), which pages the test acted on since,
 * the fields the agent filled, and the dialogs the recording answered. Each step is its call's
 * action (from the step table) with a dialog handler registered before it when the action opened
 * a dialog, a wait for the page it opened, the URL it led to, and what the agent saw change.
 */
import {isRecord} from '../../../shared/values.js';
import {jsString} from './literals.js';
import {frameLocator, locatorFor} from './locators.js';
import {
  headingAssertions,
  observedChanges,
  type FieldKind,
  type ObservationContext,
} from './observed.js';
import {NO_FILES, type ExportFiles} from './files.js';
import type {ExportPages} from './pages.js';
import {parseSnapshot, type FrameStep, type ParsedSnapshot} from './snapshot.js';
import {
  elementOf,
  NoteStep,
  pageOf,
  SkipStep,
  type HelperName,
  type StepContext,
  type TestExport,
} from './stepKit.js';
import {stepExportOf} from './steps.js';
import type {RecordedCall} from '../replay/calls.js';

interface DialogAnswer {
  /** `[type, message]` as the recording saw the dialog. */
  seen: [string, string];
  accept: boolean;
  promptText?: string;
}

interface KnownSnapshot {
  snapshot: ParsedSnapshot;
  verbose: boolean;
}

/** The value at a recorded element param (`uid`, `elements[1].uid`, `args[0]`) of the arguments. */
function argumentAt(args: Record<string, unknown>, param: string): unknown {
  let value: unknown = args;
  for (const step of param.split(/[.[\]]/).filter(part => part !== '')) {
    if (Array.isArray(value) && /^\d+$/.test(step)) {
      value = value[Number(step)];
    } else if (isRecord(value) && Object.hasOwn(value, step)) {
      value = value[step];
    } else {
      return undefined;
    }
  }
  return value;
}

function isWebUrl(url: string | undefined): url is string {
  return url !== undefined && /^https?:|^file:/.test(url);
}

export class TestExportState implements TestExport {
  readonly helpers = new Set<HelperName>();
  readonly #snapshots = new Map<number, KnownSnapshot>();
  readonly #seenDocuments = new Set<string>();
  /** Pages acted on since their latest snapshot; `unsure`: an action there was not exported. */
  readonly #acted = new Map<number, 'acted' | 'unsure'>();
  readonly #fields = new Map<number, Map<string, FieldKind>>();
  readonly #urls = new Map<number, string>();
  readonly #emulation = new Map<number, Set<string>>();
  readonly #dialogs = new Map<number, DialogAnswer>();
  /** handle_dialog call index → the index of the call whose dialog it answered. */
  readonly #answeredAt = new Map<number, number>();
  #waits = 0;
  /** Frame variables by page variable and chain, and the declarations the current step needs. */
  readonly #frameVars = new Map<string, string>();
  #declarations: string[] = [];

  constructor(
    readonly pages: ExportPages,
    calls: readonly RecordedCall[],
    readonly files: ExportFiles = NO_FILES,
  ) {
    this.#findDialogs(calls);
  }

  pageIdOf(call: RecordedCall): number | undefined {
    return typeof call.args.pageId === 'number' ? call.args.pageId : call.ended?.pageId;
  }

  #findDialogs(calls: readonly RecordedCall[]): void {
    for (const [position, call] of calls.entries()) {
      const dialog = call.activity.find(item => item.kind === 'dialog');
      if (dialog?.kind !== 'dialog') {
        continue;
      }
      const seen: [string, string] = [dialog.dialogType, dialog.message];
      if (call.tool === 'evaluate_script') {
        // The engine answered it with the call's own dialogAction.
        const action = typeof call.args.dialogAction === 'string' ? call.args.dialogAction : '';
        this.#dialogs.set(call.index, {
          seen,
          accept: action !== 'dismiss',
          ...(action === '' || action === 'accept' || action === 'dismiss'
            ? {}
            : {promptText: action}),
        });
        continue;
      }
      const pageId = this.pageIdOf(call);
      const answer = calls
        .slice(position + 1)
        .find(later => later.tool === 'handle_dialog' && this.pageIdOf(later) === pageId);
      if (answer && !this.#answeredAt.has(answer.index)) {
        const promptText = answer.args.promptText;
        this.#answeredAt.set(answer.index, call.index);
        this.#dialogs.set(call.index, {
          seen,
          accept: answer.args.action === 'accept',
          ...(typeof promptText === 'string' ? {promptText} : {}),
        });
      }
    }
  }

  /** The call that opened the dialog a handle_dialog call answered. */
  dialogOpenedAt(call: RecordedCall): number | undefined {
    return this.#answeredAt.get(call.index);
  }

  emulated(call: RecordedCall): Set<string> {
    const pageId = this.pageIdOf(call) ?? -1;
    const settings = this.#emulation.get(pageId) ?? new Set<string>();
    this.#emulation.set(pageId, settings);
    return settings;
  }

  helper(name: HelperName): string {
    this.helpers.add(name);
    return name;
  }

  noteField(call: RecordedCall, param: string, kind: FieldKind): void {
    const pageId = this.pageIdOf(call);
    const uid = elementOf(call, param)?.uid ?? argumentAt(call.args, param);
    if (pageId === undefined || typeof uid !== 'string') {
      return;
    }
    const fields = this.#fields.get(pageId) ?? new Map<string, FieldKind>();
    fields.set(uid, kind);
    this.#fields.set(pageId, fields);
  }

  /** The expression of the frame at the end of `frames` in `page`: a variable declared once. */
  scopeOf(page: string, frames: readonly FrameStep[]): string {
    let scope = page;
    let key = page;
    for (const frame of frames) {
      key += `>${frame.index}:${frame.nth}:${frame.name}`;
      let name = this.#frameVars.get(key);
      if (name === undefined) {
        name = `frame${this.#frameVars.size + 1}`;
        this.#frameVars.set(key, name);
        this.#declarations.push(`const ${name} = ${frameLocator(scope, frame)};`);
      }
      scope = name;
    }
    return scope;
  }

  locate(context: StepContext, param: string): {page: string; lines: string[]; loc: string} {
    const page = pageOf(context);
    const {call} = context;
    const element = elementOf(call, param);
    const uid = element?.uid ?? argumentAt(call.args, param);
    const pageId = this.pageIdOf(call);
    const known =
      typeof uid === 'string' && pageId !== undefined
        ? this.#snapshots.get(pageId)?.snapshot.byUid.get(uid)
        : undefined;
    let loc = '';
    if (known && (!element || (known.role === element.role && known.name === element.name))) {
      loc = locatorFor(this.scopeOf(page.name, known.frames), known);
    } else if (element) {
      // No recorded snapshot shows it: the frames from its named ancestry, outermost first.
      const frames: FrameStep[] = element.ancestry
        .filter(ancestor => ancestor.role === 'Iframe')
        .reverse()
        .map(ancestor => ({name: ancestor.name, nth: 0, index: 0}));
      loc = locatorFor(this.scopeOf(page.name, frames), element);
    }
    if (loc === '') {
      throw new SkipStep(`no role or name was recorded for ${param}`);
    }
    return {page: page.name, lines: page.lines, loc};
  }

  /** The lines of one call's step, or why it has none. */
  step(call: RecordedCall): {lines: string[]} | {note: string} {
    if (call.ended === undefined) {
      return {note: 'not exported: the recording ends before the call did'};
    }
    if (call.ended.status !== 'ok') {
      return {note: `not exported: the call ended ${call.ended.status} in the recording`};
    }
    const entry = stepExportOf(call.tool);
    if (entry === undefined) {
      return {note: 'not exported: no tool of this version has that name'};
    }
    if ('notExported' in entry) {
      return {note: `not exported: ${entry.notExported}`};
    }
    const acts = typeof entry === 'function';
    const writer = typeof entry === 'function' ? entry : entry.reads;
    const pageId = this.pageIdOf(call);
    const context: StepContext = {pages: this.pages, call, export: this};
    // The page's variable first: waits for dialogs and popups go between it and the action.
    const setup =
      typeof call.args.pageId === 'number' ? this.pages.of(call.args.pageId, call).lines : [];
    let action: string[];
    try {
      action = writer(context);
    } catch (error) {
      if (!(error instanceof SkipStep)) {
        throw error;
      }
      if (acts && pageId !== undefined) {
        this.#acted.set(pageId, 'unsure');
      }
      this.#rememberUrls(call);
      return {note: error instanceof NoteStep ? error.message : `not exported: ${error.message}`};
    }
    const lines = acts ? this.#acting(call, action) : action;
    const unsure = pageId === undefined ? undefined : this.#acted.get(pageId);
    const observed = this.#observe(call, pageId);
    this.#rememberUrls(call);
    // Frames the step's locators use are declared once, before the first step that needs them.
    const declarations = this.#declarations;
    this.#declarations = [];
    if (lines.length + observed.length > 0) {
      return {lines: [...setup, ...declarations, ...lines, ...observed]};
    }
    return {
      note:
        unsure === 'unsure'
          ? 'not checked: an action on this page since the last snapshot was left out'
          : 'nothing the agent saw here changed',
    };
  }

  /** An action with its dialog handler and popup wait around it, then the URL it led to. */
  #acting(call: RecordedCall, action: string[]): string[] {
    const pageId = this.pageIdOf(call);
    if (pageId !== undefined && this.#acted.get(pageId) !== 'unsure') {
      this.#acted.set(pageId, 'acted');
    }
    const page = pageId === undefined ? this.pages.current : this.pages.of(pageId, call).name;
    const before: string[] = [];
    const after: string[] = [];
    const dialog = this.#dialogs.get(call.index);
    if (dialog) {
      const name = `dialog${++this.#waits}`;
      const answer = dialog.accept
        ? `await dialog.accept(${dialog.promptText === undefined ? '' : jsString(dialog.promptText)});`
        : 'await dialog.dismiss();';
      before.push(
        `const ${name} = ${page}.waitForEvent('dialog').then(async dialog => {`,
        `  const seen = [dialog.type(), dialog.message()];`,
        `  ${answer}`,
        '  return seen;',
        '});',
      );
      const [type, message] = dialog.seen;
      after.push(`expect(await ${name}).toEqual([${jsString(type)}, ${jsString(message)}]);`);
    }
    if (call.tool !== 'new_page') {
      const opened = call.newPageIds.filter(id => id !== pageId && !this.pages.has(id)).at(-1);
      if (opened !== undefined) {
        const name = this.pages.popup(opened);
        before.push(`const ${name}Opened = ${page}.waitForEvent('popup');`);
        after.unshift(`const ${name} = await ${name}Opened;`);
      }
    }
    return [...before, ...action, ...after, ...this.#urlAssertions(call)];
  }

  /** toHaveURL for each page whose URL the call changed (and a page it opened). */
  #urlAssertions(call: RecordedCall): string[] {
    const lines: string[] = [];
    for (const info of call.pagesAfter) {
      if (!this.pages.has(info.id) || !isWebUrl(info.url) || this.#urls.get(info.id) === info.url) {
        continue;
      }
      const touched = info.id === this.pageIdOf(call) || call.newPageIds.includes(info.id);
      if (touched) {
        lines.push(
          `await expect(${this.pages.of(info.id, call).name}).toHaveURL(${jsString(info.url)});`,
        );
      }
    }
    return lines;
  }

  #rememberUrls(call: RecordedCall): void {
    for (const info of call.pagesAfter) {
      this.#urls.set(info.id, info.url);
    }
  }

  /** What the call's result shows of its page, compared with the snapshot before. */
  #observe(call: RecordedCall, pageId: number | undefined): string[] {
    const ended = call.ended;
    const snapshot = ended && pageId !== undefined ? parseSnapshot(ended.text) : undefined;
    if (!ended || !snapshot || pageId === undefined || snapshot.nodes[0]?.role !== 'RootWebArea') {
      // No snapshot, or one element's subtree only (take_snapshot with a uid).
      return [];
    }
    const page = this.pages.of(pageId, call).name;
    const context: ObservationContext = {
      scopeOf: frames => this.scopeOf(page, frames),
      fields: this.#fields.get(pageId) ?? new Map(),
      helper: name => this.helper(name),
    };
    const verbose = call.args.verbose === true;
    const previous = this.#snapshots.get(pageId);
    const acted = this.#acted.get(pageId);
    this.#snapshots.set(pageId, {snapshot, verbose});
    this.#acted.delete(pageId);
    const documentKey = `${pageId} ${snapshot.documentKey}`;
    if (!this.#seenDocuments.has(documentKey)) {
      this.#seenDocuments.add(documentKey);
      if (previous?.snapshot.documentKey !== snapshot.documentKey) {
        return headingAssertions(context, snapshot);
      }
    }
    if (!previous || acted !== 'acted' || ended.textCut || previous.verbose !== verbose) {
      return [];
    }
    return observedChanges(context, previous.snapshot, snapshot);
  }
}
