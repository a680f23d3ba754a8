import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { DEV_CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from './src/shared/csp.ts';

const rendererRoot = resolve(import.meta.dirname, 'src/renderer');

/**
 * `electron-vite dev` only: swap each page's strict CSP meta tag for the dev policy (React refresh
 * preamble, injected dev styles, HMR websocket). Builds keep the strict tag untouched.
 */
const devCsp: Plugin = {
  name: 'tingxie-dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(META_CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY),
};

/** One HTML entry per window; each carries its own CSP. */
export const rendererEntries = ['panel', 'settings', 'history', 'capture', 'indicator', 'onboarding'] as const;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          // Worker threads load their own entry file at run time (next to index.js in out/main).
          'index-rebuild-worker': resolve(import.meta.dirname, 'src/main/history/index/index-rebuild-worker.ts'),
          // The ASR engine host runs in its own utilityProcess (out/main/engine-host.js), forked by path.
          'engine-host': resolve(import.meta.dirname, 'src/main/asr/engine-host.ts'),
          // The built-in LLM engine (llama.cpp) likewise: out/main/llm-host.js.
          'llm-host': resolve(import.meta.dirname, 'src/main/enhance/local-llm/llm-host.ts'),
        },
      },
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
    plugins: [react(), devCsp],
    build: {
      outDir: 'out/renderer',
      // Smaller bundles parse faster: the panel must appear the moment a dictation ends.
      minify: true,
      rollupOptions: {
        input: Object.fromEntries(rendererEntries.map((name) => [name, resolve(rendererRoot, name, 'index.html')])),
      },
    },
  },
});
