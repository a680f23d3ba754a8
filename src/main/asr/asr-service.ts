import type { AudioJournal } from '../audio/journal.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { createAsrEngine } from './engine-factory.ts';
import type { HostLauncher } from './host-launcher.ts';
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import { engineLanguage, promptWithPrefix, recognitionEngine } from './recognition-language.ts';
import { transcribeJournaled } from './journaled.ts';
import { keyMismatchText } from '../../shared/secret-names.ts';
import type { ChunkerOptions } from '../audio/speech-chunker.ts';
import { prewarmSpeechDetector } from '../audio/vad.ts';
import { chunkedEngine, LiveTranscription } from './live-transcriber.ts';
import { AsrError, type AsrEngine, type AsrResult, type AsrSegment, type TranscribeOptions } from './types.ts';

/*
 * What the dictation controller talks to: one engine for the current settings (kept, so the local model
 * stays warm across dictations; replaced and disposed when an ASR setting changes), the whisper prompt from
 * the vocabulary hotwords, and journaling of the audio before the call.
 */

/** Inputs of one transcription. */
export interface DictationAsrInput {
  /** 16 kHz mono PCM, already prepared (audio/prepare.ts). */
  readonly pcm: Float32Array;
  /** Journal id of the session (its audio is written before the ASR call). */
  readonly sessionId: string;
  /** Vocabulary hotwords, most important first (from the vocabulary store). */
  readonly hotwords?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onSegment?: (s: AsrSegment) => void;
}

/** Options of the service. */
export interface AsrServiceOptions {
  readonly dataDir: string;
  readonly journal: AudioJournal;
  /** The remote API key, read when a remote engine is created (secret store). */
  readonly remoteApiKey: () => string | undefined;
  /** Set when the stored key was entered for another server than asr.remote.base_url names now (SecretStore.mismatch). */
  readonly remoteKeyMismatch?: () => { readonly savedFor: string; readonly now: string } | undefined;
  /** Electron passes a utilityProcess launcher. */
  readonly launcher?: HostLauncher;
  /**
   * The app's UI language, resolved (ui.language 'system' already decided): asr.language 'follow-ui'
   * follows it (recognition-language.ts). Read per call. Absent: English.
   */
  readonly uiLanguage?: () => UiLanguage;
}

/** What one transcription call is given besides the audio (the per-call signal and segment callback excepted). */
export type AsrCallOptions = Omit<TranscribeOptions, 'signal' | 'onSegment'>;

/** The settings that require a new engine when they change. */
function engineKey(config: Config, apiKey: string | undefined): string {
  const a = config.asr;
  return JSON.stringify(a.engine === 'local' ? ['local', a.local.model, a.local.threads, a.local.idle_unload_minutes, a.local.adaptive_context] : ['remote', a.remote.base_url, a.remote.model, apiKey ?? '']);
}

/** How `config` cuts a recording into chunks decoded while speaking. */
export function chunkerOptions(config: Config): ChunkerOptions {
  return { trimEdges: config.audio.vad_enabled };
}

/** An engine that fails every call with `err` (nothing to load or free). */
function refusingEngine(err: AsrError): AsrEngine {
  return { kind: 'remote', transcribe: () => Promise.reject(err), dispose: () => Promise.resolve() };
}

/** Engine lifecycle + prompt + journaling for dictations. */
export class AsrService {
  private readonly opts: AsrServiceOptions;
  private current: { key: string; engine: AsrEngine } | undefined;

  constructor(opts: AsrServiceOptions) {
    this.opts = opts;
  }

  /** The engine for `config`, created on first use and replaced when ASR settings change. */
  engineFor(config: Config): AsrEngine {
    const mismatch = config.asr.engine === 'remote' ? this.opts.remoteKeyMismatch?.() : undefined;
    // Refuse rather than call the new server without the key (or, worse, with it): the user enters it again.
    if (mismatch !== undefined) return refusingEngine(new AsrError('auth', keyMismatchText('the transcription service', mismatch)));
    const apiKey = config.asr.engine === 'remote' ? this.opts.remoteApiKey() : undefined;
    const key = engineKey(config, apiKey);
    if (this.current?.key === key) return this.current.engine;
    const old = this.current?.engine;
    const engine = createAsrEngine({
      dataDir: this.opts.dataDir,
      config,
      ...(apiKey !== undefined ? { remoteApiKey: apiKey } : {}),
      ...(this.opts.launcher ? { launcher: this.opts.launcher } : {}),
    });
    this.current = { key, engine };
    // The old engine finishes what it is doing in its own queue, then frees its model/process.
    void old?.dispose().catch(() => undefined);
    return engine;
  }

