/**
 * The built app's lifecycle: a second instance hands over to the first (which opens Settings), and a
 * crash (kill -9) in the middle of a dictation loses nothing — the next start offers the journaled
 * session and delivers it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dictationChats } from '../helpers/openai-test-server.ts';
import { launchApp, waitUntil } from './harness/launch-app.ts';
import { historyRecords, useScenarioSuite } from './harness/scenario-suite.ts';

describe('the built app: instances, crash and recovery', () => {
  // Each test starts its own apps on its own data folder; the scenario (display, servers, speech) is the file's.
  const suite = useScenarioSuite();

  it('a second instance exits 0 at once and the first shows Settings', async () => {
    const s = suite.scenario();
    const first = await suite.startApp({ noMicrophone: true });
    expect((await first.state()).windows.some((w) => w.url.includes('/settings/'))).toBe(false);
    const second = suite.track(launchApp({ dataDir: first.dataDir, env: s.x.env }));
    expect(await second.exited()).toBe(0);
    await waitUntil(async () => (await first.state()).windows.find((w) => w.url.includes('/settings/'))?.visible, 10_000, 'Settings in the first instance');
    const settings = await first.page('settings');
    await expect.poll(() => settings.locator('h1, h2').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  }, 60_000);

  it('kill -9 while the LLM is answering; the next start offers the dictation and delivers it', async () => {
    const s = suite.scenario();
    const dataDir = s.dataDir();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    s.llm.setChat(async () => {
      await held; // the answer never comes before the crash
      return { kind: 'text', content: 'Hello world.' };
    });
    try {
      const a = await suite.startApp({ dataDir });
      // Counted from here: a chat request of another test on the file's server is not this dictation's.
      const chats = (): number => dictationChats(s.llm.requests).length;
      const chatsBefore = chats();
      await s.xdotool('keydown', 'Alt_R');
      await new Promise((r) => setTimeout(r, 2500));
      await s.xdotool('keyup', 'Alt_R');
      // The transcript is journaled before the LLM call: wait for the call, then crash.
      await waitUntil(() => chats() > chatsBefore, 20_000, 'the LLM call');
      await a.kill();
      expect(fs.readdirSync(path.join(dataDir, 'journal')).length).toBeGreaterThan(0);
    } finally {
      release();
      s.llm.setChat(() => ({ kind: 'text', content: 'Hello world.' }));
    }

    const field = await s.targetField();
    await field.fill('#t', '');
    const b = await suite.startApp({ dataDir, noMicrophone: true });
    const dialog = await waitUntil(async () => (await b.state()).dialogs.pending[0], 15_000, 'the recovery offer');
    expect(String(dialog.options.detail)).toContain('hello world');
    await b.answerDialog(dialog.id, 0); // Finish it
    const panel = await b.page('panel');
    await waitUntil(async () => (await b.state()).windows.find((w) => w.url.includes('/panel/'))?.visible, 10_000, 'the panel');
    await expect.poll(() => panel.locator('textarea').first().inputValue(), { timeout: 20_000 }).toBe('Hello world.');
    await panel.keyboard.press('Enter');
    await expect.poll(() => field.inputValue('#t'), { timeout: 10_000 }).toBe('Hello world.');
    const recs = await historyRecords(dataDir, 1, 5000);
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({ final_text: 'Hello world.' });
  }, 90_000);
});
