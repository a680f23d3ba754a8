/**
 * Every recording kept, to listen to and transcribe again, in the built app: a finished dictation's audio
 * stays in the journal linked to its record; the History window's player loads it over the app's own
 * protocol (by record key: no file path reaches the page); "Re-transcribe with …" a second random-weight
 * whisper model installed beside the first, then "Replace the texts", changes the record on disk; deleting
 * the record deletes its audio; and lowering audio.retention_days to 0 in Settings sweeps the rest at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitUntil, type RunningApp } from './harness/launch-app.ts';
import { historyRecords, useScenarioSuite, windowVisible } from './harness/scenario-suite.ts';
import { ensureRandomWhisperModel } from '../helpers/whisper-model.ts';

/** The journal's state files that name history records (meta.records), by record key → WAV path. */
function keptAudio(dataDir: string): Map<string, string> {
  const dir = path.join(dataDir, 'journal');
  const out = new Map<string, string>();
  if (!fs.existsSync(dir)) return out;
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const e = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { id: string; meta?: { records?: string[] } };
    const wav = path.join(dir, `${e.id}.wav`);
    for (const k of e.meta?.records ?? []) if (fs.existsSync(wav)) out.set(k, wav);
  }
  return out;
}

describe('the built app: recordings kept, played, transcribed again, deleted', () => {
  const suite = useScenarioSuite();

  /** One dictation with the preview off: hold Right Alt ~3 s, the text goes straight into the field. */
  async function dictate(app: RunningApp, count: number): Promise<Record<string, unknown>> {
    const s = suite.scenario();
    const field = await s.targetField();
    await field.fill('#t', '');
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => windowVisible(app, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 3000));
    await s.xdotool('keyup', 'Alt_R');
    const records = await historyRecords(app.dataDir, count, 30_000);
    return records[count - 1] as Record<string, unknown>;
  }

  async function startWithTwoModels(): Promise<RunningApp> {
    const s = suite.scenario();
    const dataDir = s.dataDir({ output: { preview: false } });
    // The second speech model: random weights too, generated to say something else than the first.
    fs.copyFileSync(ensureRandomWhisperModel({ script: [' this', ' is', ' a', ' test'] }), path.join(dataDir, 'models', 'ggml-random.bin'));
    return suite.startApp({ dataDir });
  }

  async function openDetail(app: RunningApp, text: string): Promise<Page> {
    await app.clickTray('History…');
    const history = await app.page('history');
    await history.getByText(text).first().click();
    await history.locator('[data-testid=detail-recording]').waitFor({ timeout: 10_000 });
    return history;
  }

  it('the player loads the recording; re-transcribed with the second model and replaced, the record changes; deleted, its audio goes', async () => {
    const app = await startWithTwoModels();
    const before = await dictate(app, 1);
    const key = String(before.id);
    expect(before.stt_model).toBe('whisper-tiny');
    await waitUntil(() => keptAudio(app.dataDir).has(key), 10_000, 'the audio linked to the record');

    const history = await openDetail(app, String(before.final_text));
    const player = history.locator('[data-testid=recording-player]');
    // The page names the record, never a path: the src is on the page's own origin.
    expect(await player.getAttribute('src')).toBe(`/recordings/${key}.wav`);
    const loaded = await player.evaluate(
      (el: HTMLAudioElement) =>
        new Promise<{ duration: number; error: number | null }>((resolve) => {
          const done = () => resolve({ duration: el.duration, error: el.error?.code ?? null });
          if (el.readyState >= 1) done();
          el.addEventListener('loadedmetadata', done, { once: true });
          el.addEventListener('error', done, { once: true });
        }),
    );
    expect(loaded.error).toBeNull();
    expect(loaded.duration).toBeCloseTo(Number(before.audio_duration), 0);

    await history.locator('#detail-retranscribe-model').selectOption('local:random');
    await history.locator('[data-testid=recording-retranscribe]').click();
    const result = history.locator('[data-testid=recording-result]');
    await result.waitFor({ timeout: 30_000 });
    const newText = (await result.locator('.text-block').textContent())?.trim() ?? '';
    expect(newText).not.toBe('');
    expect(newText).not.toBe(before.asr_text);
    // Nothing changed on disk before the user chose.
    expect((await historyRecords(app.dataDir, 1, 1000))[0]).toMatchObject({ asr_text: before.asr_text, stt_model: 'whisper-tiny' });
    await history.locator('[data-testid=recording-replace]').click();
    await waitUntil(async () => (await historyRecords(app.dataDir, 1, 1000))[0]?.stt_model === 'whisper-random', 10_000, 'the record replaced');
    const after = (await historyRecords(app.dataDir, 1, 1000))[0];
    expect(after).toMatchObject({ id: key, asr_text: newText, final_text: newText, enhanced_text: null, stt_model: 'whisper-random' });
    expect(after?.edited_at).toEqual(expect.any(String));
    await expect.poll(() => history.locator('[data-testid=detail-asr]').textContent(), { timeout: 10_000 }).toBe(newText);

    const wav = keptAudio(app.dataDir).get(key);
    expect(wav !== undefined && fs.existsSync(wav)).toBe(true);
    await history.getByRole('button', { name: /^Delete$/ }).click();
    await history.locator('.confirm button.danger').click();
    await waitUntil(() => !fs.existsSync(wav!), 10_000, 'the audio deleted with its record');
    expect(keptAudio(app.dataDir).size).toBe(0);
    // The route answers nothing for it now.
    expect(await history.evaluate(async (src) => (await fetch(src)).status, `/recordings/${key}.wav`)).toBe(404);
  }, 120_000);

  it('lowering audio.retention_days to 0 in Settings sweeps the kept recordings at once, and Settings says what is kept', async () => {
    const app = await startWithTwoModels();
    const rec = await dictate(app, 1);
    const wav = await waitUntil(() => keptAudio(app.dataDir).get(String(rec.id)), 10_000, 'the kept audio');
    await app.clickTray('Settings…');
    const settings = await app.page('settings');
    await settings.getByRole('tab', { name: /History|Privacy/ }).click();
    await settings.getByText(/Kept now: 1 \(/).waitFor({ timeout: 10_000 });
    const field = settings.locator('#audio-retention-days');
    await field.fill('0');
    await field.press('Tab');
    await waitUntil(() => !fs.existsSync(wav), 10_000, 'the swept audio');
    expect(JSON.parse(fs.readFileSync(path.join(app.dataDir, 'config.json'), 'utf8')).audio.retention_days).toBe(0);
    expect(await app.waitForLog('audio retention sweep removed old recordings')).toMatchObject({ removed: 1 });
    await settings.getByText(/Kept now: 0 \(.*The last clean-up removed 1\./).waitFor({ timeout: 10_000 });
    // The record itself stays (history retention is its own setting); it now says it has no recording.
    expect(await historyRecords(app.dataDir, 1, 1000)).toHaveLength(1);
    const history = await openDetail(app, String(rec.final_text));
    await expect.poll(() => history.locator('[data-testid=recording-none]').count(), { timeout: 10_000 }).toBe(1);
  }, 120_000);
});
