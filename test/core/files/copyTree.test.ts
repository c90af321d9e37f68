/**
 * The checked copy an extension is loaded from: links inside the boundary are copied as what they
 * lead to, links outside or into the forbidden folder refuse the copy, and the walk is bounded in
 * files, bytes and depth (a link back up is a refusal, not a loop). A refused copy leaves nothing.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, describe, expect, it} from 'vitest';
import {copyFolderChecked, type CopyLimits} from '../../../src/core/files/copyTree.js';

const made: string[] = [];
const LIMITS: CopyLimits = {maxFiles: 100, maxBytes: 1_000_000, maxDepth: 8};

afterEach(() => {
  for (const dir of made.splice(0)) {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

function layout() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mbi-copy-tree-')));
  made.push(base);
  const root = path.join(base, 'root');
  const source = path.join(root, 'ext');
  const forbidden = path.join(root, 'config');
  const outside = path.join(base, 'outside');
  for (const dir of [root, source, forbidden, outside, path.join(base, 'copies')]) {
    fs.mkdirSync(dir);
  }
  fs.writeFileSync(path.join(source, 'manifest.json'), '{}');
  fs.writeFileSync(path.join(forbidden, 'token'), 'the token');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside');
  const boundary = {roots: [root], forbidden: [forbidden]};
  let n = 0;
  const target = (): string => path.join(base, 'copies', `c${n++}`);
  return {root, source, forbidden, outside, boundary, target};
}

describe('a checked folder copy', () => {
  it('copies files, folders and links that stay inside as plain files and folders', async () => {
    const {root, source, boundary, target} = layout();
    fs.mkdirSync(path.join(source, 'sub'));
    fs.writeFileSync(path.join(source, 'sub', 'a.js'), 'a');
    fs.writeFileSync(path.join(root, 'shared.js'), 'shared');
    fs.mkdirSync(path.join(root, 'lib'));
    fs.writeFileSync(path.join(root, 'lib', 'l.js'), 'l');
    fs.symlinkSync(path.join(root, 'shared.js'), path.join(source, 'shared.js'));
    fs.symlinkSync(path.join(root, 'lib'), path.join(source, 'lib'));
    const copy = target();
    await copyFolderChecked(source, copy, boundary, LIMITS);
    expect(fs.readFileSync(path.join(copy, 'sub', 'a.js'), 'utf8')).toBe('a');
    expect(fs.readFileSync(path.join(copy, 'shared.js'), 'utf8')).toBe('shared');
    expect(fs.readFileSync(path.join(copy, 'lib', 'l.js'), 'utf8')).toBe('l');
    for (const entry of ['shared.js', 'lib', 'sub/a.js']) {
      expect(fs.lstatSync(path.join(copy, entry)).isSymbolicLink(), entry).toBe(false);
    }
  });

  it('refuses links outside or into the forbidden folder, and leaves nothing', async () => {
    const {source, forbidden, outside, boundary, target} = layout();
    for (const [name, to] of [
      ['t', path.join(forbidden, 'token')],
      ['c', forbidden],
      ['o', path.join(outside, 'secret.txt')],
      ['gone', path.join(outside, 'missing')],
    ] as const) {
      const link = path.join(source, name);
      fs.symlinkSync(to, link);
      const copy = target();
      await expect(copyFolderChecked(source, copy, boundary, LIMITS), name).rejects.toThrow(
        `the link ${link}`,
      );
      expect(fs.existsSync(copy)).toBe(false);
      fs.unlinkSync(link);
    }
  });

  it('is bounded in files, bytes and depth, and refuses a link back up and a FIFO', async () => {
    const {source, boundary, target} = layout();
    for (let i = 0; i < 5; i++) {
      fs.writeFileSync(path.join(source, `f${i}`), 'x'.repeat(100));
    }
    await expect(
      copyFolderChecked(source, target(), boundary, {...LIMITS, maxFiles: 3}),
    ).rejects.toThrow(/more than 3 files/);
    await expect(
      copyFolderChecked(source, target(), boundary, {...LIMITS, maxBytes: 250}),
    ).rejects.toThrow(/more than 250 bytes/);
    const deep = path.join(source, 'a', 'b', 'c');
    fs.mkdirSync(deep, {recursive: true});
    await expect(
      copyFolderChecked(source, target(), boundary, {...LIMITS, maxDepth: 2}),
    ).rejects.toThrow(/deeper than 2 levels/);
    fs.symlinkSync(source, path.join(deep, 'up'));
    await expect(copyFolderChecked(source, target(), boundary, LIMITS)).rejects.toThrow(
      /link back to a folder that contains it/,
    );
    fs.unlinkSync(path.join(deep, 'up'));
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [path.join(source, 'pipe')]);
      await expect(copyFolderChecked(source, target(), boundary, LIMITS)).rejects.toThrow(
        /not a file, folder or link/,
      );
    }
  });
});
