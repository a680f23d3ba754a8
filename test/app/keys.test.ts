/**
 * The recording keys are consumed while — and only while — a recording runs, in the built app on Xvfb:
 * the stand-in's globalShortcut is real XGrabKey (a grabbed key goes to the grabber only, as with
 * Electron on X11), the key hook is the real uiohook, the keys are real X events from xdotool, and the
 * app being dictated into is a real X11 window: a headed Chromium textarea whose page logs every keydown
 * it receives, or a plain X11 window that logs every key event the X server delivers to it (Chromium
 * itself takes Alt+Space and Alt+← as its own shortcuts before a page sees them). Before this change,
 * Space, ←, → and Escape pressed during a recording also reached that window.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startKeyLogger } from './harness/key-logger.ts';
import { launchApp, waitUntil, type RunningApp } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite, windowVisible as visible } from './harness/scenario-suite.ts';

function records(dataDir: string): Record<string, unknown>[] {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

/** Focuses the field with `text`, the caret at `caret`, and starts logging the keydowns the page receives. */
async function prepareField(field: Page, text: string, caret: number): Promise<void> {
  await field.fill('#t', text);
  await field.evaluate((c) => {
    const t = document.querySelector('textarea');
    if (t === null) throw new Error('no textarea');
    t.focus();
    t.setSelectionRange(c, c);
    const w = window as unknown as { keys?: string[] };
    if (w.keys === undefined) document.addEventListener('keydown', (e) => w.keys?.push(e.key), true);
    w.keys = [];
  }, caret);
}

/** The keydowns the field's page received since prepareField, and where its caret is. */
const received = (field: Page): Promise<{ keys: string[]; caret: number; value: string; url: string }> =>
  field.evaluate(() => {
    const t = document.querySelector('textarea');
    return { keys: [...((window as unknown as { keys?: string[] }).keys ?? [])], caret: t?.selectionStart ?? -1, value: t?.value ?? '', url: location.href };
  });

