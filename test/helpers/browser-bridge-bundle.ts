import path from 'node:path';
import { build, type Rolldown } from 'vite';

/**
 * Bundles test/helpers/browser-bridge-entry.ts (which imports the real src/preload/create-bridge.ts)
 * into one IIFE string for `page.addInitScript`. Built with Vite's own API so it goes through the same
 * TypeScript transform as the app; cached for the test process.
 */

let cached: Promise<string> | undefined;

/** The bridge init script (source text of an IIFE). */
export function bridgeInitScript(): Promise<string> {
  cached ??= bundle();
  return cached;
}

async function bundle(): Promise<string> {
  const entry = path.resolve(import.meta.dirname, 'browser-bridge-entry.ts');
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: path.resolve(import.meta.dirname, '../..'),
    build: {
      write: false,
      emptyOutDir: false,
      minify: false,
      target: 'es2022',
      lib: { entry, formats: ['iife'], name: '__tingxieTestBridge', fileName: () => 'bridge.js' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('bridge bundle: Vite produced no JavaScript chunk');
  return chunk.code;
}
