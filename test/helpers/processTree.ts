/**
 * Process trees read from /proc (Linux): which processes a server started, and whether any of
 * them still runs. A process is named by its pid and start time, so a reused pid never counts.
 */
import fs from 'node:fs';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Process group: puppeteer starts Chromium as the leader of its own group. */
  pgid: number;
  /** Clock ticks after boot: with the pid, one process for good. */
  start: string;
  /** R, S, D, Z (zombie: ended, not yet reaped)… */
  state: string;
  command: string;
}

function readEntry(pid: string): ProcessEntry | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    // After "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime priority nice threads itrealvalue starttime …
    const fields = stat.slice(close + 2).split(' ');
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      start: fields[19] ?? '',
      state: fields[0] ?? '',
      command: stat.slice(stat.indexOf('(') + 1, close),
    };
  } catch {
    return undefined;
  }
}

/** Every process on the machine now. */
export function processTable(): ProcessEntry[] {
  return fs
    .readdirSync('/proc')
    .filter(name => /^\d+$/.test(name))
    .flatMap(name => readEntry(name) ?? []);
}

/**
 * A process and everything under it: its descendants, and every member of a process group one
 * of them leads (Chromium's helpers, even one that was re-parented).
 */
export function treeOf(rootPid: number): ProcessEntry[] {
  const table = processTable();
  const found = new Map<number, ProcessEntry>();
  const root = table.find(entry => entry.pid === rootPid);
  if (root) {
    found.set(root.pid, root);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of table) {
      if (found.has(entry.pid)) {
        continue;
      }
      const leader = found.get(entry.pgid);
      if (found.has(entry.ppid) || (leader !== undefined && leader.pid !== rootPid)) {
        found.set(entry.pid, entry);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/** Those of `entries` still running (the same pid and start time, and not a zombie). */
export function stillRunning(entries: readonly ProcessEntry[]): ProcessEntry[] {
  return entries.filter(entry => {
    const now = readEntry(String(entry.pid));
    return now?.start === entry.start && now.state !== 'Z';
  });
}

/** The command line of a process, or [] once it is gone. */
export function commandLine(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}
