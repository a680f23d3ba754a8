/**
 * "Re-transcribe with …": a kept recording through another speech engine — an installed local model or
 * the remote API — with the same language, prompt and Chinese script a dictation would get. The engine is
 * a one-off (AsrService.oneOffEngine), so the warm dictation model stays loaded and unchanged.
 */
import type { AsrService } from '../../asr/asr-service.ts';
import { resolveChineseScript, toChineseScript } from '../../asr/chinese-script.ts';
import { ModelManager } from '../../asr/model-manager.ts';
import type { Config } from '../../../shared/config/config-schema.ts';
import type { RetranscribeResult, SpeechChoice } from '../../../shared/ipc/recordings-contract.ts';
import { sttModelName } from '../service-graph.ts';

/** What a re-transcription needs of the ASR service. */
export type RetranscribeAsr = Pick<AsrService, 'callOptions' | 'oneOffEngine'>;

/** `config` with its speech engine set to `choice`. */
export function configFor(config: Config, choice: SpeechChoice): Config {
  const asr = config.asr;
  return choice.engine === 'local'
    ? { ...config, asr: { ...asr, engine: 'local', local: { ...asr.local, model: choice.model } } }
    : { ...config, asr: { ...asr, engine: 'remote', remote: { ...asr.remote, model: choice.model } } };
}

/** The engines a recording can be transcribed again with: every installed local model, then the remote API when one is set up. */
export function speechChoices(dataDir: string, config: Config): SpeechChoice[] {
  const local = new ModelManager({ dataDir, mirror: config.asr.local.models_mirror })
    .list()
    .filter((m) => m.installed)
    .map((m): SpeechChoice => ({ engine: 'local', model: m.name }));
  const remote = config.asr.remote;
  return remote.base_url.trim() !== '' && remote.model.trim() !== '' ? [...local, { engine: 'remote', model: remote.model }] : local;
}

/** Transcribes `pcm` (16 kHz mono) with `choice`; the engine is freed afterwards. */
export async function transcribeWith(asr: RetranscribeAsr, config: Config, choice: SpeechChoice, pcm: Float32Array): Promise<RetranscribeResult> {
  const cfg = configFor(config, choice);
  const options = asr.callOptions(cfg, []);
  const engine = asr.oneOffEngine(cfg);
  try {
    const r = await engine.transcribe(pcm, options);
    // One script, as a dictation's transcript (session-io.ts): whisper often answers Mandarin in Traditional.
    const text = await toChineseScript(r.text.trim(), resolveChineseScript(cfg.asr.chinese_script, cfg.asr.language));
    const given = options.language ?? 'auto';
    return { text, sttModel: sttModelName(cfg), language: r.language ?? (given === 'auto' ? '' : given) };
  } finally {
    await engine.dispose().catch(() => undefined);
  }
}