  /**
   * A separate engine for `config` (History's "Re-transcribe with …" another model): the kept one, and
   * so the warm dictation model, is left alone. The caller disposes it.
   */
  oneOffEngine(config: Config): AsrEngine {
    const apiKey = config.asr.engine === 'remote' ? this.opts.remoteApiKey() : undefined;
    return createAsrEngine({
      dataDir: this.opts.dataDir,
      config,
      ...(apiKey !== undefined ? { remoteApiKey: apiKey } : {}),
      ...(this.opts.launcher ? { launcher: this.opts.launcher } : {}),
    });
  }

  /** Loads the engine `config` names now (a no-op for an engine with nothing to load); rejects when it cannot. */
  async warmUp(config: Config): Promise<void> {
    // With the language dictations will use: SenseVoice builds its recognizer per language.
    const engine = this.engineFor(config).warmUp?.({ language: this.callOptions(config, []).language ?? 'auto' });
    // While the engine process loads its model: the VAD that cuts recordings while they are spoken, so
    // the first key-down does not load it (~150 ms on this thread). Without it dictations are decoded
    // at key-up, and the first one says why.
    if (this.decodesWhileSpeaking(config)) {
      try {
        prewarmSpeechDetector();
      } catch {
        // Reported by the first dictation (CurrentRecording.startLiveTranscription, src/main/dictation/current-recording.ts).
      }
    }
    await engine;
  }

  /**
   * The language, prompt and temperature of a call with `config`: the recognition language mapped for the
   * engine the config runs (recognition-language.ts) and the initial prompt (its language prefix, then the
   * vocabulary hotwords, most important first).
   */
  callOptions(config: Config, hotwords: readonly string[]): AsrCallOptions {
    const asr = config.asr;
    const model = asr.local.model;
    const engine = recognitionEngine(asr.engine, model);
    const { language, promptPrefix } = engineLanguage(asr.language, this.opts.uiLanguage?.() ?? 'en', engine, model);
    const prompt = promptWithPrefix(promptPrefix, hotwords, config.ai_enhance.vocabulary);
    return { language, temperature: asr.temperature, ...(prompt !== '' ? { prompt } : {}) };
  }

  /** Journals the audio, then transcribes it with the configured engine and {@link callOptions}. */
  transcribe(config: Config, input: DictationAsrInput): Promise<AsrResult> {
    const options = this.callOptions(config, input.hotwords ?? []);
    const whole = this.engineFor(config);
    // A local engine decodes a clip through the same cuts as a live recording of it: a retry gives the same text.
    const engine = this.decodesWhileSpeaking(config) ? chunkedEngine(whole, chunkerOptions(config)) : whole;
    return transcribeJournaled(this.opts.journal, input.sessionId, input.pcm, engine, {
      ...options,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.onSegment ? { onSegment: input.onSegment } : {}),
    });
  }

  /** Whether `config` decodes a recording while it is spoken (local engines; remote ones get the whole clip in one request). */
  decodesWhileSpeaking(config: Config): boolean {
    return config.asr.engine === 'local' && config.asr.local.decode_while_speaking;
  }

  /**
   * Starts decoding a recording as it is spoken (live-transcriber.ts); null when `config` decodes at
   * key-up only. Throws when the VAD cannot run (the caller then decodes at key-up).
   */
  startLive(config: Config, input: { readonly hotwords?: readonly string[]; readonly onText?: (text: string) => void }): LiveTranscription | null {
    if (!this.decodesWhileSpeaking(config)) return null;
    return new LiveTranscription({
      engine: this.engineFor(config),
      call: this.callOptions(config, input.hotwords ?? []),
      chunker: chunkerOptions(config),
      ...(input.onText ? { onText: input.onText } : {}),
    });
  }

  /** Frees the engine (app quit). */
  async dispose(): Promise<void> {
    const e = this.current?.engine;
    this.current = undefined;
    await e?.dispose();
  }
}
