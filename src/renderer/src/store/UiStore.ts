/**
 * UI-only state shared between panels (which panel is open, a call handed to the Run panel).
 * Kept apart from the engine mirror so a UI change never looks like engine state.
 */
import type {PanelId} from '../ui/panelIds.js';

export interface RunDraft {
  tool: string;
  args: Record<string, unknown>;
  /** Bumps each time a draft is handed over, so the form resets even for the same tool. */
  serial: number;
}

export interface UiSnapshot {
  panel: PanelId;
  runDraft: RunDraft | undefined;
  /** Call selected in the log (callId). */
  selectedCallId: string | undefined;
}

export class UiStore {
  #snapshot: UiSnapshot;
  readonly #listeners = new Set<() => void>();
  #serial = 0;

  constructor(panel: PanelId = 'log') {
    this.#snapshot = {panel, runDraft: undefined, selectedCallId: undefined};
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): UiSnapshot => this.#snapshot;

  #set(patch: Partial<UiSnapshot>): void {
    this.#snapshot = {...this.#snapshot, ...patch};
    for (const listener of this.#listeners) {
      listener();
    }
  }

  openPanel(panel: PanelId): void {
    if (this.#snapshot.panel !== panel) {
      this.#set({panel});
    }
  }

  /** Opens the Run panel with a tool and arguments filled in, ready to edit. */
  draftRun(tool: string, args: Record<string, unknown>): void {
    this.#serial++;
    this.#set({panel: 'run', runDraft: {tool, args, serial: this.#serial}});
  }

  selectCall(callId: string | undefined): void {
    if (this.#snapshot.selectedCallId !== callId) {
      this.#set({selectedCallId: callId});
    }
  }
}
