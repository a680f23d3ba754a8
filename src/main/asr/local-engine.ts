import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rmsInt16 } from '../audio/levels.ts';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { isHostEvent, type HostEvent, type HostRequest, type HostSegment, type SherpaLoadParams } from './engine-protocol.ts';
import { adaptiveAudioCtx } from './audio-context.ts';
import { guardHallucinations } from './hallucination.ts';
import { nodeHostLauncher, type EngineHostHandle, type HostLauncher } from './host-launcher.ts';
import { ModelFileError, validateModelFile, type ModelFileInfo } from './model-file.ts';
import { SHERPA_FAMILIES } from './sherpa-families.ts';
import { checkSherpaModel } from './sherpa-model-check.ts';
import { AsrError, joinSegments, type AsrEngine, type AsrResult, type AsrSegment, type TranscribeOptions } from './types.ts';
import { ENGINE_NOT_BUILT_MESSAGE, isEngineBuilt } from './whisper-addon.ts';

/*
 * Local whisper.cpp, kept warm in an isolated host process. The model is validated here (cheap, cached
 * by size+mtime) and again in the host, loaded once and reused, and the host is shut down after an idle
 * timeout to give the memory back. If the host dies mid-call the caller gets 'engine-crashed' with the
 * process's last stderr lines, and the next call starts a fresh host. Calls run one at a time.
 * With `sherpa` set the same host runs a sherpa-onnx model instead (engine-host-sherpa.ts): the model
 * check, the padding, the encoder window, the prompt and the hallucination guard are whisper's only.
 */

/** Options of the local engine (config asr.local.*). */
export interface LocalEngineOptions {
  readonly modelPath: string;
  /** Threads for whisper; 0 or undefined = from the CPU count. */
  readonly threads?: number;
  /** Shut the host down after this long without a call; 0 = never. */
  readonly idleUnloadMs?: number;
  readonly launcher?: HostLauncher;
  /** Watchdog per call: base + factor × audio seconds (ms). A hung native call is killed. */
  readonly timeoutBaseMs?: number;
  readonly timeoutPerSecondMs?: number;
  /** Shrink whisper's encoder window for short clips (audio-context.ts); default on. */
  readonly adaptiveContext?: boolean;
  /** Skips the parent-side "is the addon built" check (tests of the host's own reporting). */
  readonly skipBuildCheck?: boolean;
  /** A sherpa-onnx model (modelPath is its .onnx, tokens.txt beside it) instead of a whisper one. */
  readonly sherpa?: SherpaLoadParams;
}

/** Engine state for the UI and tests. */
export interface LocalEngineStatus {
  readonly state: 'stopped' | 'starting' | 'loaded' | 'busy';
  readonly pid: number | undefined;
  /** Model loads since construction (a warm engine loads once). */
  readonly loads: number;
  readonly spawns: number;
  readonly crashes: number;
  readonly idleUnloads: number;
}

interface Pending {
  readonly id: number;
  resolve(e: HostEvent): void;
  reject(err: AsrError): void;
  onSegment?: (s: HostSegment) => void;
}

/**
 * whisper.cpp decodes nothing at all for audio of 1 s or less (its window loop needs more than 100 mel
 * frames), so a short "yes" would vanish: pad short clips with silence, as a recording's tail would be.
 */
export const MIN_WHISPER_SAMPLES = Math.round(1.25 * SAMPLE_RATE);

/** `pcm` padded with trailing silence to at least `min` samples. */
export function padToMinimum(pcm: Float32Array, min = MIN_WHISPER_SAMPLES): Float32Array {
  if (pcm.length >= min) return pcm;
  const out = new Float32Array(min);
  out.set(pcm);
  return out;
}

function compact(pcm: Float32Array): Float32Array {
  return pcm.byteOffset === 0 && pcm.byteLength === pcm.buffer.byteLength ? pcm : pcm.slice();
}

/** Default thread count: all cores but one (the UI stays responsive), at least 1, at most 8. */
export function defaultThreads(): number {
  const n = os.availableParallelism?.() ?? os.cpus().length;
  return Math.max(1, Math.min(8, n - 1 || 1));
}

