/**
 * What Chromium loads for install_extension: a private copy of the folder (files/copyTree.ts), so
 * a link in the original can never show the extension's pages the token, the config folder or
 * anything outside the roots — neither at install nor later. Each original keeps one copy path
 * per browser, so its id (derived from the path it is loaded from) stays the same across
 * install_extension again (after an uninstall too) and reload_extension, which refresh the copy
 * from the original. Copies live in the server's temporary folder, removed when it stops.
 */
import fs from 'node:fs';
import path from 'node:path';
import type {Browser} from 'puppeteer-core';
import {copyFolderChecked, type CopyLimits} from '../files/copyTree.js';
import type {FileAccess} from '../files/FileAccess.js';

/** An unpacked extension is a few MB; these bound a folder that is not one. */
export const EXTENSION_COPY_LIMITS: CopyLimits = {
  maxFiles: 10_000,
  maxBytes: 512 * 1024 * 1024,
  maxDepth: 32,
};

/** Per browser: the copy Chromium loads → the original folder it was made from. */
const copiesByBrowser = new WeakMap<Browser, Map<string, string>>();

function copiesOf(browser: Browser): Map<string, string> {
  let copies = copiesByBrowser.get(browser);
  if (copies === undefined) {
    copies = new Map();
    copiesByBrowser.set(browser, copies);
  }
  return copies;
}

/** Replaces the copy's contents with a fresh checked copy of `source`, at the same path. */
async function refresh(files: FileAccess, source: string, copy: string): Promise<void> {
  const staging = `${copy}.staging`;
  const old = `${copy}.old`;
  fs.rmSync(staging, {recursive: true, force: true});
  fs.rmSync(old, {recursive: true, force: true});
  await copyFolderChecked(source, staging, await files.boundary(), EXTENSION_COPY_LIMITS);
  fs.renameSync(copy, old);
  fs.renameSync(staging, copy);
  fs.rmSync(old, {recursive: true, force: true});
}

/**
 * The folder to hand Chromium for `source` (canonical, checked): its checked private copy, made
 * now or refreshed. A browser on another machine reads its own disk: the path goes as given.
 */
export async function loadableCopy(
  browser: Browser,
  files: FileAccess,
  source: string,
  local: boolean,
): Promise<string> {
  if (!local) {
    return source;
  }
  const copies = copiesOf(browser);
  const existing = [...copies].find(([, original]) => original === source)?.[0];
  if (existing !== undefined) {
    await refresh(files, source, existing);
    return existing;
  }
  const copy = path.join(await files.temporaryFolder(), 'extension');
  await copyFolderChecked(source, copy, await files.boundary(), EXTENSION_COPY_LIMITS);
  copies.set(copy, source);
  return copy;
}

/** For reload_extension: the copy refreshed from its original (checked again), else the path. */
export async function reloadableCopy(
  browser: Browser,
  files: FileAccess,
  loadedFrom: string,
): Promise<string> {
  const source = copiesOf(browser).get(loadedFrom);
  if (source === undefined) {
    // Not installed by this server (e.g. --chromeArg=--load-extension): reloaded where it is.
    return loadedFrom;
  }
  await refresh(files, await files.validatePath(source), loadedFrom);
  return loadedFrom;
}
