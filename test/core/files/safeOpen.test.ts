/**
 * The checked open every file parameter goes through. The race an attacker runs (a folder swapped
 * for a link between the check of a path and its open) is run deterministically: the code calls
 * a hook at that instant (src/core/files/racePoint.ts) and the test swaps the folder there, on
 * every attempt, and asserts the outcome each time. A second process that keeps swapping folders
 * for links (the flipper) then checks that nothing lands outside whatever the interleaving.
 * Real files, real links.
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
import {pointLink, withRaceHook} from '../../helpers/racePoint.js';

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

/**
 * Tries `attempt` until `count` attempts or `maxMs` passed while a flipper races; returns how
 * many were refused. How many meet the race depends on the scheduler, so only what every attempt
 * leaves behind is asserted (the race itself is run deterministically by the tests above them).
 */
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

describe('the race, run at the instant it is won', () => {
  it('a folder just created and swapped for a link: refused, the outside folder kept', async () => {
    const {root, outside, boundary} = layout();
    const emptyOutside = path.join(outside, 'empty');
    fs.mkdirSync(emptyOutside);
    const d = path.join(root, 'd');
    const swaps: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const opening = withRaceHook(
        step => {
          if (step === 'created-folder') {
            // The folder this call just made becomes a link to an empty folder outside.
            fs.rmdirSync(d);
            fs.symlinkSync(emptyOutside, d);
            swaps.push(step);
          }
        },
        () => openForWritingInside(path.join(d, 'out.txt'), boundary),
      );
      // Refused either way: as a link no longer its own (or, when the kernel gave the link the
      // folder's inode number, with the link taken away again); never through the link.
      await expect(opening).rejects.toThrow(FileAccessError);
      expect(fs.existsSync(emptyOutside)).toBe(true);
      expect(fs.readdirSync(emptyOutside)).toEqual([]);
      fs.rmSync(d, {force: true});
    }
    expect(swaps).toHaveLength(3);
  });

  it('a link planted where a missing folder is about to be made: refused, nothing outside', async () => {
    const {root, outside, boundary} = layout();
    const d = path.join(root, 'd');
    let planted = 0;
    const opening = withRaceHook(
      (step, target) => {
        // The parent was checked and opened; the name is still free: plant the link now.
        if (step === 'open-folder' && target === root && planted === 0) {
          fs.symlinkSync(outside, d);
          planted++;
        }
      },
      () => openForWritingInside(path.join(d, 'out.txt'), boundary),
    );
    await expect(opening).rejects.toThrow(/Access denied.*resolved outside the allowed roots/);
    expect(planted).toBe(1);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('a folder swapped for a link outside just before it is opened: the write is refused', async () => {
    const {root, outside, boundary} = layout();
    const inside = path.join(root, 'real');
    fs.mkdirSync(inside);
    const sub = path.join(root, 'sub');
    fs.symlinkSync(inside, sub);
    let swapped = 0;
    const opening = withRaceHook(
      (step, target) => {
        if (step === 'open-folder' && target === sub) {
          pointLink(sub, outside);
          swapped++;
        }
      },
      () => openForWritingInside(path.join(sub, 'w.txt'), boundary),
    );
    await expect(opening).rejects.toThrow(/Access denied.*resolved outside the allowed roots/);
    expect(swapped).toBe(1);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('a folder swapped after it was opened: the write still lands in the folder checked', async () => {
    const {root, outside, boundary} = layout();
    const inside = path.join(root, 'real');
    fs.mkdirSync(inside);
    const sub = path.join(root, 'sub');
    fs.symlinkSync(inside, sub);
    let swapped = 0;
    const handle = await withRaceHook(
      step => {
        // The folder is open; its name now leads outside. The file is made through the descriptor.
        if (step === 'open-file') {
          pointLink(sub, outside);
          swapped++;
        }
      },
      () => openForWritingInside(path.join(sub, 'deep', 'w.txt'), boundary),
    );
    await handle.writeFile('inside only');
    await handle.close();
    expect(swapped).toBe(1);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(inside, 'deep', 'w.txt'), 'utf8')).toBe('inside only');
  });

  it('a read whose folder is swapped to the forbidden folder or outside just before the open is refused', async () => {
    const {root, outside, forbidden, boundary} = layout();
    const inside = path.join(root, 'real');
    fs.mkdirSync(inside);
    fs.writeFileSync(path.join(inside, 'f.txt'), 'inside');
    fs.writeFileSync(path.join(outside, 'f.txt'), 'outside secret');
    fs.writeFileSync(path.join(forbidden, 'f.txt'), 'the token');
    const sub = path.join(root, 'sub');
    fs.symlinkSync(inside, sub);
    const target = path.join(sub, 'f.txt');
    // Unswapped, the read works: the refusals below are the swaps', not the path's.
    const plain = await openForReadingInside(target, boundary);
    expect(await plain.readFile('utf8')).toBe('inside');
    await plain.close();
    for (const elsewhere of [forbidden, outside]) {
      let swapped = 0;
      const opening = withRaceHook(
        step => {
          if (step === 'open-file') {
            pointLink(sub, elsewhere);
            swapped++;
          }
        },
        () => openForReadingInside(target, boundary),
      );
      await expect(opening).rejects.toThrow(/Access denied.*resolved outside the allowed roots/);
      expect(swapped).toBe(1);
      pointLink(sub, inside);
    }
  });
});

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
    expect(fs.readdirSync(emptyOutside), `${refused} of ${tried} refused`).toEqual([]);
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
    expect(fs.readdirSync(outside), `${refused} of ${tried} refused`).toEqual([]);
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
    expect([...seen], `${refused} of ${tried} refused`).toEqual(['inside']);
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
