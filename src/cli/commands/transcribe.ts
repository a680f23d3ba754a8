import fs from 'node:fs';
import { downmix } from '../../main/audio/pcm.ts';
import { prepareForAsr } from '../../main/audio/prepare.ts';
import { decodeWav } from '../../main/audio/wav.ts';
import { resolveChineseScript, toChineseScript } from '../../main/asr/chinese-script.ts';
import { createAsrEngine } from '../../main/asr/engine-factory.ts';
import { engineLanguage, recognitionEngine } from '../../main/asr/recognition-language.ts';
import { AsrError } from '../../main/asr/types.ts';
import { ConfigStore } from '../../main/settings/config-store.ts';
import { EXIT_ERROR, EXIT_OK, UsageError, type CliCommand, type CliGroup } from '../types.ts';

/*
 * `tingxie transcribe FILE.wav`: the app's audio path (resample, cap, silence check, optional VAD) and the
 * configured engine, from the command line. The remote key comes from TINGXIE_ASR_API_KEY (or
 * TINGXIE_API_KEY): the CLI has no OS keyring.
 */

const transcribe: CliCommand = {
  name: 'file',
  args: 'FILE.wav',
  summary: 'transcribe a WAV file with the configured engine',
  options: {
    engine: { type: 'string', description: 'local|remote  override asr.engine' },
    model: { type: 'string', description: 'a model name (base, small.en…) or a ggml file path; remote: the API model' },
    language: { type: 'string', description: "follow-ui, zh-en (Chinese + English), auto or a language code (default: asr.language)" },
    prompt: { type: 'string', description: 'initial prompt (e.g. hotwords: "Tingxie, WenZi")' },
    vad: { type: 'boolean', description: 'trim leading/trailing silence with Silero VAD' },
  },
  details: 'Prints the text; with --json, the whole result (segments, language, timings). The remote API key comes from TINGXIE_ASR_API_KEY or TINGXIE_API_KEY.',
  async run(ctx, argv, options) {
    if (argv.length !== 1) throw new UsageError(argv.length === 0 ? 'missing FILE.wav' : `unexpected argument '${argv[1]}'`);
    const engineOpt = options.engine;
    if (engineOpt !== undefined && engineOpt !== 'local' && engineOpt !== 'remote') throw new UsageError('--engine must be local or remote');
    const file = argv[0] as string;
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (err) {
      ctx.stderr.write(`error: cannot read ${file}: ${(err as Error).message}\n`);
      return EXIT_ERROR;
    }
    const wav = decodeWav(bytes);
    const store = await ConfigStore.open({ dataDir: ctx.dataDir, readOnly: true });
    const config = store.get();
    const prepared = prepareForAsr(downmix(wav.samples, wav.channels), wav.sampleRate, {
      silenceRms: config.audio.silence_rms,
      maxSeconds: config.audio.max_recording_seconds,
      vad: options.vad === true || config.audio.vad_enabled,
    });
    if (prepared.kind === 'silent') {
      ctx.stderr.write(`no speech in ${file} (${prepared.reason}, RMS ${prepared.rms.toFixed(1)}); nothing transcribed\n`);
      return EXIT_ERROR;
    }
    if (prepared.droppedSeconds > 0) ctx.stderr.write(`note: only the first ${config.audio.max_recording_seconds} s are transcribed (${prepared.droppedSeconds.toFixed(1)} s cut)\n`);
    const engine = createAsrEngine({
      dataDir: ctx.dataDir,
      config,
      ...(engineOpt !== undefined ? { engine: engineOpt } : {}),
      ...(typeof options.model === 'string' ? { model: options.model } : {}),
      ...(ctx.env.TINGXIE_ASR_API_KEY ?? ctx.env.TINGXIE_API_KEY ? { remoteApiKey: ctx.env.TINGXIE_ASR_API_KEY ?? ctx.env.TINGXIE_API_KEY } : {}),
    });
    // The language as a dictation gives it to this engine (recognition-language.ts); follow-ui follows
    // ui.language, and 'system' the terminal's locale.
    const language = typeof options.language === 'string' ? options.language : config.asr.language;
    const kind = engineOpt ?? config.asr.engine;
    const model = typeof options.model === 'string' ? options.model : kind === 'local' ? config.asr.local.model : config.asr.remote.model;
    const locale = ctx.env.LC_ALL ?? ctx.env.LC_MESSAGES ?? ctx.env.LANG ?? '';
    const ui = config.ui.language !== 'system' ? config.ui.language : locale.toLowerCase().startsWith('zh') ? 'zh' : 'en';
    const given = engineLanguage(language, ui, recognitionEngine(kind, model), model);
    const prompt = [given.promptPrefix, typeof options.prompt === 'string' ? options.prompt : ''].filter((p) => p !== '').join(' ');
    try {
      const result = await engine.transcribe(prepared.samples, {
        language: given.language,
        temperature: config.asr.temperature,
        ...(prompt !== '' ? { prompt } : {}),
      });
      // The app's Chinese script setting (asr.chinese_script), as a dictation would show it.
      const text = await toChineseScript(result.text, resolveChineseScript(config.asr.chinese_script, language));
      if (ctx.json) ctx.stdout.write(`${JSON.stringify({ ...result, text }, null, 2)}\n`);
      else ctx.stdout.write(`${text}\n`);
      return EXIT_OK;
    } catch (err) {
      if (err instanceof AsrError) {
        ctx.stderr.write(`error (${err.code}): ${err.message}\n`);
        return EXIT_ERROR;
      }
      throw err;
    } finally {
      await engine.dispose();
    }
  },
};

/** `tingxie transcribe FILE.wav [--engine local|remote] [--model PATH]` */
export const transcribeGroup: CliGroup = {
  name: 'transcribe',
  summary: 'speech to text from a WAV file',
  defaultCommand: 'file',
  commands: [transcribe],
};
