/**
 * Smoke test of the real app in a real Electron: it starts, refuses a second instance (which opens
 * Settings in the first), the Settings window has the bridge and no Node, and it quits cleanly.
 * Runs only where an Electron binary exists (findElectron, never require('electron')); skipped with
 * the reason otherwise. No test depends on another having run: each asks for the app it needs (started
 * on first use, started again after a test quit it), so any one runs alone with `-t`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron } from 'playwright-core';
import type { ElectronApplication, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { electronSkipReason, findElectron } from '../helpers/electron-path.ts';

const root = resolve(import.meta.dirname, '../..');
const exe = findElectron();
if (!exe) console.warn(`[e2e] skipped: ${electronSkipReason}`);

describe.skipIf(!exe)(exe ? 'Tingxie in Electron' : `Tingxie in Electron (skipped: ${electronSkipReason})`, () => {
  // Chromium refuses to run as root with its OS sandbox; that flag only affects the OS-level sandbox,
  // the JS sandbox of our windows (webPreferences.sandbox) stays on. No GPU in CI containers.
  const isRoot = process.getuid?.() === 0;
  const args = [join(root, 'out/main/index.js'), ...(process.platform === 'linux' ? ['--disable-gpu'] : []), ...(isRoot ? ['--no-sandbox'] : [])];

  interface Started {
    readonly app: ElectronApplication;
    readonly dataDir: string;
    readonly env: Record<string, string>;
  }
  const dataDirs: string[] = [];
  let current: Started | null = null;

  /** The app on a fresh data folder, started on first use and again after a test ended it. */
  async function started(): Promise<Started> {
    if (current && current.app.process().exitCode === null && current.app.process().signalCode === null) return current;
    if (!existsSync(join(root, 'out/main/index.js'))) throw new Error('out/main/index.js is missing: run `npx electron-vite build` first');
    const dataDir = mkdtempSync(join(tmpdir(), 'tingxie-'));
    dataDirs.push(dataDir);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), TINGXIE_DATA_DIR: dataDir };
    delete env.ELECTRON_RUN_AS_NODE;
    const app = await electron.launch({ executablePath: exe!, args, env, timeout: 60_000 });
    await expect.poll(() => existsSync(join(dataDir, 'logs', 'main.log')) && readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8'), { timeout: 30_000 }).toContain('"msg":"ready"');
    current = { app, dataDir, env };
    return current;
  }

  /** Starts a second instance of the running app; resolves with its exit code and the Settings page it opened in the first. */
  async function secondInstance({ app, env }: Started): Promise<{ code: number | null; settings: Page }> {
    const windowOpened = app.waitForEvent('window', { predicate: (p) => p.url().includes('/settings/'), timeout: 30_000 });
    const second = spawn(exe!, args, { env, stdio: 'ignore' });
    const code = await new Promise<number | null>((ok) => second.on('exit', (c) => ok(c)));
    const settings = await windowOpened;
    await settings.waitForLoadState('domcontentloaded');
    return { code, settings };
  }

  afterAll(async () => {
    if (current) await current.app.close().catch(() => undefined);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('starts, takes the data-folder lock and writes its log', async () => {
    const { app, dataDir } = await started();
    expect(readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')).toContain('"msg":"ready"');
    const lock = JSON.parse(readFileSync(join(dataDir, 'tingxie.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(app.process().pid);
  });

  it('a second instance exits at once and the first opens Settings', async () => {
    const { code, settings } = await secondInstance(await started());
    expect(code).toBe(0);
    expect(settings.url()).toMatch(/\/settings\//);
  });

  it('the Settings window has window.tingxie and no Node (require/process absent)', async () => {
    const app = await started();
    const { settings } = await secondInstance(app);
    const probe = await settings.evaluate(() => ({
      bridge: typeof (window as unknown as { tingxie?: unknown }).tingxie,
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (globalThis as unknown as { process?: unknown }).process,
      module: typeof (globalThis as unknown as { module?: unknown }).module,
    }));
    expect(probe).toEqual({ bridge: 'object', require: 'undefined', process: 'undefined', module: 'undefined' });
    const info = await settings.evaluate(() => (window as unknown as { tingxie: { app: { info(): Promise<{ dataDir: string }> } } }).tingxie.app.info());
    expect(info.dataDir).toBe(app.dataDir);
  });

  it('quits cleanly: exit code 0 and the lock released', async () => {
    const { app, dataDir } = await started();
    const proc = app.process();
    const exited = new Promise<number | null>((ok) => proc.once('exit', (c) => ok(c)));
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'tingxie.lock'))).toBe(false);
  });
});
