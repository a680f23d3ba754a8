import type { AudioJournal } from '../audio/journal.ts';
import type { Config } from '../settings/config-schema.ts';
import { createAsrEngine } from './engine-factory.ts';
import type { HostLauncher } from './host-launcher.ts';
import { initialPromptFor } from './initial-prompt.ts';
import { transcribeJournaled } from './journaled.ts';
import { keyMismatchText } from '../settings/key-origin.ts';
import { AsrError, type AsrEngine, type AsrResult, type AsrSegment } from './types.ts';

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
}

/** The settings that require a new engine when they change. */
function engineKey(config: Config, apiKey: string | undefined): string {
  const a = config.asr;
  return JSON.stringify(a.engine === 'local' ? ['local', a.local.model, a.local.threads, a.local.idle_unload_minutes, a.local.adaptive_context] : ['remote', a.remote.base_url, a.remote.model, apiKey ?? '']);
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

  /** Loads the engine `config` names now (a no-op for an engine with nothing to load); rejects when it cannot. */
  async warmUp(config: Config): Promise<void> {
    await this.engineFor(config).warmUp?.();
  }

  /** Journals the audio, then transcribes it with the configured engine, language, temperature and hotword prompt. */
  transcribe(config: Config, input: DictationAsrInput): Promise<AsrResult> {
    const prompt = initialPromptFor(input.hotwords ?? [], config.ai_enhance.vocabulary);
    const engine = this.engineFor(config);
    return transcribeJournaled(this.opts.journal, input.sessionId, input.pcm, engine, {
      language: config.asr.language,
      temperature: config.asr.temperature,
      ...(prompt !== '' ? { prompt } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.onSegment ? { onSegment: input.onSegment } : {}),
    });
  }

  /** Frees the engine (app quit). */
  async dispose(): Promise<void> {
    const e = this.current?.engine;
    this.current = undefined;
    await e?.dispose();
  }
}
