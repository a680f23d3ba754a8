// Hold-to-talk and paste against a real X server (Xvfb): the real uiohook-napi hook sees a hold of
// the configured key driven by xdotool, and the real Linux paste strategy (xdotool focus + keystroke)
// puts text into a headed Chromium textarea through the clipboard, then restores the user's clipboard.
// The clipboard port is xclip here: Electron's clipboard only exists inside Electron.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xclipClipboard } from '../../../src/main/platform/clipboard-xclip.ts';
import { x11Focus } from '../../../src/main/platform/focus.ts';
import { platformKeystrokes } from '../../../src/main/platform/keystroke.ts';
import { PasteService } from '../../../src/main/platform/paste.ts';
import { runCommand } from '../../../src/main/platform/run-command.ts';
import { missingX11Tools, startXvfb, type Xvfb } from '../../helpers/xvfb.ts';

const CHROMIUM = process.env.TINGXIE_CHROMIUM ?? '/usr/bin/chromium';
const missing = [...missingX11Tools(), ...(fs.existsSync(CHROMIUM) ? [] : [`chromium at ${CHROMIUM}`])];
if (missing.length > 0) console.warn(`X11 input tests skipped: missing ${missing.join(', ')} (node scripts/ensure-system-deps.mjs installs them)`);

describe.skipIf(missing.length > 0)('X11 hotkeys and paste (Xvfb)', () => {
  let x: Xvfb;
  beforeAll(async () => {
    x = await startXvfb();
  }, 10_000);
  afterAll(async () => {
    await x?.stop();
  });

  it('uiohook sees a hold of the configured key (alt_r) driven by xdotool: key-down, then key-up with the hold time', async () => {
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'hook-child.ts'), 'alt_r'], { env: x.env, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: Record<string, unknown>[] = [];
    const waiters: (() => void)[] = [];
    createInterface({ input: child.stdout }).on('line', (l) => {
      lines.push(JSON.parse(l) as Record<string, unknown>);
      waiters.splice(0).forEach((w) => w());
    });
    const waitFor = async (pred: () => boolean, ms: number): Promise<void> => {
      const end = Date.now() + ms;
      while (!pred() && Date.now() < end) await new Promise<void>((r) => (waiters.push(r), setTimeout(r, 50)));
    };
    try {
      await waitFor(() => lines.some((l) => l.ready || l.error), 5000);
      expect(lines.find((l) => l.error)).toBeUndefined();
      // Another key first: it must not start anything.
      await runCommand('xdotool', ['key', 'a'], { env: x.env });
      await runCommand('xdotool', ['keydown', 'Alt_R'], { env: x.env });
      await new Promise((r) => setTimeout(r, 600));
      await runCommand('xdotool', ['keyup', 'Alt_R'], { env: x.env });
      await waitFor(() => lines.some((l) => l.type === 'hold-up'), 3000);
      const actions = lines.filter((l) => l.type !== undefined);
      expect(actions.map((a) => a.type)).toEqual(['hold-down', 'hold-up']);
      expect(actions[0]).toMatchObject({ key: 'alt_r' });
      expect(actions[1]?.heldMs).toBeGreaterThanOrEqual(550);
      expect(actions[1]?.heldMs).toBeLessThan(2000);
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 15_000);

  it('pastes CJK text into a real X11 text field (xdotool focus + Ctrl+V) and restores the previous clipboard', async () => {
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: false,
        env: x.env,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--window-position=0,0', '--window-size=800,600'],
      });
      const page = await browser.newPage();
      await page.setContent('<textarea id="t" style="width:600px;height:300px"></textarea>');
      await page.click('#t');
      const clip = xclipClipboard(x.env);
      await clip.writeText('the user’s own clipboard 原来的');
      const service = new PasteService({
        platform: 'linux',
        clipboard: clip,
        focus: x11Focus(x.env),
        keys: platformKeystrokes({ platform: 'linux', display: 'x11', env: x.env }),
        restoreClipboard: () => true,
        restoreAfterMs: 300,
      });
      service.rememberTarget();
      const target = await service.remembered();
      expect(target?.id).toMatch(/^\d+$/);
      const r = await service.run('萍萍你好 dictated text', 'paste');
      expect(r).toMatchObject({ ok: true, keys: 'ctrl+v' });
      await expect.poll(() => page.inputValue('#t'), { timeout: 3000 }).toBe('萍萍你好 dictated text');
      expect(await r.finished).toBe('restored');
      expect(await clip.readText()).toBe('the user’s own clipboard 原来的');

      // Copy-only mode leaves the text on the clipboard and types nothing.
      const c = await service.run('only copied', 'copy');
      expect(c.ok).toBe(true);
      expect(await clip.readText()).toBe('only copied');
      expect(await page.inputValue('#t')).toBe('萍萍你好 dictated text');
    } finally {
      await browser?.close();
    }
  }, 20_000);
});
