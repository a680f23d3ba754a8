/**
 * The built app, whole: hold-to-talk with the real key hook, Chromium's fake microphone through the
 * capture window, whisper.cpp in the engine process, the LLM over the openai SDK, the preview panel,
 * paste into a real X11 text field, the JSONL history and the History window.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, waitUntil, type RunningApp } from './harness/launch-app.ts';
import { startScenario, type Scenario } from './harness/scenario.ts';
import { historyRecords } from './harness/scenario-suite.ts';

describe('the built app: hold to talk, confirm, paste, browse', () => {
  let s: Scenario;
  let app: RunningApp;
  beforeAll(async () => {
    s = await startScenario();
  }, 60_000);
  afterAll(async () => {
    if (app && app.process.exitCode === null) await app.kill();
    await s?.close();
  });

  it('starts: tray ready, hotkeys armed, microphone warm', async () => {
    app = launchApp({ dataDir: s.dataDir(), env: s.x.env, fakeAudio: s.speech });
    await app.waitForLog('ready');
    await app.waitForLog('microphone ready');
    // The model is loaded at start, not after the first key-up.
    expect(await app.waitForLog('speech engine warmed up')).toMatchObject({ why: 'start', model: 'tiny' });
    const state = await app.state();
    expect(state.tray?.tooltip).toMatch(/Tingxie/);
    expect(state.errorBoxes).toEqual([]);
    // Every window the app made is locked down and loads its page from app://tingxie/, never file://
    // (issue 14, item 8); a development run keeps DevTools.
    expect(state.windows.length).toBeGreaterThanOrEqual(3);
    for (const w of state.windows) {
      expect(w.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, devTools: true });
      expect(w.url).toMatch(/^app:\/\/tingxie\/[a-z]+\/index\.html$/);
    }
    expect(state.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);
    // The page carries the strict CSP in its meta tag, and the app's protocol handler sends it as a header too.
    const panel = await app.page('panel');
    expect(await panel.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toContain("script-src 'self'");
    const served = await panel.evaluate(async () => {
      const r = await fetch(location.href);
      // Encoded slashes survive URL normalisation and reach the handler, which must refuse them.
      const traversal = await fetch(`${location.origin}/panel/..%2F..%2F..%2F..%2Fetc%2Fpasswd`);
      return { csp: r.headers.get('content-security-policy'), type: r.headers.get('content-type'), traversal: traversal.status };
    });
    expect(served).toMatchObject({ type: 'text/html; charset=utf-8', traversal: 400 });
    expect(served.csp).toContain("frame-ancestors 'none'");
    expect(await panel.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
  }, 60_000);

  it('hold Right Alt, speak, release: the panel shows the text; Enter pastes it into the focused field; the clipboard is restored', async () => {
    const field = await s.targetField();
    await s.clipboard.write('what the user had copied');
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(async () => (await app.state()).windows.find((w) => w.url.includes('/indicator/'))?.visible, 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 3000));
    await s.xdotool('keyup', 'Alt_R');
    const panel = await app.page('panel');
    await waitUntil(async () => (await app.state()).windows.find((w) => w.url.includes('/panel/'))?.visible, 10_000, 'the panel');
    await expect.poll(() => panel.locator('textarea').first().inputValue(), { timeout: 20_000 }).toBe('Hello world.');
    await panel.keyboard.press('Enter');
    await expect.poll(() => field.inputValue('#t'), { timeout: 10_000 }).toBe('Hello world.');
    await expect.poll(() => s.clipboard.read(), { timeout: 5000 }).toBe('what the user had copied');
    // Key-up ended the capture when the window's final batch arrived, not when the grace ran out.
    expect(app.log().filter((l) => l.msg === 'capture stop waited the full grace period')).toEqual([]);
  }, 60_000);

  it('one JSONL record with the dictation', async () => {
    const records = await historyRecords(app.dataDir, 1, 10_000);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ final_text: 'Hello world.', enhanced_text: 'Hello world.', enhance_mode: 'proofread', preview_enabled: true, source: 'voice', outcome: 'confirmed' });
    expect(records[0]?.stt_model).toContain('tiny');
    expect(Number(records[0]?.audio_duration)).toBeGreaterThan(2);
  }, 20_000);

  it('the History window lists it', async () => {
    await app.clickTray('History…');
    const history = await app.page('history');
    await expect.poll(() => history.getByText('Hello world.').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  }, 30_000);

  it('Quit from the tray: exit 0, the lock removed, no child process left', async () => {
    const children = (await app.state()).children;
    await app.disconnect();
    await app.clickTray('Quit Tingxie');
    expect(await app.exited()).toBe(0);
    expect(fs.existsSync(path.join(app.dataDir, 'tingxie.lock'))).toBe(false);
    for (const c of children) if (c.pid !== undefined) expect(() => process.kill(c.pid!, 0)).toThrow();
  }, 30_000);
});
