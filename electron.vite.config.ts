import {resolve} from 'node:path';
import {defineConfig} from 'electron-vite';
import react from '@vitejs/plugin-react';
import type {Plugin} from 'vite';
import {thirdPartyNotices} from './scripts/third-party-notices.mjs';

/** THIRD_PARTY_NOTICES.md next to the UI: minified, the bundles no longer carry license comments. */
function noticesPlugin(): Plugin {
  return {
    name: 'third-party-notices',
    apply: 'build',
    generateBundle(_options, bundle) {
      const modules = Object.values(bundle).flatMap(output =>
        output.type === 'chunk' ? output.moduleIds : [],
      );
      this.emitFile({
        type: 'asset',
        fileName: 'THIRD_PARTY_NOTICES.md',
        source: thirdPartyNotices(import.meta.dirname, modules),
      });
    },
  };
}

// The main process is bundled with esbuild by scripts/build-node.mjs, like the headless server
// (both carry the engine, Lighthouse included); electron-vite builds the preload and the renderer.
export default defineConfig({
  preload: {
    // A sandboxed preload cannot load ES modules or sibling files: bundle it into one CJS file.
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: {index: resolve(import.meta.dirname, 'src/preload/index.ts')},
        external: ['electron'],
        output: {format: 'cjs', entryFileNames: '[name].cjs'},
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [react(), noticesPlugin()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      emptyOutDir: true,
      // electron-vite leaves the renderer unminified by default; the headless server sends it
      // over HTTP on every load. test/renderer/bundleSize.test.ts holds the first-paint budget.
      minify: true,
      rolldownOptions: {input: {index: resolve(import.meta.dirname, 'src/renderer/index.html')}},
    },
  },
});
