/**
 * Real X11 app windows of a chosen WM_CLASS for the app-rule and last-dictation scenarios: each one a
 * headed Chromium started with `--class=NAME` (Chromium sets the window's WM_CLASS class to it, the
 * instance stays "chromium …"), holding a one-line input inside a form that records each submit — so a
 * paste, and an Enter pressed after it, can be read back from the page.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { runCommand } from '../../../src/main/platform/run-command.ts';
import type { Scenario } from './scenario.ts';

const CHROMIUM = process.env.TINGXIE_CHROMIUM ?? '/usr/bin/chromium';

/** One app window. */
export interface AppWindow {
  readonly wmClass: string;
  readonly page: Page;
  /** Gives this window the X input focus (no window manager runs: `xdotool windowfocus`) and the field the caret. */
  focus(): Promise<void>;
  /** The field's text now. */
  value(): Promise<string>;
  /** What the form was submitted with (one entry per Enter in the field). */
  sent(): Promise<string[]>;
  clear(): Promise<void>;
}

const PAGE = `<form id="f"><input id="t" style="width:360px" autocomplete="off"></form>
<script>window.sent=[];document.getElementById('f').addEventListener('submit',(e)=>{e.preventDefault();window.sent.push(document.getElementById('t').value);});</script>`;

/** Opens a window of WM_CLASS `wmClass` at `x` on the scenario's display. */
export async function openAppWindow(s: Scenario, wmClass: string, x: number, browsers: Browser[]): Promise<AppWindow> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: false,
    env: s.x.env,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--class=${wmClass}`, `--window-position=${x},0`, '--window-size=480,300'],
  });
  browsers.push(browser);
  const page = browser.contexts()[0]?.pages()[0] ?? (await browser.newPage());
  await page.setContent(PAGE);
  const xid = async (): Promise<string> => {
    const r = await runCommand('xdotool', ['search', '--onlyvisible', '--class', `^${wmClass}$`], { env: s.x.env, timeoutMs: 5000 });
    const id = r.stdout.trim().split('\n').filter(Boolean).at(-1);
    if (id === undefined) throw new Error(`no window of class ${wmClass}`);
    return id;
  };
  return {
    wmClass,
    page,
    async focus() {
      // A window the app shows as it starts can take the focus right after it was given: give it again
      // until the focused window is this one (what the app reads at key-down).
      for (let tries = 0; ; tries++) {
        await s.xdotool('windowfocus', '--sync', await xid());
        await page.focus('#t');
        await new Promise((r) => setTimeout(r, 150));
        if ((await focusedClass(s)) === wmClass) return;
        if (tries >= 20) throw new Error(`${wmClass} does not keep the focus`);
      }
    },
    value: () => page.inputValue('#t'),
    sent: () => page.evaluate(() => (window as unknown as { sent: string[] }).sent),
    clear: () => page.fill('#t', ''),
  };
}

/** The X window focused now, as its WM_CLASS class (what the app's input context reads). */
export async function focusedClass(s: Scenario): Promise<string> {
  const id = (await runCommand('xdotool', ['getwindowfocus'], { env: s.x.env, timeoutMs: 3000 })).stdout.trim();
  const r = await runCommand('xprop', ['-id', id, 'WM_CLASS'], { env: s.x.env, timeoutMs: 3000 });
  return /"([^"]*)"\s*$/.exec(r.stdout.trim())?.[1] ?? '';
}
