/**
 * Transcribe while speaking in the built app: a dictation of three sentences with pauses (espeak-ng,
 * looped by Chromium's fake microphone) held on Right Alt with "Show text while speaking" on. While the
 * key is still down, the phrases already spoken are decoded in the engine host (whisper.cpp, random
 * weights) and the indicator shows their text; key-up leaves at most the last phrase to decode; the
 * text reaches the panel and the field, and the app's log says how many phrases were decoded live.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/main/audio/wav.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';
import { dictationClip, EN_SENTENCES } from '../helpers/dictation-clip.ts';
import { launchApp, waitUntil } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite, windowVisible as visible } from './harness/scenario-suite.ts';

describe('the built app decoding while the key is held', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  let wav: string;
  beforeAll(() => {
    s = suite.scenario();
    wav = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-live-wav-')), 'three-sentences.wav');
    fs.writeFileSync(wav, encodeWav(dictationClip(EN_SENTENCES.slice(0, 3), { pauseSeconds: 0.8, tailSeconds: 0.8 }), 16000));
  });
  afterAll(() => fs.rmSync(path.dirname(wav), { recursive: true, force: true }));

  it('phrases are decoded and shown in the indicator while the key is down; key-up waits for the last one only', async () => {
    const dataDir = s.dataDir({ asr: { language: 'en' }, feedback: { live_text: true }, ai_enhance: { enabled: false } });
    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: wav }));
    await a.waitForLog('ready');
    await a.waitForLog('microphone ready');
    const field = await s.targetField();
    await field.fill('#t', '');
    const indicator = await a.page('indicator');
    await s.xdotool('keydown', 'Alt_R');
    const down = Date.now();
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    // Still holding the key: the text of the phrases spoken so far appears in the indicator.
    await expect.poll(() => indicator.locator('.live').textContent(), { timeout: 20_000 }).toMatch(/\S/);
    // What the user sees at that moment, in the built app's own indicator window (test-results/screenshots).
    await saveScreenshot(indicator, 'app-indicator-live-text-en');
    expect(a.log().filter((l) => l.msg === 'decoded while speaking')).toEqual([]);
    await new Promise((r) => setTimeout(r, Math.max(0, 9000 - (Date.now() - down))));
    await s.xdotool('keyup', 'Alt_R');

    const panel = await a.page('panel');
    await waitUntil(() => visible(a, 'panel'), 20_000, 'the panel');
    await expect.poll(() => panel.locator('textarea').first().inputValue(), { timeout: 20_000 }).not.toBe('');
    const text = await panel.locator('textarea').first().inputValue();
    await panel.keyboard.press('Enter');
    await expect.poll(() => field.inputValue('#t'), { timeout: 10_000 }).toBe(text);

    const line = await a.waitForLog('decoded while speaking');
    // 9 s of a ~15 s loop of three ~4 s sentences: two or three phrases, all but at most the last decoded before key-up.
    expect(Number(line.chunks)).toBeGreaterThanOrEqual(2);
    expect(Number(line.pendingAtKeyUp)).toBeLessThanOrEqual(1);
    expect(Number(line.seconds)).toBeGreaterThanOrEqual(8);
  }, 120_000);
});
