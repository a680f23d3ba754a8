import { describe, expect, it } from 'vitest';
import { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { isEngineBuilt } from '../../../../src/main/asr/whisper-addon.ts';
import { hasTool, readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';

/*
 * Opt-in: real whisper weights cannot be downloaded on the CI machines. Where a model exists, run with
 * TINGXIE_WHISPER_MODEL=/path/to/ggml-base.en.bin (or any ggml whisper model).
 */
const modelPath = process.env.TINGXIE_WHISPER_MODEL;

describe('local whisper with real weights (opt-in)', () => {
  it('espeak-ng "hello world" comes back as words', async (ctx) => {
    if (modelPath === undefined || modelPath === '') ctx.skip('set TINGXIE_WHISPER_MODEL to a real ggml whisper model to run this');
    if (!isEngineBuilt()) ctx.skip('the whisper addon is not built (node scripts/build-whisper.mjs)');
    if (!hasTool('espeak-ng') || !hasTool('sox')) ctx.skip('espeak-ng and sox are needed to synthesise the clip');
    const pcm = readPcm(speechWav('hello world this is a test')).samples;
    // Both encoder windows: the adaptive one the app uses for short clips, and whisper's full 30 s one.
    for (const adaptiveContext of [true, false]) {
      const engine = new LocalWhisperEngine({ modelPath: modelPath as string, adaptiveContext });
      try {
        const r = await engine.transcribe(pcm, { language: 'en' });
        const words = r.text.toLowerCase().replace(/[^a-z ]/g, '');
        expect(words, `adaptiveContext=${adaptiveContext}`).toContain('hello');
        expect(words, `adaptiveContext=${adaptiveContext}`).toContain('world');
        expect(r.language).toBe('en');
      } finally {
        await engine.dispose();
      }
    }
  }, 240_000);
});
