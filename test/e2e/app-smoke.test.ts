/**
 * Smoke test of the real app in a real Electron: it starts, refuses a second instance (which opens
 * Settings in the first), the Settings window has the bridge and no Node, and it quits cleanly.
 * Runs only where an Electron binary exists (findElectron, never require('electron')); skipped with
 * the reason otherwise.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron } from 'playwright-core';
import type { ElectronApplication, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronSkipReason, findElectron } from '../helpers/electron-path.ts';

const root = resolve(import.meta.dirname, '../..');
const exe = findElectron();
if (!exe) console.warn(`[e2e] skipped: ${electronSkipReason}`);

describe.skipIf(!exe)(exe ? 'Tingxie in Electron' : `Tingxie in Electron (skipped: ${electronSkipReason})`, () => {
  let dataDir: string;
  let app: ElectronApplication;
  let env: Record<string, string>;
  // Chromium refuses to run as root with its OS sandbox; that flag only affects the OS-level sandbox,
  // the JS sandbox of our windows (webPreferences.sandbox) stays on. No GPU in CI containers.
  const isRoot = process.getuid?.() === 0;
  const args = [join(root, 'out/main/index.js'), ...(process.platform === 'linux' ? ['--disable-gpu'] : []), ...(isRoot ? ['--no-sandbox'] : [])];

  beforeAll(async () => {
    if (!existsSync(join(root, 'out/main/index.js'))) throw new Error('out/main/index.js is missing: run `npx electron-vite build` first');
    dataDir = mkdtempSync(join(tmpdir(), 'tingxie-'));
    env = { ...(process.env as Record<string, string>), TINGXIE_DATA_DIR: dataDir };
    delete env.ELECTRON_RUN_AS_NODE;
    app = await electron.launch({ executablePath: exe!, args, env, timeout: 60_000 });
  });

  afterAll(async () => {
    if (app) await app.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, takes the data-folder lock and writes its log', async () => {
    await expect.poll(() => existsSync(join(dataDir, 'logs', 'main.log')), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8'), { timeout: 30_000 }).toContain('"msg":"ready"');
    const lock = JSON.parse(readFileSync(join(dataDir, 'tingxie.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(app.process().pid);
  });

  let settings: Page;
  it('a second instance exits at once and the first opens Settings', async () => {
    const windowOpened = app.waitForEvent('window', { predicate: (p) => p.url().includes('/settings/'), timeout: 30_000 });
    const second = spawn(exe!, args, { env, stdio: 'ignore' });
    const code = await new Promise<number | null>((ok) => second.on('exit', (c) => ok(c)));
    expect(code).toBe(0);
    settings = await windowOpened;
    await settings.waitForLoadState('domcontentloaded');
  });

  it('the Settings window has window.tingxie and no Node (require/process absent)', async () => {
    const probe = await settings.evaluate(() => ({
      bridge: typeof (window as unknown as { tingxie?: unknown }).tingxie,
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (globalThis as unknown as { process?: unknown }).process,
      module: typeof (globalThis as unknown as { module?: unknown }).module,
    }));
    expect(probe).toEqual({ bridge: 'object', require: 'undefined', process: 'undefined', module: 'undefined' });
    const info = await settings.evaluate(() => (window as unknown as { tingxie: { app: { info(): Promise<{ dataDir: string }> } } }).tingxie.app.info());
    expect(info.dataDir).toBe(dataDir);
  });

  it('quits cleanly: exit code 0 and the lock released', async () => {
    const proc = app.process();
    const exited = new Promise<number | null>((ok) => proc.once('exit', (c) => ok(c)));
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'tingxie.lock'))).toBe(false);
  });
});
