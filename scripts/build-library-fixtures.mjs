// Bundles the pages built from npm component libraries (test/fixtures/libraries/*.entry.js[x])
// into test/fixtures/libraries/dist/ with esbuild, for the fixture server to serve. Cached: it
// rebuilds only when an entry, this script or a bundled library's version changed, so a test run
// pays one hash (a few ms); the bundles need no network. Builds into a fresh folder and swaps it
// in, so a run that reads the folder meanwhile never sees half of a build.
import {build} from 'esbuild';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const sourceDir = path.join(root, 'test/fixtures/libraries');
const outDir = path.join(sourceDir, 'dist');
const stampFile = path.join(outDir, '.stamp');
/** The libraries the entries import: their versions are part of the cache key. */
const LIBRARIES = [
  '@shoelace-style/shoelace',
  '@mui/material',
  '@emotion/react',
  '@emotion/styled',
  'ag-grid-community',
  'sortablejs',
  '@tanstack/react-virtual',
  'react',
  'react-dom',
  'esbuild',
];

function entries() {
  return fs
    .readdirSync(sourceDir)
    .filter(name => /\.entry\.jsx?$/.test(name))
    .sort()
    .map(name => path.join(sourceDir, name));
}

function cacheKey(files) {
  const hash = crypto.createHash('sha256');
  hash.update(fs.readFileSync(import.meta.filename));
  for (const file of files) {
    hash.update(file).update(fs.readFileSync(file));
  }
  for (const name of LIBRARIES) {
    const manifest = JSON.parse(
      fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'),
    );
    hash.update(`${name}@${manifest.version}`);
  }
  return hash.digest('hex');
}

/** Builds the bundles unless the cached ones are current; returns whether it built. */
export async function buildLibraryFixtures() {
  const files = entries();
  const key = cacheKey(files);
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === key) {
    return false;
  }
  const staging = fs.mkdtempSync(path.join(sourceDir, '.dist-'));
  try {
    await build({
      entryPoints: files,
      outdir: staging,
      bundle: true,
      format: 'esm',
      minify: true,
      target: 'chrome120',
      jsx: 'automatic',
      loader: {'.js': 'jsx'},
      define: {'process.env.NODE_ENV': '"production"'},
      logLevel: 'warning',
      legalComments: 'none',
    });
    fs.writeFileSync(path.join(staging, '.stamp'), key);
    fs.rmSync(outDir, {recursive: true, force: true});
    try {
      fs.renameSync(staging, outDir);
    } catch (error) {
      // Another run (a second test process) swapped in the same build first.
      if (!fs.existsSync(stampFile) || fs.readFileSync(stampFile, 'utf8') !== key) {
        throw error;
      }
    }
  } finally {
    fs.rmSync(staging, {recursive: true, force: true});
  }
  return true;
}

if (process.argv[1] === import.meta.filename) {
  const started = performance.now();
  const built = await buildLibraryFixtures();
  if (built) {
    process.stderr.write(
      `[fixtures] built the library pages in ${Math.round(performance.now() - started)} ms\n`,
    );
  }
}
