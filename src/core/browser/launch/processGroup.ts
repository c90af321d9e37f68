/**
 * The browser's processes end with it. puppeteer starts Chromium as the leader of a process group
 * of its own (POSIX), and its helpers (zygotes, renderers, the GPU and network processes) stay in
 * that group. A graceful close ends the leader; the helpers notice by themselves, some a second or
 * more later, and on a hard exit puppeteer kills the group only while the leader still runs. So
 * after every close and on every exit path the whole group gets SIGKILL, and the caller waits,
 * bounded, until none of it runs. (On Windows Chromium's helpers live in a job object that ends
 * with the browser; puppeteer's own `taskkill /T` covers the rest.)
 */
import fs from 'node:fs';

const POLL_MS = 20;

/** Whether a group member other than a zombie (ended, waiting to be reaped) still runs. */
export function groupRunning(leaderPid: number): boolean {
  if (process.platform === 'win32') {
    return false;
  }
  if (process.platform !== 'linux') {
    try {
      process.kill(-leaderPid, 0);
      return true;
    } catch {
      return false;
    }
  }
  // /proc, because kill(-pgid, 0) also finds the leader's zombie until Node reaps it (never, in
  // an exit handler, where the event loop no longer runs).
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return false;
  }
  const group = String(leaderPid);
  return entries.some(entry => {
    if (!/^\d+$/.test(entry)) {
      return false;
    }
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After "pid (comm) ": state ppid pgrp …
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return pgrp === group && state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  });
}

/** SIGKILL to every process of the group (nothing happens if it is gone already). */
export function killGroup(leaderPid: number): void {
  if (process.platform === 'win32') {
    return;
  }
  try {
    process.kill(-leaderPid, 'SIGKILL');
  } catch {
    // Gone already (ESRCH), or not ours (EPERM): nothing more to do.
  }
}

/** Kills the group and waits until none of it runs; false if some still ran after `boundMs`. */
export async function endGroup(leaderPid: number, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  killGroup(leaderPid);
  while (groupRunning(leaderPid)) {
    if (Date.now() > deadline) {
      return false;
    }
    await new Promise(resolve => setTimeout(resolve, POLL_MS));
    killGroup(leaderPid);
  }
  return true;
}

/** The same, synchronously: for exit handlers, where nothing asynchronous runs any more. */
export function endGroupNow(leaderPid: number, boundMs: number): boolean {
  const deadline = Date.now() + boundMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  killGroup(leaderPid);
  while (groupRunning(leaderPid)) {
    if (Date.now() > deadline) {
      return false;
    }
    Atomics.wait(pause, 0, 0, POLL_MS);
    killGroup(leaderPid);
  }
  return true;
}

/** How long the browser's leftover processes get to go once killed (they cannot refuse). */
const GROUP_END_MS = 2_000;

/** The process groups of the browsers this run launched and has not yet seen end. */
export class LaunchedGroups {
  readonly #leaders = new Set<number>();

  add(leaderPid: number | undefined): void {
    if (leaderPid !== undefined && process.platform !== 'win32') {
      this.#leaders.add(leaderPid);
    }
  }

  /** After a browser closed (or crashed): what is left of its group goes, bounded. */
  async end(leaderPid: number | undefined): Promise<void> {
    if (leaderPid === undefined || !this.#leaders.has(leaderPid)) {
      return;
    }
    await endGroup(leaderPid, GROUP_END_MS);
    // Forgotten once gone, so a pid the system hands out again is never signalled.
    this.#leaders.delete(leaderPid);
  }

  /** Every group, synchronously: the last thing an exiting process does (bounded). */
  endAllNow(): void {
    for (const leader of this.#leaders) {
      endGroupNow(leader, GROUP_END_MS);
    }
    this.#leaders.clear();
  }
}
