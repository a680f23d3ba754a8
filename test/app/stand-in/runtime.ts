/**
 * The stand-in's shared runtime inside the app process: options from the environment (set by the
 * harness), the one real Chromium every BrowserWindow is a page of, and a log of what the app did
 * that a test may want to read (error boxes, shell calls). Chromium is launched over a pipe, so it
 * dies with the app process even on `kill -9`, as Electron's renderers do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_TEST_FLAGS } from '../../helpers/chromium-flags.ts';

/** Options the harness passes in the environment. */
export const standInEnv = {
  chromium: process.env.TINGXIE_STANDIN_CHROMIUM ?? '/usr/bin/chromium',
  /** A WAV file Chromium's fake microphone plays, looped. */
  fakeAudio: process.env.TINGXIE_STANDIN_FAKE_AUDIO ?? '',
  locale: process.env.TINGXIE_STANDIN_LOCALE ?? 'en-US',
  packaged: process.env.TINGXIE_STANDIN_PACKAGED === '1',
  /** Where the app's package.json lives (Electron's app path); found from the entry script when unset. */
  appPath: process.env.TINGXIE_STANDIN_APP_PATH ?? '',
} as const;

/** The test browsers' flags (chromium-flags.ts), plus the app's own: the fake microphone plays the WAV. */
function chromiumArgs(): string[] {
  const args = [
    ...CHROMIUM_TEST_FLAGS,
    '--remote-debugging-port=0',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
    `--lang=${standInEnv.locale}`,
  ];
  if (standInEnv.fakeAudio !== '') args.push(`--use-file-for-fake-audio-capture=${standInEnv.fakeAudio}`);
  return args;
}

let contextPromise: Promise<BrowserContext> | null = null;
let cdpEndpoint = '';
let userDataDir = '';

/** The Chromium every window lives in (launched on first use). */
export function browserContext(): Promise<BrowserContext> {
  contextPromise ??= (async () => {
    userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-standin-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: standInEnv.chromium,
      headless: true,
      args: chromiumArgs(),
      locale: standInEnv.locale,
      viewport: null,
    });
    const port = fs.readFileSync(path.join(userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0];
    cdpEndpoint = `http://127.0.0.1:${port}`;
    // The persistent context opens with one blank tab that is no window of the app's.
    for (const p of context.pages()) await p.close();
    return context;
  })();
  return contextPromise;
}

/** The CDP endpoint tests connect to, to drive the app's pages ('' before Chromium started). */
export function devtoolsEndpoint(): string {
  return cdpEndpoint;
}

/** Closes Chromium (quit). */
export async function closeBrowser(): Promise<void> {
  if (contextPromise === null) return;
  const context = await contextPromise;
  await context.close().catch(() => undefined);
  fs.rmSync(userDataDir, { recursive: true, force: true });
}

/** Electron's app path: the folder of the package.json above the entry script (or the asar root). */
export function appPath(): string {
  if (standInEnv.appPath !== '') return standInEnv.appPath;
  let dir = path.dirname(path.resolve(process.argv[1] ?? '.'));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('electron stand-in: no package.json above the entry script');
    dir = up;
  }
  return dir;
}

/** What the app did that has no window to show it in (read through the control channel). */
export const record = {
  errorBoxes: [] as { title: string; content: string }[],
  openedExternal: [] as string[],
  openedPaths: [] as string[],
  loginItems: [] as unknown[],
  /** app.commandLine switches (name → value) and the ones appended too late (after 'ready'). */
  switches: {} as Record<string, string>,
  lateSwitches: [] as string[],
  arguments: [] as string[],
};
