// Bundles the heap snapshot worker (src/core/heap/worker/heapWorker.ts) with the parts of Chrome
// DevTools' heap snapshot engine it uses (chrome-devtools-frontend, a devDependency: TypeScript
// sources) into out/heap/heapSnapshotWorker.js. The engine starts it only when a heap analysis
// tool runs, so none of this is loaded at start-up.
import {build} from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const shims = path.join(root, 'scripts/heap-worker');
const outDir = path.join(root, 'out/heap');

/** DevTools modules the worker needs only a sliver of, replaced by small stand-ins. */
const devtoolsShims = {
  name: 'devtools-shims',
  setup(builder) {
    builder.onResolve({filter: /^mbi-devtools-heap-snapshot$/}, () => ({
      path: path.join(shims, 'devtools-entry.js'),
    }));
    builder.onResolve({filter: /(^|\/)i18n\.js$/}, () => ({
      path: path.join(shims, 'i18n-shim.js'),
    }));
    builder.onResolve({filter: /(^|\/)text_utils\.js$/}, () => ({
      path: path.join(shims, 'text-utils-shim.js'),
    }));
    builder.onResolve({filter: /(^|\/)heap_snapshot\.js$/}, () => ({
      path: path.join(shims, 'heap-snapshot-model-shim.js'),
    }));
    builder.onResolve({filter: /^\.\/ContentData\.js$/}, () => ({
      path: path.join(shims, 'content-data-shim.js'),
    }));
  },
};

await build({
  entryPoints: [path.join(root, 'src/core/heap/worker/heapWorker.ts')],
  outfile: path.join(outDir, 'heapSnapshotWorker.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  plugins: [devtoolsShims],
  logLevel: 'warning',
});
fs.copyFileSync(
  path.join(root, 'node_modules/chrome-devtools-frontend/LICENSE'),
  path.join(outDir, 'LICENSE.chrome-devtools-frontend'),
);
