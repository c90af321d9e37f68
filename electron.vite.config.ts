import {resolve} from 'node:path';
import {defineConfig} from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {input: {index: resolve(import.meta.dirname, 'src/main/index.ts')}},
    },
  },
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
      rolldownOptions: {input: {index: resolve(import.meta.dirname, 'src/renderer/index.html')}},
    },
  },
});
