/**
 * The last dictation one key away, in the built app on Xvfb: a dictation pasted into the wrong window
 * is pasted again into the right one with the Paste-last shortcut (a real X key grab); Copy last puts it
 * on the clipboard; after a restart the tray's Paste last takes it from the history, and Reopen last
 * preview shows it in the preview panel again.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppWindow, type AppWindow } from './harness/app-windows.ts';
import { waitUntil } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { historyRecords, useScenarioSuite, windowVisible } from './harness/scenario-suite.ts';

describe('paste, copy and reopen the last dictation', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  const browsers: Browser[] = [];
  let wrong: AppWindow;
  let right: AppWindow;
  beforeAll(async () => {
    s = suite.scenario();
    wrong = await openAppWindow(s, 'Gedit', 0, browsers);
    right = await openAppWindow(s, 'Slack', 500, browsers);
  }, 60_000);
  afterAll(async () => {
    for (const b of browsers) await b.close().catch(() => undefined);
  });

  it('a paste into the wrong window: Paste last (shortcut) lands it in the right one, Copy last copies it; after a restart from history', async () => {
    const config = { output: { preview: false }, recording: { paste_last_shortcut: 'Control+Alt+P' } };
    const a = await suite.startApp({ config });
    expect((await a.state()).shortcuts).toContain('Control+Alt+P');
    await wrong.focus();
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(async () => (await wrong.value()) === 'Hello world.', 20_000, 'the text in the wrong window').catch(async (err: unknown) => {
      throw new Error(`${String(err)}; wrong: ${JSON.stringify(await wrong.value())}, right: ${JSON.stringify(await right.value())}, log: ${JSON.stringify(a.log().slice(-15))}`);
    });
    await historyRecords(a.dataDir, 1, 5000);

    // The user goes to the right window and presses Paste last.
    await right.focus();
    expect(await right.value()).toBe('');
    await s.xdotool('key', '--clearmodifiers', 'ctrl+alt+p');
    await waitUntil(async () => (await right.value()) === 'Hello world.', 10_000, 'the text pasted again into the right window');
    expect(await wrong.value()).toBe('Hello world.');

    // Copy last (tray): on the clipboard.
    await s.clipboard.write('something else');
    await a.clickTray('Copy Last Dictation');
    await waitUntil(async () => (await s.clipboard.read()) === 'Hello world.', 5000, 'the last dictation on the clipboard');
    // Paste and Reopen are tray items too; no new record was written by pasting again.
    const labels = (await a.state()).tray?.menu.map((m) => m.label) ?? [];
    expect(labels).toEqual(expect.arrayContaining(['Paste Last Dictation', 'Copy Last Dictation', 'Reopen Last Preview']));
    expect(await historyRecords(a.dataDir, 1, 1000)).toHaveLength(1);

    // After a restart the last dictation comes from the history.
    await a.kill();
    const b = await suite.startApp({ dataDir: a.dataDir });
    await waitUntil(async () => (await b.state()).tray !== null, 10_000, 'the tray after the restart');
    await right.clear();
    await right.focus();
    await b.clickTray('Paste Last Dictation');
    await waitUntil(async () => (await right.value()) === 'Hello world.', 10_000, 'the text from history pasted after the restart');
  }, 150_000);

  it('Reopen last preview shows the last dictation in the preview panel, in its mode', async () => {
    const a = await suite.startApp({ config: { output: { preview: false } } });
    await right.clear();
    await right.focus();
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(async () => (await right.value()) === 'Hello world.', 20_000, 'the dictation');
    await historyRecords(a.dataDir, 1, 5000);
    const chats = s.llm.requests.length;
    await a.clickTray('Reopen Last Preview');
    await waitUntil(() => windowVisible(a, 'panel'), 5000, 'the preview panel');
    const panel = await a.page('panel');
    await waitUntil(async () => (await panel.locator('textarea').first().inputValue()) === 'Hello world.', 10_000, 'the text in the panel');
    // Its mode ran in this session already: the answer is shown from the cache, the model is not asked again.
    expect(s.llm.requests.length).toBe(chats);
  }, 120_000);
});