/** The threads of a call or a recognizer: the setting (asr.local.threads), or from the CPU count when 0 or unset. */
export function threadCount(setting: number | undefined): number {
  return setting !== undefined && setting > 0 ? setting : defaultThreads();
}

/** whisper.cpp in a separate process, model kept warm. */
export class LocalWhisperEngine implements AsrEngine {
  readonly kind = 'local';
  private readonly opts: LocalEngineOptions;
  private readonly launch: HostLauncher;
  private host: EngineHostHandle | undefined;
  private hostReady: Promise<void> | undefined;
  private loadedPath: string | undefined;
  private busy = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private validated: { key: string; info: ModelFileInfo | undefined } | undefined;
  private counters = { loads: 0, spawns: 0, crashes: 0, idleUnloads: 0 };

  constructor(opts: LocalEngineOptions) {
    this.opts = opts;
    this.launch = opts.launcher ?? nodeHostLauncher();
  }

  /** Current state and counters. */
  status(): LocalEngineStatus {
    const state = this.host === undefined ? 'stopped' : this.busy ? 'busy' : this.loadedPath !== undefined ? 'loaded' : 'starting';
    return { state, pid: this.host?.pid, ...this.counters };
  }

  /**
   * Validates the model file (cached by size and mtime); throws AsrError model-missing / model-invalid.
   * Returns whisper's header, undefined for a sherpa model.
   */
  checkModel(): ModelFileInfo | undefined {
    const file = this.opts.modelPath;
    let key: string;
    try {
      const st = fs.statSync(file);
      key = `${file}:${st.size}:${st.mtimeMs}`;
    } catch {
      // The catalog name: a sherpa model is its folder (models/<name>/model.int8.onnx), whisper's file is ggml-<name>.bin.
      const name = this.opts.sherpa !== undefined ? path.basename(path.dirname(file)) : path.basename(file).replace(/^ggml-/, '').replace(/\.bin$/, '');
      throw new AsrError('model-missing', `model file not found: ${file} (download it with: tingxie models download ${name}, or in Settings › Speech)`);
    }
    if (this.validated?.key === key) return this.validated.info;
    const sherpa = this.opts.sherpa;
    if (sherpa !== undefined) {
      checkSherpaModel(SHERPA_FAMILIES[sherpa.family].spec, file, path.join(path.dirname(file), 'tokens.txt'));
      this.validated = { key, info: undefined };
      return undefined;
    }
    try {
      const info = validateModelFile(file);
      this.validated = { key, info };
      return info;
    } catch (err) {
      if (err instanceof ModelFileError) throw new AsrError(err.reason === 'missing' ? 'model-missing' : 'model-invalid', err.message, { cause: err });
      throw err;
    }
  }

