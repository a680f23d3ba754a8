/**
 * The built app, whole: hold-to-talk with the real key hook, Chromium's fake microphone through the
 * capture window, whisper.cpp in the engine process, the LLM over the openai SDK, the preview panel,
 * paste into a real X11 text field, the JSONL history and the History window. Each test starts what it
 * needs through the reusable fixtures below (scenario-suite.ts): a started app, and that app after one
 * dictation, made by whichever test asks first, so the file starts one app unless a test quits it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil, type RunningApp } from './harness/launch-app.ts';
import { historyRecords, useScenarioSuite, windowVisible } from './harness/scenario-suite.ts';

/** What a user sees around one dictation: the field dictated into and the clipboard afterwards. */
interface Dictated {
  readonly app: RunningApp;
  readonly pasted: string;
  readonly clipboardAfter: string;
}

const COPIED = 'what the user had copied';

describe('the built app: hold to talk, confirm, paste, browse', () => {
  const suite = useScenarioSuite();

  /** The app started and ready to dictate (the start test looks at it; the dictation below takes it). */
  const started = suite.reusable(async (start) => ({ app: await start() }));

  /** An app that took one dictation: hold Right Alt ~3 s, panel, Enter, paste (clipboard holding COPIED before). */
  const dictated = suite.reusable(async (): Promise<Dictated> => {
    const s = suite.scenario();
    const { app } = await started();
    const field = await s.targetField();
    await s.clipboard.write(COPIED);
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => windowVisible(app, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 3000));
    await s.xdotool('keyup', 'Alt_R');
    const panel = await app.page('panel');
    await waitUntil(() => windowVisible(app, 'panel'), 10_000, 'the panel');
    await waitUntil(async () => (await panel.locator('textarea').first().inputValue()) === 'Hello world.', 20_000, 'the text in the panel');
    await panel.keyboard.press('Enter');
    const pasted = await waitUntil(async () => (await field.inputValue('#t')) || null, 10_000, 'the pasted text');
    // The clipboard is restored right after the paste: wait for that, then report what it holds.
    await waitUntil(async () => (await s.clipboard.read()) === COPIED, 5000, 'the clipboard restored').catch(() => undefined);
    return { app, pasted, clipboardAfter: await s.clipboard.read() };
  });

  it('starts: tray ready, hotkeys armed, microphone warm', async () => {
    const { app } = await started();
    // The model is loaded at start, not after the first key-up.
    expect(await app.waitForLog('speech engine warmed up')).toMatchObject({ why: 'start', model: 'tiny' });
    const state = await app.state();
    expect(state.tray?.tooltip).toMatch(/Tingxie/);
    expect(state.errorBoxes).toEqual([]);
    // Every window the app made is locked down and loads its page from app://tingxie/, never file://
    // (DevTools are off only when packaged); a development run keeps DevTools.
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
    const { app, pasted, clipboardAfter } = await dictated();
    expect(pasted).toBe('Hello world.');
    expect(clipboardAfter).toBe(COPIED);
    // Key-up ended the capture when the window's final batch arrived, not when the grace ran out.
    expect(app.log().filter((l) => l.msg === 'capture stop waited the full grace period')).toEqual([]);
  }, 60_000);

  it('one JSONL record with the dictation', async () => {
    const { app } = await dictated();
    const records = await historyRecords(app.dataDir, 1, 10_000);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ final_text: 'Hello world.', enhanced_text: 'Hello world.', enhance_mode: 'proofread', preview_enabled: true, source: 'voice', outcome: 'confirmed' });
    expect(records[0]?.stt_model).toContain('tiny');
    expect(Number(records[0]?.audio_duration)).toBeGreaterThan(2);
  }, 60_000);

  it('the History window lists it', async () => {
    const { app } = await dictated();
    await app.clickTray('History…');
    const history = await app.page('history');
    await expect.poll(() => history.getByText('Hello world.').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  }, 60_000);

  it('Quit from the tray after a dictation: exit 0, the lock removed, no child process left', async () => {
    const { app } = await dictated();
    const children = (await app.state()).children;
    await app.disconnect();
    await app.clickTray('Quit Tingxie');
    expect(await app.exited()).toBe(0);
    expect(fs.existsSync(path.join(app.dataDir, 'tingxie.lock'))).toBe(false);
    for (const c of children) if (c.pid !== undefined) expect(() => process.kill(c.pid!, 0)).toThrow();
  }, 60_000);
});
