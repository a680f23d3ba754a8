import { describe, expect, it } from 'vitest';
import { audioJournalOf } from '../../src/main/audio/journal.ts';
import { useBrowserHarness, type HarnessWindow } from '../helpers/browser-harness.ts';
import { saveScreenshot } from '../helpers/browser-screenshots.ts';

/**
 * The History detail pane's recording in real Chromium over the real services: the player loads the
 * record's WAV from the page's own origin by key (the app's route code answers), the size is shown,
 * "Re-transcribe with" the remote engine (the dictation graph's, against the local test server) and
 * "Keep both" logs a new record sharing the audio, "Save as WAV…" goes through main's dialog, a record
 * without audio says so; zh and en screenshots at the window's default size (1000×700).
 */
const harness = useBrowserHarness();

/** A finished dictation as the controller leaves it: record logged, 1.5 s of audio journaled and linked. */
async function seedDictation(w: HarnessWindow, text: string): Promise<string> {
  const journal = audioJournalOf(w.dataDir);
  journal.write('session-1', new Float32Array(24000).map((_, i) => 0.2 * Math.sin(i / 6)), 16000, { mode: 'proofread' });
  const r = await w.history.log({ asr_text: text, enhanced_text: `${text}。`, final_text: `${text}。`, enhance_mode: 'proofread', preview_enabled: true, stt_model: 'whisper-small', llm_model: 'test-model', user_corrected: false, audio_duration: 1.5, language: 'zh', source: 'voice', outcome: 'confirmed' });
  journal.complete('session-1', 7, r.record.id);
  await w.history.log({ asr_text: 'typed elsewhere', enhanced_text: null, final_text: 'typed elsewhere', enhance_mode: 'off', preview_enabled: false, stt_model: '', llm_model: '', user_corrected: false, audio_duration: 0, language: 'en', source: 'clipboard' });
  return r.record.id;
}

async function open(locale: string): Promise<{ w: HarnessWindow; key: string }> {
  const w = await harness.open('history', { locale, viewport: { width: 1000, height: 700 }, dictation: { transcription: () => ({ kind: 'text', text: '明天下午三点开会' }) } });
  const key = await seedDictation(w, '明天下午三点开会吧');
  await w.page.getByText('明天下午三点开会吧。').first().click();
  await w.page.getByTestId('recording-player').waitFor();
  return { w, key };
}

/** Waits for the player's metadata: its duration, or the media error code. */
function playerLoaded(w: HarnessWindow): Promise<{ duration: number; error: number | null }> {
  return w.page.getByTestId('recording-player').evaluate(
    (el: HTMLAudioElement) =>
      new Promise((resolve) => {
        const done = () => resolve({ duration: el.duration, error: el.error?.code ?? null });
        if (el.readyState >= 1) done();
        el.addEventListener('loadedmetadata', done, { once: true });
        el.addEventListener('error', done, { once: true });
      }),
  );
}

describe('History: the recording of a record', () => {
  it('en: plays from the page origin by key, shows its size, re-transcribes and keeps both, saves through main; a record without audio says so', async () => {
    const { w, key } = await open('en-US');
    const { page } = w;
    expect(await page.getByTestId('recording-player').getAttribute('src')).toBe(`/recordings/${key}.wav`);
    expect(await playerLoaded(w)).toEqual({ duration: 1.5, error: null });
    await expect.poll(() => page.getByTestId('detail-recording').textContent()).toContain('1.5 s · 47 KB');
    await expect.poll(() => page.locator('#detail-retranscribe-model option').allTextContents()).toEqual(['Whisper Base', 'whisper-test (remote)']);
    await page.getByTestId('detail-recording').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'history-recording-en');

    await page.locator('#detail-retranscribe-model').selectOption('remote:whisper-test');
    await page.getByTestId('recording-retranscribe').click();
    await expect.poll(() => page.getByTestId('recording-result').textContent(), { timeout: 10_000 }).toContain('明天下午三点开会');
    await page.getByTestId('recording-beside').click();
    await expect.poll(() => page.getByTestId('detail-status').textContent()).toBe('Kept as a new record beside this one.');
    await expect.poll(async () => (await w.history.query({})).rows.map((r) => r.asr_text).sort()).toEqual(['typed elsewhere', '明天下午三点开会', '明天下午三点开会吧']);
    const beside = (await w.history.query({ text: '明天下午三点开会' })).rows.find((r) => r.asr_text === '明天下午三点开会');
    expect(beside).toMatchObject({ stt_model: 'whisper-test', enhanced_text: null });
    expect(audioJournalOf(w.dataDir).recordingOf(beside!.key)?.id).toBe('session-1');

    w.dialogs.answerNext(`${w.dataDir}/saved.wav`);
    await page.getByRole('button', { name: 'Save as WAV…' }).click();
    await expect.poll(() => page.getByTestId('detail-status').textContent()).toBe(`Saved to ${w.dataDir}/saved.wav.`);
    expect(w.dialogs.calls.at(-1)).toMatchObject({ kind: 'save', defaultName: `tingxie-${key}.wav` });

    await page.getByText('typed elsewhere').first().click();
    await expect.poll(() => page.getByTestId('recording-none').count()).toBe(1);
    expect(await page.getByTestId('recording-player').count()).toBe(0);
    expect(w.problems).toEqual([]);
  });

  it('zh: the same pane in Chinese, the player loaded', async () => {
    const { w } = await open('zh-CN');
    expect((await playerLoaded(w)).error).toBeNull();
    await expect.poll(() => w.page.getByTestId('detail-recording').textContent()).toContain('1.5 秒');
    await w.page.getByRole('heading', { name: '录音' }).waitFor();
    await w.page.getByTestId('detail-recording').scrollIntoViewIfNeeded();
    await saveScreenshot(w.page, 'history-recording-zh');
    expect(w.problems).toEqual([]);
  });

  it('Settings › History & privacy: the days recordings are kept, and what they take', async () => {
    const w = await harness.open('settings', { viewport: { width: 860, height: 620 } });
    await seedDictation(w, '设置里看录音');
    await w.page.getByRole('tab', { name: 'History & privacy' }).click();
    const field = w.page.locator('#audio-retention-days');
    expect(await field.inputValue()).toBe('7');
    await w.page.getByText('Kept now: 1 (47 KB).').waitFor();
    await saveScreenshot(w.page, 'settings-audio-retention-en');
    await field.fill('30');
    await field.press('Enter');
    await expect.poll(() => (w.readConfigFile() as { audio?: { retention_days?: number } }).audio?.retention_days).toBe(30);
    expect(w.problems).toEqual([]);
  });
});
