/**
 * A dictation in the built app with the sherpa-onnx engine: the config selects SenseVoice-Small, the
 * random-weight SenseVoice model (test/helpers/sense-voice-model.ts, real sherpa-onnx load → fbank →
 * encoder → CTC path) sits where the model manager installs it (models/<name>/model.int8.onnx +
 * tokens.txt), and hold-to-talk goes through the isolated engine host to the panel and the field. The
 * model never recognises anything, so the words are not asserted, only that recognised text arrives,
 * carries no error, and the record names the SenseVoice model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureRandomSenseVoiceModel } from '../helpers/sense-voice-model.ts';
import { launchApp, waitUntil } from './harness/launch-app.ts';
import type { Scenario } from './harness/scenario.ts';
import { useScenarioSuite, windowVisible as visible } from './harness/scenario-suite.ts';

const MODEL = 'sense-voice-small-int8';

function records(dataDir: string): Record<string, unknown>[] {
  const file = path.join(dataDir, 'conversation_history.jsonl');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

describe('the built app dictating with sherpa-onnx SenseVoice', () => {
  const suite = useScenarioSuite();
  let s: Scenario;
  beforeAll(() => {
    s = suite.scenario();
  });

  it('hold Right Alt, speak, release: SenseVoice text reaches the panel and the field; the record names the model', async () => {
    // No LLM pass: what reaches the panel is the engine's own text.
    const dataDir = s.dataDir({ asr: { language: 'auto', local: { model: MODEL } }, ai_enhance: { enabled: false } }, { noModel: true });
    const files = ensureRandomSenseVoiceModel();
    const dest = path.join(dataDir, 'models', MODEL);
    fs.mkdirSync(dest, { recursive: true });
    fs.copyFileSync(files.model, path.join(dest, 'model.int8.onnx'));
    fs.copyFileSync(files.tokens, path.join(dest, 'tokens.txt'));

    const a = suite.track(launchApp({ dataDir, env: s.x.env, fakeAudio: s.speech }));
    await a.waitForLog('ready');
    await a.waitForLog('microphone ready');
    const field = await s.targetField();
    await field.fill('#t', '');
    await s.xdotool('keydown', 'Alt_R');
    await waitUntil(() => visible(a, 'indicator'), 5000, 'the recording indicator');
    await new Promise((r) => setTimeout(r, 2500));
    await s.xdotool('keyup', 'Alt_R');

    const panel = await a.page('panel');
    await waitUntil(() => visible(a, 'panel'), 20_000, 'the panel');
    await expect.poll(() => panel.locator('textarea').first().inputValue(), { timeout: 20_000 }).not.toBe('');
    const text = await panel.locator('textarea').first().inputValue();
    expect(await panel.getByRole('alert').count()).toBe(0);
    await panel.keyboard.press('Enter');
    await expect.poll(() => field.inputValue('#t'), { timeout: 10_000 }).toBe(text);

    await waitUntil(() => records(dataDir).length === 1, 5000, 'the record');
    const rec = records(dataDir)[0];
    expect(rec).toMatchObject({ stt_model: MODEL, final_text: text, source: 'voice', outcome: 'confirmed' });
    expect(String(rec?.asr_text ?? '').trim()).not.toBe('');
    expect(rec?.enhance_error ?? null).toBeNull();
    // It ran in the engine host, not in the main process: the app has a child process for it.
    expect((await a.state()).children.length).toBeGreaterThan(0);
  }, 90_000);
});