describe('the built app: keys pressed during a recording are consumed, and only then', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
  });

  async function start(config: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = s.x.env): Promise<RunningApp> {
    const a = suite.track(launchApp({ dataDir: s.dataDir(config), env, fakeAudio: s.speech }));
    await a.waitForLog('ready');
    await a.waitForLog('microphone ready');
    return a;
  }

  it('toggle mode: ← switches the mode and neither moves the caret nor reaches the field; after the recording ← and Space type again', async () => {
    const a = await start({ recording: { mode: 'toggle', toggle_shortcut: 'Control+Alt+D' }, output: { preview: false } });
    const field = await s.targetField();
    await prepareField(field, 'abc', 3);
    expect((await a.state()).shortcuts).toEqual(['Control+Alt+D']);

    await s.xdotool('key', 'ctrl+alt+d');
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    // Nothing is held in toggle mode: the bare keys are grabbed.
    expect((await a.state()).shortcuts).toEqual(['Control+Alt+D', 'Space', 'Escape', 'Left', 'Right']);
    await s.xdotool('key', 'Left');
    await new Promise((r) => setTimeout(r, 2000));
    const during = await received(field);
    expect(during.keys.filter((k) => k !== 'Control' && k !== 'Alt' && k !== 'd')).toEqual([]);
    expect(during.caret).toBe(3);

    await s.xdotool('key', 'ctrl+alt+d');
    // Pasted where the caret was left (a leaked ← would have put it between b and c).
    await waitUntil(async () => (await received(field)).value === 'abcHello world.', 20_000, 'the pasted text');
    await waitUntil(() => records(a.dataDir).length === 1, 5000, 'the record');
    expect(records(a.dataDir)[0]?.enhance_mode).not.toBe('proofread'); // ← chose the previous mode
    expect((await a.state()).shortcuts).toEqual(['Control+Alt+D']);

    // Not recording: the same keys reach the field again.
    await prepareField(field, 'abc', 3);
    await s.xdotool('key', 'Left', 'space');
    const after = await received(field);
    expect(after.keys).toEqual(['ArrowLeft', ' ']);
    expect(after.value).toBe('ab c');
  }, 60_000);

  it('hold Right Alt: Space cancels, ← → switch modes, and the focused X11 window never receives them (only Alt); released, they arrive again', async () => {
    const a = await start({ output: { preview: false } });
    const x = await startKeyLogger(s.x.env);
    try {
      await x.focus();
      await s.xdotool('keydown', 'Alt_R');
      await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
      // X grabs match the exact modifier state: Right Alt held makes Space arrive as Alt+Space.
      expect((await a.state()).shortcuts).toEqual(['Space', 'Alt+Space', 'Escape', 'Alt+Escape', 'Left', 'Alt+Left', 'Right', 'Alt+Right']);
      await new Promise((r) => setTimeout(r, 800));
      await s.xdotool('key', 'Left', 'Right', 'Right');
      await new Promise((r) => setTimeout(r, 300));
      await s.xdotool('key', 'space');
      await waitUntil(async () => !(await visible(a, 'indicator')), 5000, 'the indicator to hide (cancelled)');
      await s.xdotool('keyup', 'Alt_R');
      // The window saw the Alt keys go down and up, nothing else.
      expect(x.pressed().filter((k) => !k.startsWith('Alt_'))).toEqual([]);
      expect((await a.state()).shortcuts).toEqual([]);
      expect(records(a.dataDir)).toEqual([]);

      // Not recording: the same keys reach the window again.
      x.clear();
      await s.xdotool('key', 'space', 'Left', 'Escape');
      await waitUntil(() => x.pressed().length === 3, 3000, 'the keys to arrive after the recording');
      expect(x.pressed()).toEqual(['space', 'Left', 'Escape']);
    } finally {
      x.close();
    }
  }, 60_000);

  it('hold Right Alt: Alt+← switches the mode instead of taking the browser Back, the text lands in the page; Escape cancels the next recording', async () => {
    const a = await start({ output: { preview: false } });
    const field = await s.targetField();
    // A page with history: a leaked Alt+← would navigate back to the first one.
    await field.goto('data:text/html,<p>the previous page</p>');
    await field.goto('data:text/html,<textarea id="t" style="width:600px;height:300px"></textarea>');
    await prepareField(field, '', 0);
    const url = (await received(field)).url;
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 800));
    await s.xdotool('key', 'Left');
    await new Promise((r) => setTimeout(r, 1700));
    await s.xdotool('keyup', 'Alt_R');
    // Leaked, Alt+← is Back: Chromium would be showing the previous page (and the text lost) by now.
    await new Promise((r) => setTimeout(r, 500));
    expect((await received(field)).url).toBe(url);
    await waitUntil(async () => (await received(field)).value === 'Hello world.', 20_000, 'the pasted text');
    const seen = await received(field);
    expect(seen.url).toBe(url);
    expect(seen.keys.filter((k) => k.startsWith('Arrow'))).toEqual([]);
    await waitUntil(() => records(a.dataDir).length === 1, 5000, 'the record');
    expect(records(a.dataDir)[0]?.enhance_mode).not.toBe('proofread'); // ← chose the previous mode

    // Escape cancels whatever the configured cancel key is, and is consumed too.
    await prepareField(field, '', 0);
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 800));
    await s.xdotool('key', 'Escape');
    await waitUntil(async () => !(await visible(a, 'indicator')), 5000, 'the indicator to hide (cancelled)');
    await s.xdotool('keyup', 'Alt_R');
    expect((await received(field)).keys.filter((k) => k === 'Escape')).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(records(a.dataDir)).toHaveLength(1);
  }, 60_000);

  it('Wayland session: the portal feature is switched on before ready, the toggle shortcut stands in for hold-to-talk, no recording key is grabbed', async () => {
    const a = await start({}, { ...s.x.env, XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-tingxie-test' });
    const st = await a.state();
    expect(st.switches['enable-features']?.split(',')).toContain('GlobalShortcutsPortal');
    expect(st.lateSwitches).toEqual([]);
    expect(st.shortcuts).toEqual(['CommandOrControl+Shift+Space']);
    expect(st.tray?.menu.map((m) => m.label).join('\n')).toMatch(/Wayland.*X11/);
    // The hook still sees XWayland (here: X11) windows; nothing is grabbed through the portal meanwhile.
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    expect((await a.state()).shortcuts).toEqual(['CommandOrControl+Shift+Space']);
    await s.xdotool('key', 'Escape');
    await waitUntil(async () => !(await visible(a, 'indicator')), 5000, 'the indicator to hide (cancelled)');
    await s.xdotool('keyup', 'Alt_R');
  }, 60_000);
});
