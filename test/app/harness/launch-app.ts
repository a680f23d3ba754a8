/**
 * Starts the BUILT app (out/main/index.js, unchanged) under Node with the electron stand-in, on an
 * Xvfb display, and gives the test what a user has: the tray, the windows (as Playwright pages over
 * Chromium's DevTools endpoint, driven with real key and mouse events), the data folder, the log.
 * A test tool: never shipped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const LOADER = path.join(repoRoot, 'test/app/stand-in/loader.mjs');
const ASAR_SUPPORT = path.join(repoRoot, 'test/app/stand-in/asar-support.ts');

/** Options of {@link launchApp}. */
export interface LaunchOptions {
  readonly dataDir: string;
  /** The Xvfb environment (DISPLAY). */
  readonly env: NodeJS.ProcessEnv;
  /**
   * The app folder holding package.json and out/ (default: this checkout). A folder named `app.asar`
   * is an extracted packaged app (packaged-layout.ts): every process gets Electron's asar view.
   */
  readonly appDir?: string;
  /** The WAV Chromium's fake microphone plays, looped. */
  readonly fakeAudio?: string;
  readonly locale?: string;
  readonly packaged?: boolean;
}

/** What the control channel reports (see stand-in/control.ts). */
export interface AppState {
  readonly devtools: string;
  readonly windows: readonly { id: number; url: string; visible: boolean; focused: boolean; bounds: { x: number; y: number; width: number; height: number }; options: Record<string, unknown> }[];
  readonly tray: { tooltip: string; image: string; menu: MenuEntry[] } | null;
  readonly dialogs: { pending: { id: number; options: Record<string, unknown> }[]; shown: Record<string, unknown>[] };
  readonly shortcuts: string[];
  readonly clipboardMarkers: string[];
  /** What the app passed to protocol.registerSchemesAsPrivileged. */
  readonly privilegedSchemes: { scheme: string; privileges?: Record<string, boolean> }[];
  readonly children: { pid: number | undefined; alive: boolean }[];
  readonly errorBoxes: { title: string; content: string }[];
  readonly openedExternal: string[];
  readonly openedPaths: string[];
  /** app.commandLine switches, and the ones appended after 'ready' (which Chromium ignores). */
  readonly switches: Record<string, string>;
  readonly lateSwitches: string[];
}

/** A tray menu entry. */
export interface MenuEntry {
  label: string;
  type: string;
  enabled: boolean;
  checked: boolean;
  submenu?: MenuEntry[];
}

/** A running app. */
export interface RunningApp {
  readonly process: ChildProcess;
  readonly dataDir: string;
  /** Everything the process printed (stdout + stderr). */
  output(): string;
  state(): Promise<AppState>;
  /** Clicks a tray menu item by its labels (a path through submenus). */
  clickTray(...labels: string[]): Promise<void>;
  answerDialog(id: number, response: number): Promise<void>;
  /** The page of the window whose URL contains `/<kind>/` (opened by the app, not by the test). */
  page(kind: string): Promise<Page>;
  /** Lines of logs/main.log, parsed. */
  log(): Record<string, unknown>[];
  /** Resolves when the log has a line with `msg` (and the optional fields). */
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the exit code (or the signal). */
  exited(): Promise<number | string>;
  /** SIGKILL, no cleanup (a crash). */
  kill(): Promise<void>;
  /** Disconnects the test's DevTools connection (the app keeps running). */
  disconnect(): Promise<void>;
}

/** Polls `fn` until it returns a truthy value or the time is up. */
export async function waitUntil<T>(fn: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts the built app; resolves once its process runs (not yet ready: wait for the log's "ready"). */
export function launchApp(opts: LaunchOptions): RunningApp {
  const appDir = opts.appDir ?? repoRoot;
  const entry = path.join(appDir, 'out/main/index.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  // Electron reads archives in every process it starts (main, utility processes, workers): NODE_OPTIONS
  // reaches them all. A packaged app never runs from inside its archive: its cwd is the install folder.
  const fromArchive = path.basename(appDir) === 'app.asar';
  const asarEnv = fromArchive ? { NODE_OPTIONS: [opts.env.NODE_OPTIONS, `--import=${pathToFileURL(ASAR_SUPPORT).href}`].filter(Boolean).join(' ') } : {};
  const child = spawn(process.execPath, ['--import', LOADER, entry], {
    cwd: fromArchive ? path.dirname(path.dirname(appDir)) : appDir,
    env: {
      ...opts.env,
      ...asarEnv,
      TINGXIE_DATA_DIR: opts.dataDir,
      TINGXIE_STANDIN_LOCALE: opts.locale ?? 'en-US',
      TINGXIE_STANDIN_FAKE_AUDIO: opts.fakeAudio ?? '',
      TINGXIE_STANDIN_APP_PATH: appDir,
      TINGXIE_STANDIN_PACKAGED: opts.packaged === true ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));

  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w?.resolve(m.result);
    else w?.reject(new Error(m.error));
  });
  const control = (cmd: string, args: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error(`the app is not running (exit ${String(child.exitCode ?? child.signalCode)})\n${out.slice(-2000)}`));
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ id, cmd, args });
    });

  let browser: Browser | null = null;
  const logFile = path.join(opts.dataDir, 'logs', 'main.log');
  const log = (): Record<string, unknown>[] =>
    fs.existsSync(logFile)
      ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];

  const app: RunningApp = {
    process: child,
    dataDir: opts.dataDir,
    output: () => out,
    state: () => control('state') as Promise<AppState>,
    clickTray: async (...labels) => void (await control('tray-click', { path: labels })),
    answerDialog: async (id, response) => void (await control('dialog-answer', { id, response })),
    async page(kind) {
      const endpoint = await waitUntil(async () => (await app.state()).devtools, 15_000, 'Chromium to start');
      browser ??= await chromium.connectOverCDP(endpoint);
      const b = browser;
      return waitUntil(() => b.contexts().flatMap((c) => c.pages()).find((p) => p.url().includes(`/${kind}/`)), 15_000, `the ${kind} window`);
    },
    log,
    waitForLog: (msg, timeoutMs = 20_000) => waitUntil(() => log().find((l) => l.msg === msg), timeoutMs, `log line "${msg}"\n${out.slice(-2000)}`),
    exited: () => exit,
    async kill() {
      child.kill('SIGKILL');
      await exit;
    },
    async disconnect() {
      await browser?.close().catch(() => undefined);
      browser = null;
    },
  };
  return app;
}
