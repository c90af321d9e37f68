/**
 * Nothing escapes the allowed roots: a second process swapping a parent folder for a symlink
 * while files are written, file: URLs (typed, followed by the page, opened as popups or frames,
 * or given to Chromium at launch), a snapshot that cannot be saved, and temporary files that
 * outlive the server. Real Chromium, real MCP clients, a real swapping process.
 *
 * Tests: src/core/files/safeOpen.ts, src/core/tools/screenshot.ts, src/core/tools/snapshot.ts
 */
import {spawn} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {
  call,
  openPage,
  pageIdFrom,
  startEngine,
  waitFor,
  type TestEngine,
} from '../../helpers/engine.js';
import {FixtureServer} from '../../helpers/fixtureServer.js';
import {makeOutsideDir} from '../../helpers/outsideDir.js';
import {parkFolderForLink, restoreFolder, withRaceHook} from '../../helpers/racePoint.js';

let workspace: string;
let outside: string;
let engine: TestEngine;

beforeAll(async () => {
  // Not under the OS temp dir (always allowed): a home-like folder of its own.
  const base = makeOutsideDir('.mbi-escape-');
  workspace = path.join(base, 'workspace');
  outside = path.join(base, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  engine = await startEngine(['--workspace', workspace]);
});

afterAll(async () => {
  await engine.stop();
  fs.rmSync(path.dirname(workspace), {recursive: true, force: true});
});

describe('a folder swapped for a symlink while writing', () => {
  it('never lets a write land outside the roots', async () => {
    const client = await engine.connect('writer');
    const id = await openPage(client, 'about:blank', 'about:blank');
    // "sub" flips atomically (rename over it) between a folder inside and a link to outside.
    const sub = path.join(workspace, 'sub');
    const realDir = path.join(workspace, 'sub-real');
    fs.mkdirSync(realDir);
    fs.symlinkSync(realDir, sub);
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs');
         const [sub, realDir, outside] = ${JSON.stringify([sub, realDir, outside])};
         const end = Date.now() + 60000;
         let n = 0;
         while (Date.now() < end) {
           const temp = sub + '.tmp' + (n++ % 2);
           try { fs.unlinkSync(temp); } catch {}
           fs.symlinkSync(n % 2 ? outside : realDir, temp);
           fs.renameSync(temp, sub);
         }`,
      ],
      {stdio: 'ignore'},
    );
    try {
      let denied = 0;
      for (let index = 0; index < 50; index++) {
        const result = await call(client, 'evaluate_script', {
          pageId: id,
          function: `() => ({n: ${index}})`,
          filePath: path.join(sub, `out-${index}.json`),
          waitForStableDom: false,
        });
        if (result.isError) {
          denied++;
          expect(result.text).toMatch(/Access denied/);
        }
      }
      // How many writes met the link depends on the scheduler (the next test runs the race at
      // its instant); that none landed outside does not.
      expect(fs.readdirSync(outside), `${denied} denied`).toEqual([]);
    } finally {
      swapper.kill('SIGKILL');
    }
  });

  it('refuses a write whose folder became a link just after its path was checked', async () => {
    const client = await engine.connect('writer-at-the-instant');
    const id = await openPage(client, 'about:blank', 'about:blank');
    const folder = path.join(workspace, 'swapped');
    const parked = path.join(workspace, 'swapped-real');
    fs.mkdirSync(folder);
    const write = (name: string): Promise<{text: string; isError: boolean}> =>
      call(client, 'evaluate_script', {
        pageId: id,
        function: '() => ({n: 1})',
        filePath: path.join(folder, name),
        waitForStableDom: false,
      });
    let swapped = 0;
    const raced = await withRaceHook(
      (step, target) => {
        // The path was checked inside the workspace; its folder is about to be opened.
        if (step === 'open-folder' && target === folder) {
          parkFolderForLink(folder, parked, outside);
          swapped++;
        }
      },
      () => write('raced.json'),
    );
    expect(swapped).toBe(1);
    expect(raced.isError, raced.text).toBe(true);
    expect(raced.text).toMatch(/Access denied/);
    expect(fs.readdirSync(outside)).toEqual([]);
    restoreFolder(folder, parked);
    // The same write on the folder as it was lands inside.
    const plain = await write('plain.json');
    expect(plain.isError, plain.text).toBe(false);
    expect(fs.readdirSync(folder)).toEqual(['plain.json']);
  });

  it('reads (sourcePath) are checked on the opened file too', async () => {
    const client = await engine.connect('reader');
    const id = await openPage(client, 'about:blank', 'about:blank');
    fs.writeFileSync(path.join(outside, 'secret.js'), '() => "outside secret"');
    const linked = path.join(workspace, 'linked-dir');
    fs.symlinkSync(outside, linked);
    const result = await call(client, 'evaluate_script', {
      pageId: id,
      sourcePath: path.join(linked, 'secret.js'),
    });
    expect(result.isError).toBe(true);
    expect(result.text).not.toContain('outside secret');
  });
});

describe('file: URLs', () => {
  let server: FixtureServer;

  beforeAll(async () => {
    server = await new FixtureServer().start();
  });

  afterAll(async () => {
    await server.stop();
  });

  it('outside the roots are refused with a message naming --workspace', async () => {
    const client = await engine.connect('navigator');
    const id = await openPage(client, server.url('/index.html'), '/index.html');
    for (const url of [
      'file:///etc/passwd',
      'file:///',
      pathToFileURL(path.join(engine.configDir, 'token')).href,
      'view-source:file:///etc/passwd',
    ]) {
      const nav = await call(client, 'navigate_page', {pageId: id, type: 'url', url});
      expect(nav.isError, url).toBe(true);
      expect(nav.text).toContain('--workspace');
      const opened = await call(client, 'new_page', {url});
      expect(opened.isError, url).toBe(true);
      expect(opened.text).toContain('--workspace');
    }
  });

  it('inside the roots load, but what the page reaches for outside is blocked', async () => {
    const client = await engine.connect('file-pages');
    const pageFile = path.join(workspace, 'page.html');
    fs.writeFileSync(
      pageFile,
      `<!doctype html><title>Workspace page</title><h1>inside</h1>
       <iframe src="file:///etc/passwd"></iframe>`,
    );
    const opened = await call(client, 'new_page', {url: pathToFileURL(pageFile).href});
    expect(opened.isError, opened.text).toBe(false);
    const id = pageIdFrom(opened.text, 'page.html');
    const snapshot = await call(client, 'take_snapshot', {pageId: id});
    expect(snapshot.text).toContain('inside');
    expect(snapshot.text).not.toContain('root:x:0');

    // A popup and a navigation the page starts itself are blocked as well.
    await call(client, 'evaluate_script', {
      pageId: id,
      function: '() => { window.open("file:///etc/passwd"); }',
    });
    await call(client, 'evaluate_script', {
      pageId: id,
      function: '() => { location.href = "file:///etc/passwd"; }',
    });
    const pages = await call(client, 'list_pages');
    for (const line of pages.text.split('\n').filter(l => /^\d+: /.test(l))) {
      const pageId = Number(line.split(':')[0]);
      const text = await call(client, 'evaluate_script', {
        pageId,
        function: '() => document.body ? document.body.innerText : ""',
      });
      expect(text.text).not.toContain('root:x:0');
    }
  });

  it('given to Chromium at launch (an initial URL) is not left open', async () => {
    // As a file: URL and as a bare path (Chromium opens both as pages at start).
    const launched = await startEngine([
      '--chromeArg=file:///etc/passwd',
      '--chromeArg=/etc/hostname',
    ]);
    try {
      const client = await launched.connect('initial');
      const listed = await call(client, 'list_pages');
      expect(listed.text).not.toContain('file:///etc/passwd');
      expect(listed.text).not.toContain('/etc/hostname');
      for (const line of listed.text.split('\n').filter(l => /^\d+: /.test(l))) {
        const pageId = Number(line.split(':')[0]);
        const text = await call(client, 'evaluate_script', {
          pageId,
          function: '() => document.body ? document.body.innerText : ""',
        });
        expect(text.text).not.toContain('root:x:0');
      }
    } finally {
      await launched.stop();
    }
  });
});

describe('take_snapshot with a filePath that cannot be written', () => {
  it('is an error', async () => {
    const client = await engine.connect('snapshotter');
    const id = await openPage(client, 'about:blank', 'about:blank');
    const blocker = path.join(workspace, 'a-file');
    fs.writeFileSync(blocker, 'x');
    const result = await call(client, 'take_snapshot', {
      pageId: id,
      filePath: path.join(blocker, 'snapshot.txt'),
    });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/Could not (create|write)/);
  });
});

describe('temporary screenshots', () => {
  it('are named in the reply as temporary and removed when the server stops', async () => {
    const server = await new FixtureServer().start();
    const own = await startEngine();
    let saved: string | undefined;
    try {
      const client = await own.connect('shooter');
      const id = await openPage(client, server.url('/big.html'), '/big.html');
      const shot = await call(client, 'take_screenshot', {pageId: id, fullPage: true});
      saved = /Saved screenshot to (\S+) \(a temporary file, removed when the server stops\)/.exec(
        shot.text,
      )?.[1];
      expect(saved, shot.text).toBeDefined();
      expect(fs.existsSync(saved ?? '')).toBe(true);
      expect(own.logs.some(line => line.startsWith('Temporary files'))).toBe(true);
    } finally {
      await own.stop();
      await server.stop();
    }
    await waitFor(() => !fs.existsSync(saved ?? ''), 5_000, 'the temporary screenshot to go');
    expect(fs.existsSync(path.dirname(path.dirname(saved ?? '')))).toBe(false);
  });
});
