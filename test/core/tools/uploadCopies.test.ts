/**
 * upload_file hands a local Chromium checked copies: Chromium takes the file's path and opens it
 * again when it sets the input and whenever the page reads it — after the check, and for the
 * file-chooser route seconds after. With a copy, what the page reads is what was checked, even
 * once the original's folder is swapped for a link to an outside file of the same size and time.
 *
 * Tests: src/core/tools/input.ts, src/core/browser/input/upload.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import {describe, expect, it} from 'vitest';
import {call, useEngineWithFixtures} from '../../helpers/engine.js';
import {makeOutsideDir} from '../../helpers/outsideDir.js';

const fx = useEngineWithFixtures({tmpPrefix: 'mbi-upload-copies-'});

/** Runs a function in the page; returns the text of its JSON result. */
async function evaluate(id: number, source: string): Promise<string> {
  const result = await call(fx.client, 'evaluate_script', {pageId: id, function: source});
  expect(result.isError, result.text).toBe(false);
  return result.text;
}

describe('upload_file', () => {
  it('gives the page a copy made at upload time, not the path', async () => {
    const folder = path.join(fx.tmp, 'up');
    fs.mkdirSync(folder);
    const original = path.join(folder, 'doc.txt');
    fs.writeFileSync(original, 'inside');
    const id = await fx.openPage('/input-upload.html');
    const snapshot = await call(fx.client, 'take_snapshot', {pageId: id});
    const uid = /^ *(\d+)[^\n]*"Single"/m.exec(snapshot.text)?.[1] ?? '';
    const uploaded = await call(fx.client, 'upload_file', {pageId: id, uid, filePaths: [original]});
    expect(uploaded.isError, uploaded.text).toBe(false);
    expect(uploaded.text).toContain(`File uploaded from ${fs.realpathSync(original)}.`);

    const outside = makeOutsideDir('.mbi-upload-outside-');
    try {
      // Same name, size and times: only the place differs.
      const secret = path.join(outside, 'doc.txt');
      fs.writeFileSync(secret, 'secret');
      const times = fs.statSync(original);
      fs.utimesSync(secret, times.atime, times.mtime);
      fs.renameSync(folder, `${folder}-parked`);
      fs.symlinkSync(outside, folder);
      const read = await evaluate(
        id,
        `async () => {
          const file = document.getElementById('single').files[0];
          try { return file.name + '=' + (await file.text()); } catch (error) { return 'unreadable'; }
        }`,
      );
      expect(read).toContain('"doc.txt=inside"');
      expect(read).not.toContain('secret');
    } finally {
      fs.rmSync(outside, {recursive: true, force: true});
    }
  });
});
