// Bundles the headless entry (src/cli) with the engine and its dependencies into one file,
// out/node/cli/index.js. One file loads in about half the time of hundreds of ES modules, which is
// most of the server's start-up. Lighthouse and the trace engine stay external: they are big and
// only loaded when their tools run.
import {build} from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

await build({
  entryPoints: [path.join(root, 'src/cli/index.ts')],
  outfile: path.join(root, 'out/node/cli/index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  sourcemap: 'linked',
  external: ['lighthouse', '@paulirish/trace_engine', 'electron'],
  // CommonJS dependencies bundled into an ES module still call require().
  banner: {
    js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
