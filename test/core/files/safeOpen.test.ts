/**
 * The checked open every file parameter goes through, against a second process that keeps
 * swapping folders for links: a missing folder created while its name flips to a link must never
 * cost a folder outside the roots, and a file read or written through a swapped folder never
 * lands outside nor in the forbidden (config) folder. Real files, a real flipping process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {FileAccessError} from '../../../src/core/files/roots.js';
import {
  openForReadingInside,
  openForWritingInside,
  removeInside,
  type FileBoundary,
} from '../../../src/core/files/safeOpen.js';
import {startFlipper, type Flipper} from '../../helpers/flipper.js';

const made: string[] = [];
const flippers: Flipper[] = [];

afterEach(async () => {
  for (const flipper of flippers.splice(0)) {
    await flipper.stop();
  }
  for (const dir of made.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

/** A root (allowed), an outside folder and a forbidden folder inside the root, all real. */
function layout(): {root: string; outside: string; forbidden: string; boundary: FileBoundary} {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-safe-open-')));
  made.push(base);
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  const forbidden = path.join(root, 'config');
  for (const dir of [root, outside, forbidden]) {
    fs.mkdirSync(dir);
  }
  return {root, outside, forbidden, boundary: {roots: [root], forbidden: [forbidden]}};
}

/** Tries `attempt` until `count` attempts or `maxMs` passed; returns how many were refused. */
async function attempts(
  count: number,
  maxMs: number,
  attempt: (index: number) => Promise<void>,
): Promise<{tried: number; refused: number}> {
  const end = Date.now() + maxMs;
  let tried = 0;
  let refused = 0;
  while (tried < count && Date.now() < end) {
    try {
      await attempt(tried);
    } catch (error) {
      expect(error).toBeInstanceOf(FileAccessError);
      refused++;
    }
    tried++;
  }
  return {tried, refused};
}

/** Flips `link` between missing and a link to `target`. */
const APPEAR_AND_VANISH = `const [link, target] = args;
  globalThis.n = (globalThis.n || 0) + 1;
  if (globalThis.n % 2) fs.symlinkSync(target, link); else fs.unlinkSync(link);`;

/** Swaps `link` atomically between links to `a` and `b` (rename over it). */
const SWAP_LINK = `const [link, a, b] = args;
  globalThis.n = (globalThis.n || 0) + 1;
  const temp = link + '.tmp' + (globalThis.n % 2);
  try { fs.unlinkSync(temp); } catch {}
  fs.symlinkSync(globalThis.n % 2 ? a : b, temp);
  fs.renameSync(temp, link);`;

describe('creating a missing folder while its name flips to a link', () => {
  it('never removes the folder outside that the link leads to', async () => {
    const {root, outside, boundary} = layout();
    const emptyOutside = path.join(outside, 'empty');
    fs.mkdirSync(emptyOutside);
    fs.mkdirSync(path.join(root, 'x'));
    const d = path.join(root, 'x', 'd');
    flippers.push(await startFlipper(APPEAR_AND_VANISH, [d, emptyOutside]));
    const {tried, refused} = await attempts(400, 4_000, async index => {
      try {
        const handle = await openForWritingInside(path.join(d, `out-${index}.txt`), boundary);
        await handle.close();
      } finally {
        expect(fs.existsSync(emptyOutside), `attempt ${index}`).toBe(true);
        // A folder this test's write made stops the flips: take it away again.
        const stat = fs.lstatSync(d, {throwIfNoEntry: false});
        if (stat?.isDirectory()) {
          fs.rmSync(d, {recursive: true});
        }
      }
    });
    expect(fs.existsSync(emptyOutside)).toBe(true);
    expect(fs.readdirSync(emptyOutside)).toEqual([]);
    // The race was real: some attempts met the link and were refused.
    expect(refused, `${refused} of ${tried}`).toBeGreaterThan(0);
  });
});

describe('a folder swapped between a link inside and one outside', () => {
  it('writes land inside or are refused, and leave nothing outside', async () => {
    const {root, outside, boundary} = layout();
    const inside = path.join(root, 'real');
    fs.mkdirSync(inside);
    const sub = path.join(root, 'sub');
    fs.symlinkSync(inside, sub);
    flippers.push(await startFlipper(SWAP_LINK, [sub, inside, outside]));
    const {tried, refused} = await attempts(400, 4_000, async index => {
      const handle = await openForWritingInside(path.join(sub, 'deep', `w-${index}.txt`), boundary);
      await handle.writeFile('inside only');
      await handle.close();
    });
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(refused, `${refused} of ${tried}`).toBeGreaterThan(0);
    expect(refused).toBeLessThan(tried);
  });

  it('reads never return a file outside or in the forbidden folder', async () => {
    const {root, outside, forbidden, boundary} = layout();
    const inside = path.join(root, 'real');
    fs.mkdirSync(inside);
    fs.writeFileSync(path.join(inside, 'f.txt'), 'inside');
    fs.writeFileSync(path.join(outside, 'f.txt'), 'outside secret');
    fs.writeFileSync(path.join(forbidden, 'f.txt'), 'the token');
    const sub = path.join(root, 'sub');
    fs.symlinkSync(inside, sub);
    flippers.push(await startFlipper(SWAP_LINK, [sub, inside, forbidden]));
    const seen = new Set<string>();
    const {tried, refused} = await attempts(400, 4_000, async () => {
      const handle = await openForReadingInside(path.join(sub, 'f.txt'), boundary);
      try {
        seen.add(await handle.readFile('utf8'));
      } finally {
        await handle.close();
      }
    });
    expect([...seen]).toEqual(['inside']);
    expect(refused, `${refused} of ${tried}`).toBeGreaterThan(0);
  });
});

describe('what is not a plain file inside', () => {
  it('refuses the forbidden folder through a link, a FIFO, and a link at the end', async () => {
    const {root, forbidden, boundary} = layout();
    fs.writeFileSync(path.join(forbidden, 'token'), 'the token');
    fs.symlinkSync(forbidden, path.join(root, 'to-config'));
    await expect(
      openForReadingInside(path.join(root, 'to-config', 'token'), boundary),
    ).rejects.toThrow(/Access denied/);
    await expect(
      openForWritingInside(path.join(root, 'to-config', 'new.txt'), boundary),
    ).rejects.toThrow(/Access denied/);
    expect(fs.readdirSync(forbidden)).toEqual(['token']);

    if (process.platform !== 'win32') {
      const fifo = path.join(root, 'pipe');
      const {execFileSync} = await import('node:child_process');
      execFileSync('mkfifo', [fifo]);
      // Opened without blocking, then refused: no writer ever comes.
      await expect(openForReadingInside(fifo, boundary)).rejects.toThrow(/not a regular file/);
      await expect(openForWritingInside(fifo, boundary)).rejects.toThrow(FileAccessError);
    }
    const target = path.join(root, 'plain.txt');
    fs.writeFileSync(target, 'plain');
    fs.symlinkSync(target, path.join(root, 'link.txt'));
    await expect(openForReadingInside(path.join(root, 'link.txt'), boundary)).rejects.toThrow();
    await removeInside(path.join(root, 'link.txt'), boundary).catch(() => undefined);
    expect(fs.readFileSync(target, 'utf8')).toBe('plain');
    await removeInside(target, boundary);
    expect(fs.existsSync(target)).toBe(false);
  });
});
