/**
 * The instants an attacker races for: a path was checked (or a folder created) and is about to be
 * opened. Production never sets the hook (one undefined check per open). A test sets it to swap a
 * folder for a link exactly there, so the race is run on every attempt instead of hoped for from
 * a second process's timing.
 */
export type RaceStep =
  /** A folder is about to be opened (Folder.open), after its path was checked. */
  | 'open-folder'
  /** A missing folder was just created, and is about to be opened and checked. */
  | 'created-folder'
  /** A file is about to be opened for reading or writing, after its path was checked. */
  | 'open-file';

export const racePoint: {before?: (step: RaceStep, target: string) => void} = {};

/** Runs the test's hook, if any, for `step` on `target`. */
export function atRacePoint(step: RaceStep, target: string): void {
  racePoint.before?.(step, target);
}
