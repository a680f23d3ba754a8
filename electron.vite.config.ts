import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

const rendererRoot = resolve(import.meta.dirname, 'src/renderer');

/** One HTML entry per window; each carries its own CSP. */
export const rendererEntries = ['panel', 'settings', 'history', 'capture'] as const;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        // Sandboxed preloads cannot be ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: rendererRoot,
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: {
        input: Object.fromEntries(rendererEntries.map((name) => [name, resolve(rendererRoot, name, 'index.html')])),
      },
    },
  },
});