  /** Transcribes 16 kHz mono PCM. Calls are queued; one runs at a time. */
  transcribe(pcm: Float32Array, opts: TranscribeOptions = {}): Promise<AsrResult> {
    const run = this.queue.then(() => this.run(pcm, opts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Loads the model now (e.g. when the app starts or the hotkey goes down) so the first call is warm. */
  async warmUp(opts: { readonly language?: string } = {}): Promise<void> {
    const run = this.queue.then(() => this.ensureLoaded(opts.language));
    this.queue = run.catch(() => undefined);
    try {
      await run;
    } finally {
      // Also after a failed load: a host that started must still be shut down when idle.
      this.armIdleTimer();
    }
  }

  private async run(pcm: Float32Array, opts: TranscribeOptions): Promise<AsrResult> {
    if (opts.signal?.aborted) throw new AsrError('cancelled', 'transcription cancelled');
    if (pcm.length === 0) throw new AsrError('bad-request', 'no audio to transcribe');
    const t0 = performance.now();
    this.clearIdleTimer();
    try {
      const loadMs = await this.ensureLoaded(opts.language);
      this.busy = true;
      const audioSeconds = pcm.length / SAMPLE_RATE;
      const timeoutMs = (this.opts.timeoutBaseMs ?? 60_000) + (this.opts.timeoutPerSecondMs ?? 5_000) * audioSeconds;
      const threads = threadCount(this.opts.threads);
      const whisper = this.opts.sherpa === undefined;
      // sherpa-onnx pads short clips itself (MIN_SHERPA_SAMPLES) and has no encoder window to shrink.
      const padded = whisper ? padToMinimum(pcm) : pcm;
      const audioCtx = whisper ? adaptiveAudioCtx(padded.length / SAMPLE_RATE, this.opts.adaptiveContext ?? true) : 0;
      const reply = await this.request(
        {
          type: 'transcribe',
          id: 0,
          // A view into a bigger buffer would be cloned with the whole buffer: send a compact copy.
          pcm: compact(padded),
          params: {
            language: opts.language ?? 'auto',
            temperature: opts.temperature ?? 0,
            threads,
            ...(audioCtx > 0 ? { audioCtx } : {}),
            ...(opts.prompt && whisper ? { initialPrompt: opts.prompt } : {}),
          },
        },
        { timeoutMs, signal: opts.signal, onSegment: opts.onSegment === undefined ? undefined : (s) => opts.onSegment?.(toAsrSegment(s)) },
      );
      if (reply.type !== 'result') throw new AsrError('engine-failed', `unexpected reply '${reply.type}' from the engine`);
      const all = reply.segments.map(toAsrSegment);
      // The guard knows whisper's hallucinations (phrases it invents on silence); sherpa's CTC output has none of those.
      const guarded = whisper ? guardHallucinations({ segments: all, rmsInt16: rmsInt16(pcm) }) : { kept: all, dropped: [] };
      const language = reply.segments.find((s) => s.language !== undefined)?.language ?? (opts.language !== 'auto' ? opts.language : undefined);
      return {
        text: joinSegments(guarded.kept),
        segments: guarded.kept,
        language,
        timings: { loadMs, transcribeMs: reply.transcribeMs, totalMs: performance.now() - t0 },
        engine: 'local',
        ...(guarded.dropped.length > 0 ? { droppedSegments: guarded.dropped } : {}),
      };
    } finally {
      this.busy = false;
      this.armIdleTimer();
    }
  }

  /**
   * Starts the host if needed and loads the model; returns the load time (0 when already warm). `language`:
   * what the calls will ask for, so a sherpa model builds its first recognizer for it (not auto, then again).
   */
  private async ensureLoaded(language?: string): Promise<number> {
    if (this.opts.sherpa === undefined && this.opts.skipBuildCheck !== true && !isEngineBuilt()) throw new AsrError('engine-not-built', ENGINE_NOT_BUILT_MESSAGE);
    this.checkModel();
    if (this.host !== undefined && this.loadedPath === this.opts.modelPath) return 0;
    const t0 = performance.now();
    await this.ensureHost();
    const sherpa = this.opts.sherpa === undefined ? undefined : { ...this.opts.sherpa, ...(language !== undefined ? { language } : {}), threads: threadCount(this.opts.threads) };
    const reply = await this.request({ type: 'load', id: 0, modelPath: this.opts.modelPath, ...(sherpa ? { sherpa } : {}) }, { timeoutMs: 120_000 });
    if (reply.type !== 'loaded') throw new AsrError('engine-failed', `unexpected reply '${reply.type}' to load`);
    if (!reply.alreadyLoaded) this.counters.loads++;
    this.loadedPath = this.opts.modelPath;
    return performance.now() - t0;
  }

  private ensureHost(): Promise<void> {
    if (this.host !== undefined && this.hostReady !== undefined) return this.hostReady;
    const host = this.launch();
    this.host = host;
    this.counters.spawns++;
    this.hostReady = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new AsrError('engine-failed', 'the speech engine process did not start within 30 s')), 30_000);
      host.onMessage((msg) => {
        if (!isHostEvent(msg)) return;
        if (msg.type === 'ready') {
          clearTimeout(timer);
          resolve();
          return;
        }
        this.dispatch(msg);
      });
      host.onExit((code, signal) => {
        clearTimeout(timer);
        this.onHostExit(host, code, signal);
        reject(new AsrError('engine-crashed', `the speech engine process exited before it was ready (${signal ?? `code ${code}`})`));
      });
    });
    // Nobody may be awaiting it when the host dies later: keep that rejection from being "unhandled".
    this.hostReady.catch(() => undefined);
    return this.hostReady;
  }

  private dispatch(msg: Exclude<HostEvent, { type: 'ready' }>): void {
    const p = this.pending.get(msg.id);
    if (p === undefined) return; // a cancelled or timed-out call: its result is discarded
    if (msg.type === 'segment') {
      p.onSegment?.(msg.segment);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.type === 'error') p.reject(new AsrError(msg.code, msg.message));
    else p.resolve(msg);
  }

  private onHostExit(host: EngineHostHandle, code: number | null, signal: string | null): void {
    if (this.host !== host) return;
    const expected = this.pending.size === 0;
    this.host = undefined;
    this.hostReady = undefined;
    this.loadedPath = undefined;
    if (expected) return;
    this.counters.crashes++;
    const tail = host.stderrTail().trim().split('\n').slice(-3).join(' | ');
    const how = signal !== null ? `killed by ${signal}` : `exit code ${code}`;
    const err = new AsrError('engine-crashed', `the speech engine process stopped (${how}); it restarts on the next dictation${tail ? ` — last output: ${tail}` : ''}`);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private request(
    msg: HostRequest,
    o: { timeoutMs: number; signal?: AbortSignal | undefined; onSegment?: ((s: HostSegment) => void) | undefined },
  ): Promise<Exclude<HostEvent, { type: 'ready' | 'segment' | 'error' }>> {
    const host = this.host;
    if (host === undefined) return Promise.reject(new AsrError('engine-crashed', 'the speech engine process is not running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        // whisper.cpp cannot be interrupted: forget the call; the host finishes it and its reply is dropped.
        this.pending.delete(id);
        cleanup();
        reject(new AsrError('cancelled', 'transcription cancelled'));
      };
      const timer = setTimeout(() => {
        this.pending.delete(id);
        cleanup();
        reject(new AsrError('timeout', `the speech engine did not answer within ${Math.round(o.timeoutMs / 1000)} s; it was restarted`));
        host.kill(); // a hung native call never returns: only a new process recovers
      }, o.timeoutMs);
      o.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        id,
        resolve: (e) => {
          cleanup();
          resolve(e as Exclude<HostEvent, { type: 'ready' | 'segment' | 'error' }>);
        },
        reject: (err) => {
          cleanup();
          reject(err);
        },
        ...(o.onSegment ? { onSegment: o.onSegment } : {}),
      });
      host.send({ ...msg, id });
    });
  }

  private clearIdleTimer(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private armIdleTimer(): void {
    this.clearIdleTimer();
    const ms = this.opts.idleUnloadMs ?? 5 * 60_000;
    if (ms <= 0 || this.host === undefined) return;
    this.idleTimer = setTimeout(() => {
      this.queue = this.queue.then(async () => {
        if (this.host === undefined || this.pending.size > 0) return;
        this.counters.idleUnloads++;
        await this.stopHost();
      });
    }, ms);
    this.idleTimer.unref(); // an idle engine must not keep a CLI process alive
  }

  /** Frees the model by stopping the host process (graceful, then SIGKILL after 3 s). */
  private async stopHost(): Promise<void> {
    const host = this.host;
    if (host === undefined) return;
    const gone = new Promise<void>((resolve) => host.onExit(() => resolve()));
    host.send({ type: 'shutdown', id: this.nextId++ });
    const timer = setTimeout(() => host.kill(), 3000);
    await gone;
    clearTimeout(timer);
  }

  /** Stops the host; the next call starts it again. */
  async dispose(): Promise<void> {
    this.clearIdleTimer();
    const run = this.queue.then(() => this.stopHost());
    this.queue = run.catch(() => undefined);
    await run;
  }
}

function toAsrSegment(s: HostSegment): AsrSegment {
  return { startMs: s.startMs, endMs: s.endMs, text: s.text, ...(s.confidence !== undefined ? { confidence: s.confidence } : {}) };
}
