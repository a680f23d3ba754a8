/**
 * Onboarding's "Test" for a cloud speech engine: one real request to the configured /audio/transcriptions
 * endpoint (asr.remote.* and the `asr:remote` key), with a second of quiet noise, through the same engine a
 * dictation uses. A 200 with a transcription proves the URL, the key and the model name; anything else comes
 * back as the engine's AsrError code (auth, network, bad-request, …) for the window to put into words.
 */
import { SAMPLE_RATE } from '../audio/pcm.ts';
import type { SpeechCheckResult } from '../../shared/ipc/onboarding-contract.ts';
import { redactCut } from '../../shared/redact.ts';
import { hostOf } from '../../shared/url-host.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { engineLanguage } from './recognition-language.ts';
import { RemoteAsrEngine } from './remote-engine.ts';
import { AsrError } from './types.ts';

/** The secret name of the remote speech key (Settings › Speech and onboarding write it). */
export const REMOTE_SPEECH_SECRET = 'asr:remote';

/** One second of very quiet noise: real audio, so the service does not refuse an empty or silent file. */
function testAudio(): Float32Array {
  const pcm = new Float32Array(SAMPLE_RATE);
  let seed = 1;
  for (let i = 0; i < pcm.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    pcm[i] = (seed / 2147483648 - 0.5) * 0.002;
  }
  return pcm;
}

/** Sends one transcription request with the remote settings; never throws for a service problem. */
export async function verifyRemoteSpeech(config: Config, apiKey: string | undefined, timeoutMs = 15_000): Promise<SpeechCheckResult> {
  const { base_url: baseURL, model } = config.asr.remote;
  const engine = new RemoteAsrEngine({ baseURL, apiKey, model, timeoutMs, maxRetries: 0 });
  const started = Date.now();
  const base = { host: hostOf(baseURL), model };
  try {
    // The language only has to be one the service accepts; 'follow-ui' is taken as for an English UI.
    await engine.transcribe(testAudio(), { language: engineLanguage(config.asr.language, 'en', 'remote').language });
    return { ...base, ok: true, code: null, message: 'the service transcribed the test audio', elapsedMs: Date.now() - started };
  } catch (err) {
    const code = err instanceof AsrError ? err.code : 'failed';
    // Cut before redacting, so the work is bounded by the cut, not by what the server sent.
    const message = redactCut(err instanceof Error ? err.message : String(err), 300, [apiKey]);
    return { ...base, ok: false, code, message, elapsedMs: Date.now() - started };
  }
}
