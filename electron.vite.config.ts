import {resolve} from 'node:path';
import {defineConfig} from 'electron-vite';
import react from '@vitejs/plugin-react';

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
    plugins: [react()],
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
