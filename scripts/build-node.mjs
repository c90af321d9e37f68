// Bundles the two Node-side programs with ALL their runtime dependencies, so neither needs a
// node_modules next to it (like chrome-devtools-mcp's package):
//   - out/node: the headless entry (src/cli), what the npm package's bin runs;
//   - out/main: the desktop main process (src/main), what the packaged Electron app runs.
// Anything the code imports is bundled automatically; only `electron` stays out. Code splitting
// keeps start-up lean: Lighthouse (via src/core/tools/lighthouseRuntime.ts) and the trace engine
// are dynamic imports, so each becomes its own chunk under <out>/chunks/, loaded only when its
// tool runs. One entry file plus a few shared chunks loads in about half the time of hundreds of
// ES modules.
import fs from 'node:fs';
import path from 'node:path';
import {build} from 'esbuild';
import {createLighthouseInliner, lighthouseEsbuildPlugin} from './lighthouse-inline.mjs';
import {writeThirdPartyNotices} from './third-party-notices.mjs';

const root = path.resolve(import.meta.dirname, '..');

const inliner = await createLighthouseInliner();

/** puppeteer-core's `debug` import gets scripts/debug-once.mjs (one logger per name; see there). */
const debugOncePlugin = {
  name: 'debug-once',
  setup(pluginBuild) {
    pluginBuild.onResolve({filter: /^debug$/}, args =>
      args.importer.includes(`${path.sep}puppeteer-core${path.sep}`)
        ? {path: path.join(root, 'scripts/debug-once.mjs')}
        : undefined,
    );
  },
};

/** @puppeteer/browsers' `proxy-agent` import gets scripts/no-proxy-agent.mjs (see there). */
const noProxyAgentPlugin = {
  name: 'no-proxy-agent',
  setup(pluginBuild) {
    pluginBuild.onResolve({filter: /^proxy-agent$/}, args =>
      args.importer.includes(`${path.sep}@puppeteer${path.sep}browsers${path.sep}`)
        ? {path: path.join(root, 'scripts/no-proxy-agent.mjs')}
        : undefined,
    );
  },
};

async function bundle({entry, entryName, outdir, target}) {
  // Chunk names carry a hash: stale chunks from an earlier build must not linger (or be packed).
  fs.rmSync(outdir, {recursive: true, force: true});
  const result = await build({
    absWorkingDir: root,
    entryPoints: {[entryName]: entry},
    outdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target,
    minifyWhitespace: true,
    minifySyntax: true,
    // Stack traces and function serialisation keep real names; Lighthouse's page functions are
    // written for esbuild's keepNames (see lighthouse-inline.mjs).
    keepNames: true,
    sourcemap: 'linked',
    external: ['electron'],
    // CommonJS dependencies bundled into an ES module still call require().
    banner: {
      js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [lighthouseEsbuildPlugin(inliner), debugOncePlugin, noProxyAgentPlugin],
    metafile: true,
    logLevel: 'warning',
  });
  writeThirdPartyNotices(root, result.metafile, path.join(outdir, 'THIRD_PARTY_NOTICES.md'));
}

await bundle({
  entry: 'src/cli/index.ts',
  entryName: 'cli/index',
  outdir: path.join(root, 'out/node'),
  target: 'node20',
});
// Electron 45 runs Node 24.
await bundle({
  entry: 'src/main/index.ts',
  entryName: 'index',
  outdir: path.join(root, 'out/main'),
  target: 'node22',
});
inliner.verify();

// The desktop app's own manifest: `electron out/main` (npm start) runs it as the app, with the
// right name and version. The root package.json has no "main" (npm would pack that file into the
// headless package); the packaged app gets its "main" from electron-builder.config.cjs.
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
fs.writeFileSync(
  path.join(root, 'out/main/package.json'),
  `${JSON.stringify({name: pkg.name, version: pkg.version, description: pkg.description, license: pkg.license, type: 'module', main: 'index.js'}, null, 2)}\n`,
);
