/**
 * The other ways a dictation goes in the built app: the toggle shortcut (a real X key grab), the
 * cancel and restart keys while recording (consumed then: keys.test.ts proves they never reach the
 * focused app), and an LLM that fails (the raw text is still delivered, and the record says why).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dictationChats } from '../helpers/openai-test-server.ts';
import { launchApp, waitUntil, type RunningApp } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite, windowVisible as visible } from './harness/scenario-suite.ts';

function records(dataDir: string): Record<string, unknown>[] {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

describe('the built app: toggle, cancel, a failing LLM', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
  });

  async function start(config: Record<string, unknown> = {}): Promise<RunningApp> {
    const a = suite.track(launchApp({ dataDir: s.dataDir(config), env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('ready');
    await a.waitForLog('microphone ready');
    return a;
  }

  it('toggle mode: the shortcut starts and stops a dictation; it is registered as a real X key grab', async () => {
    const a = await start({ recording: { mode: 'toggle', toggle_shortcut: 'Control+Alt+D' }, output: { preview: false } });
    const field = await s.targetField();
    expect((await a.state()).shortcuts).toEqual(['Control+Alt+D']);
    await s.xdotool('key', 'ctrl+alt+d');
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('key', 'ctrl+alt+d');
    // No preview: the text goes straight into the focused field, and the stop did not wait out the grace.
    await waitUntil(async () => (await field.inputValue('#t')) === 'Hello world.', 20_000, 'the pasted text');
    expect(a.log().filter((l) => l.msg === 'capture stop waited the full grace period')).toEqual([]);
    await waitUntil(() => records(a.dataDir).length === 1, 5000, 'the record');
    expect(records(a.dataDir)[0]).toMatchObject({ final_text: 'Hello world.', preview_enabled: false });
  }, 60_000);

  it('the cancel key while recording: nothing is transcribed, pasted or logged; the audio is kept for a retry', async () => {
    const a = await start();
    const field = await s.targetField();
    await field.fill('#t', '');
    const chatsBefore = dictationChats(s.llm.requests).length;
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 1500));
    await s.xdotool('key', 'space');
    await waitUntil(async () => !(await visible(a, 'indicator')), 5000, 'the indicator to hide');
    await s.xdotool('keyup', 'Alt_R');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await visible(a, 'panel')).toBe(false);
    expect(await field.inputValue('#t')).toBe('');
    expect(records(a.dataDir)).toEqual([]);
    // The key-down warm-up of the prompt may have gone out; no dictation request did.
    expect(dictationChats(s.llm.requests).length).toBe(chatsBefore);
    // The cancelled recording is reopenable: the tray offers "Retry Last Dictation".
    const retry = (await a.state()).tray?.menu.find((m) => m.label === 'Retry Last Dictation');
    expect(retry?.enabled).toBe(true);
  }, 60_000);

  it('the restart key while recording: the first take is dropped and the second one is recorded and delivered', async () => {
    // No restart key by default on Linux (cmd would be the Super key): Backspace here, consumed while recording.
    const a = await start({ output: { preview: false }, feedback: { restart_key: 'backspace' } });
    const field = await s.targetField();
    await field.fill('#t', '');
    await s.xdotool('keydown', 'Alt_R');
    await new Promise((r) => setTimeout(r, 1000));
    // Restart: the capture window gets "stop" for the old session and "start" for the new one back to
    // back; the new one must survive the old one's flush.
    await s.xdotool('key', 'BackSpace');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('keyup', 'Alt_R');
    await waitUntil(async () => (await field.inputValue('#t')) === 'Hello world.', 20_000, 'the pasted text');
    await waitUntil(() => records(a.dataDir).length === 1, 5000, 'the record');
    expect(Number(records(a.dataDir)[0]?.audio_duration)).toBeGreaterThan(2);
    // The restart kept the recording keys grabbed; the end of the recording released them.
    expect(a.log().filter((l) => l.msg === 'recording keys consumed')).toHaveLength(1);
    expect((await a.state()).shortcuts).toEqual([]);
  }, 60_000);

  it('the LLM fails: the panel shows the recognised text with a notice, Enter pastes it, the record says the AI failed', async () => {
    s.llm.setChat(() => ({ kind: 'fault', fault: { kind: 'http', status: 500, message: 'model crashed' } }));
    try {
      const a = await start();
      const field = await s.targetField();
      await field.fill('#t', '');
      await s.xdotool('keydown', 'Alt_R');
      await new Promise((r) => setTimeout(r, 2500));
      await s.xdotool('keyup', 'Alt_R');
      const panel = await a.page('panel');
      await waitUntil(() => visible(a, 'panel'), 10_000, 'the panel');
      await expect.poll(() => panel.locator('textarea').first().inputValue(), { timeout: 20_000 }).toMatch(/hello world/i);
      await expect.poll(() => panel.getByRole('status').or(panel.getByRole('alert')).allInnerTexts(), { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/AI|enhance/i)]));
      const raw = await panel.locator('textarea').first().inputValue();
      await panel.keyboard.press('Enter');
      await expect.poll(() => field.inputValue('#t'), { timeout: 10_000 }).toBe(raw);
      await waitUntil(() => records(a.dataDir).length === 1, 5000, 'the record');
      const rec = records(a.dataDir)[0];
      expect(rec).toMatchObject({ final_text: raw, asr_text: raw });
      expect(rec?.enhanced_text ?? null).toBeNull();
      expect(String(rec?.enhance_error)).toMatch(/500|crashed/);
    } finally {
      s.llm.setChat(() => ({ kind: 'text', content: 'Hello world.' }));
    }
  }, 60_000);
});
