/**
 * The dictation controller: feeds hotkey, capture, service and UI events into the pure session machine
 * and runs the effects it returns with the injected ports. Order that keeps dictations safe: frames are
 * appended to disk while recording; at key-up the audio is journaled (WAV, fsynced) and the session
 * state written before the ASR call; the transcript is written before the LLM call; the journal is
 * completed only after the history record is logged.
 */
import fs from 'node:fs';
import { newRecordId, type NewHistoryRecord } from '../../shared/history/record.ts';
import type { DictationEvent, DictationSnapshot, RecoverableSession } from '../../shared/ipc/dictation-types.ts';
import { AudioJournal } from '../audio/journal.ts';
import { SAMPLE_RATE } from '../audio/pcm.ts';
import { prepareForAsr } from '../audio/prepare.ts';
import { resample } from '../audio/resample.ts';
import type { Config } from '../settings/config-schema.ts';
import { systemClock, type ClockPort, type DictationPorts } from './ports.ts';
import { SessionBuffer, readRecordingFile, recordingFile } from './session-buffer.ts';
import { PreviewCache } from './preview-cache.ts';
import { SessionJournal } from './session-journal.ts';
import { IDLE, transition } from './session-machine.ts';
import type { Effect, EnhanceOutcome, LogIntent, MachineEvent, MachineState, NewSession, SessionOptions, Trigger } from './session-types.ts';

/** Session options from the config (snapshotted at each session's start). */
export function optionsFromConfig(config: Config): SessionOptions {
  return {
    preview: config.output.preview,
    enhance: config.ai_enhance.enabled,
    method: config.output.method,
    timeouts: {
      recording: config.audio.max_recording_seconds * 1000,
      transcribing: 180_000,
      // The enhancer enforces its own deadline; this guard only catches a step that never returns.
      enhancing: (config.ai_enhance.timeout + config.ai_enhance.connection_timeout) * 1000 + 2000,
      preview: 30 * 60_000,
      output: 10_000,
    },
  };
}

/** Drives dictations end to end. */
export class DictationController {
  private m: MachineState = IDLE;
  private readonly ports: DictationPorts;
  private readonly clock: ClockPort;
  readonly audioJournal: AudioJournal;
  readonly sessions: SessionJournal;
  private buffer: SessionBuffer | null = null;
  private timer: unknown = null;
  private readonly aborts = new Map<string, AbortController>();
  private readonly pending = new Set<Promise<void>>();
  private queue: MachineEvent[] = [];
  private running = false;
  private last: DictationSnapshot;
  private readonly listeners = new Set<(e: DictationEvent) => void>();
  private readonly cache = new PreviewCache();
  /** Result events so far (setMode tells whether its switch produced one). */
  private results = 0;

  constructor(ports: DictationPorts) {
    this.ports = ports;
    this.clock = ports.clock ?? systemClock;
    this.audioJournal = new AudioJournal(ports.dataDir);
    this.sessions = new SessionJournal(ports.dataDir);
    this.last = this.emptySnapshot();
  }

  /** The machine state (for tests and the tray). */
  get state(): MachineState {
    return this.m;
  }

  /** What the panel shows now. */
  snapshot(): DictationSnapshot {
    return this.m.state === 'idle' ? this.emptySnapshot() : { ...this.last, sessionId: this.m.s.id, state: this.m.state, mode: this.m.s.mode };
  }

  /** Listens to session events (besides the UI port); returns the unsubscribe function. */
  onEvent(listener: (e: DictationEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- inputs -------------------------------------------------------------------------------

  /** A hotkey went down (hold) or a toggle shortcut was pressed. */
  press(trigger: Trigger): void {
    this.dispatch({ type: 'press', trigger, next: this.newSession() });
  }
  /** The hold key went up. */
  release(): void {
    this.dispatch({ type: 'release' });
  }
  /** Cancel key / panel Cancel (any session when `id` is absent). */
  cancel(id?: string): void {
    if (id !== undefined && (this.m.state === 'idle' || this.m.s.id !== id)) return;
    this.dispatch({ type: 'cancel' });
  }
  /** Restart key: drop what is under way and record again. */
  restart(): void {
    this.dispatch({ type: 'restart', next: this.newSession() });
  }
  /** Previous/next mode keys. */
  stepMode(delta: 1 | -1): void {
    const modes = this.ports.enhance.modes();
    if (modes.length === 0 || this.m.state === 'idle') return;
    const at = modes.indexOf(this.m.s.mode);
    const next = modes[(at + delta + modes.length) % modes.length] ?? modes[0];
    if (next !== undefined) this.dispatch({ type: 'mode', mode: next });
  }
  /** Panel/tray: switch the mode of the current session (only session `id`'s, when given). */
  setMode(mode: string, id?: string): void {
    if (id !== undefined && (this.m.state === 'idle' || this.m.s.id !== id)) return;
    const before = this.results;
    this.dispatch({ type: 'mode', mode });
    // A switch that needs no model call (mode `off`, enhancement disabled) ends in preview at once
    // without a result event: the panel still needs the new text.
    const m = this.m;
    if (m.state === 'preview' && this.results === before) {
      this.last = { ...this.last, text: m.enh.text, enhancedText: m.enh.enhanced, enhanceStatus: m.enh.status, enhanceReason: m.enh.reason, model: m.enh.model, usage: null, elapsedMs: null, thinking: '', cached: false };
      this.emit({ kind: 'result', sessionId: m.s.id, snapshot: this.snapshot() });
    }
  }
  /** Panel: paste or copy a reopened earlier preview. Refused while a dictation is under way (it owns the target app). */
  async deliver(text: string, action: 'paste' | 'copy'): Promise<void> {
    if (this.m.state !== 'idle') throw new Error('finish or cancel the current dictation first');
    this.ports.ui.panel(false);
    const r = await this.ports.output.deliver(text, action);
    if (!r.ok) this.emit({ kind: 'notice', sessionId: null, level: 'error', message: `Could not paste${r.message ? ` (${r.message})` : ''}: the text is on the clipboard.` });
  }
  /** Panel Confirm (paste) or Copy. */
  confirm(id: string, text: string, action: 'paste' | 'copy'): void {
    this.dispatch({ type: 'confirm', id, text, action });
  }
  /** Enhance selected text (tray): the text goes through enhancement, preview and output. */
  enhanceText(text: string): void {
    this.dispatch({ type: 'text', next: this.newSession(), source: 'clipboard', asr: { text, language: '', sttModel: '', duration: 0 } });
  }
  /** A batch of PCM from the capture window. */
  frames(sessionId: string, seq: number, sampleRate: number, pcm: Float32Array): void {
    const b = this.buffer;
    if (b === null || b.id !== sessionId || this.m.state !== 'recording') return;
    const level = b.push(seq, sampleRate, pcm);
    if (level !== null) this.emit({ kind: 'level', sessionId, level });
  }

  /** Batches received for session `id` (CaptureLink's stop check); infinite once nothing is buffered for it. */
  receivedBatches(id: string): number {
    const b = this.buffer;
    return b !== null && b.id === id ? b.batches : Number.POSITIVE_INFINITY;
  }

  /** Journaled sessions a crash left behind. */
  recoverable(): RecoverableSession[] {
    const current = this.m.state === 'idle' ? null : this.m.s.id;
    return this.sessions.recoverable((id) => this.audioJournal.get(id)?.durationSeconds ?? 0, current);
  }

  /** The most recent failed or cancelled session with audio (tray: "Retry last dictation"). */
  lastRetryable(): string | null {
    const failed = this.audioJournal.list().filter((e) => e.status === 'failed' || this.sessions.get(e.id)?.status === 'cancelled');
    return failed.at(-1)?.id ?? null;
  }

  /** Finishes (ASR/enhance/preview from where it stopped) or discards a journaled session. */
  recover(id: string, action: 'finish' | 'discard'): void {
    const rec = this.sessions.get(id);
    if (action === 'discard') {
      this.sessions.remove(id);
      this.audioJournal.remove(id);
      this.removeRecordingFile(id);
      return;
    }
    const next = this.newSession(id, rec?.mode);
    if (rec?.asr) {
      this.dispatch({ type: 'text', next, source: rec.source, asr: rec.asr });
      return;
    }
    // Recording crashed before key-up: the raw frames on disk become the journaled WAV.
    if (!this.audioJournal.hasAudio(id)) {
      const raw = readRecordingFile(recordingFile(this.sessions.dir, id));
      if (raw === null) {
        this.sessions.remove(id);
        this.emit({ kind: 'notice', sessionId: id, level: 'warning', message: 'That dictation had no audio left to recover.' });
        return;
      }
      const prepared = prepareForAsr(raw.pcm, raw.sampleRate, { maxSeconds: this.config().audio.max_recording_seconds });
      this.audioJournal.write(id, prepared.kind === 'speech' ? prepared.samples : new Float32Array(0), SAMPLE_RATE, { recovered: true });
      this.removeRecordingFile(id);
    }
    this.dispatch({ type: 'retry', next });
  }

  /** Retries the last failed/cancelled dictation from its journaled audio. */
  retryLast(): boolean {
    const id = this.lastRetryable();
    if (id === null) return false;
    this.dispatch({ type: 'retry', next: this.newSession(id, this.sessions.get(id)?.mode) });
    return true;
  }

  /** Resolves when no work is in flight (tests, benchmarks, quit). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  // ---- the loop -----------------------------------------------------------------------------

  private dispatch(e: MachineEvent): void {
    this.queue.push(e);
    if (this.running) return; // effects that dispatch synchronously are queued, never nested
    this.running = true;
    try {
      for (let ev = this.queue.shift(); ev !== undefined; ev = this.queue.shift()) {
        const prev = this.m;
        const { next, effects } = transition(prev, ev);
        this.m = next;
        const prevId = prev.state === 'idle' ? null : prev.s.id;
        const nextId = next.state === 'idle' ? null : next.s.id;
        if (prev.state !== next.state || prevId !== nextId) {
          this.emit({ kind: 'state', sessionId: nextId ?? prevId, state: next.state, previous: prev.state, mode: next.state === 'idle' ? this.config().ai_enhance.mode : next.s.mode });
        }
        for (const effect of effects) this.run(effect);
      }
    } finally {
      this.running = false;
    }
  }

  private run(effect: Effect): void {
    try {
      this.runEffect(effect);
    } catch (err) {
      // An effect that throws (disk full…) must not wedge the machine: report it and carry on.
      this.ports.log?.('error', 'dictation effect failed', { effect: effect.kind, error: String(err) });
      this.emit({ kind: 'notice', sessionId: null, level: 'error', message: `Dictation step failed: ${String((err as Error)?.message ?? err)}` });
    }
  }

  private runEffect(effect: Effect): void {
    switch (effect.kind) {
      case 'capture-start': {
        this.last = { ...this.emptySnapshot(), sessionId: effect.id };
        this.buffer = new SessionBuffer(effect.id, { maxSeconds: this.config().audio.max_recording_seconds, sessionsDir: this.sessions.dir });
        this.sessions.put(effect.id, { stage: 'recording', mode: this.modeOf(effect.id), status: 'active' });
        this.ports.capture.start(effect.id);
        return;
      }
      case 'capture-discard':
        this.track(this.discard(effect.id, effect.journal));
        return;
      case 'transcribe':
        this.track(this.transcribe(effect.id, effect.from));
        return;
      case 'enhance':
        this.track(this.enhance(effect.id, effect.text, effect.mode));
        return;
      case 'abort':
        this.aborts.get(effect.id)?.abort();
        this.aborts.delete(effect.id);
        return;
      case 'panel':
        this.ports.ui.panel(effect.show);
        return;
      case 'output':
        this.track(this.output(effect.id, effect.text, effect.action));
        return;
      case 'log':
        this.track(this.logRecord(effect.intent));
        return;
      case 'journal-stage':
        this.sessions.put(effect.id, { stage: effect.stage, asr: effect.asr, mode: this.modeOf(effect.id), status: 'active' });
        return;
      case 'journal-finish':
        this.sessions.remove(effect.id);
        if (this.audioJournal.get(effect.id)) this.audioJournal.complete(effect.id, this.config().audio.retention_days);
        return;
      case 'journal-cancel':
        if (this.sessions.get(effect.id)) this.sessions.put(effect.id, { status: 'cancelled' });
        return;
      case 'timer':
        this.clearTimer();
        this.timer = this.clock.setTimeout(() => this.dispatch({ type: 'timeout', id: effect.id, step: effect.step }), effect.ms);
        return;
      case 'clear-timer':
        this.clearTimer();
        return;
      case 'notice':
        this.emit({ kind: 'notice', sessionId: this.m.state === 'idle' ? null : this.m.s.id, level: effect.level, message: effect.message });
        return;
      case 'sound':
        this.ports.ui.sound(effect.which);
        return;
      case 'done':
        this.emit({ kind: 'done', sessionId: effect.id, outcome: effect.outcome });
        return;
      default: {
        const never: never = effect;
        throw new Error(`unknown effect ${JSON.stringify(never)}`);
      }
    }
  }

  // ---- effects with I/O ---------------------------------------------------------------------

  private async discard(id: string, journal: boolean): Promise<void> {
    const b = this.takeBuffer(id);
    this.ports.capture.stop(id).catch(() => undefined);
    if (b === null) return;
    if (journal && b.length > 0) {
      // A cancelled recording stays reopenable (retry from the menu) for the audio retention period.
      this.audioJournal.write(id, resample(b.pcm(), b.sampleRate || SAMPLE_RATE, SAMPLE_RATE), SAMPLE_RATE, { cancelled: true });
      this.sessions.put(id, { status: 'cancelled' });
    } else {
      this.sessions.remove(id);
    }
    b.dropFile();
  }

  private async transcribe(id: string, from: 'capture' | 'journal'): Promise<void> {
    const config = this.config();
    const ac = new AbortController();
    this.aborts.set(id, ac);
    try {
      let pcm: Float32Array;
      let rate: number;
      if (from === 'capture') {
        await this.ports.capture.stop(id);
        const b = this.takeBuffer(id);
        pcm = b?.pcm() ?? new Float32Array(0);
        rate = b?.sampleRate || SAMPLE_RATE;
      } else {
        pcm = this.audioJournal.readAudio(id);
        rate = SAMPLE_RATE;
      }
      const prepared = prepareForAsr(pcm, rate, { silenceRms: config.audio.silence_rms, maxSeconds: config.audio.max_recording_seconds, vad: config.audio.vad_enabled });
      if (prepared.kind === 'silent') {
        this.sessions.remove(id);
        this.audioJournal.remove(id);
        this.removeRecordingFile(id);
        this.dispatch({ type: 'asr-silent', id, reason: prepared.reason });
        return;
      }
      // Audio and state on disk before any network call.
      if (from === 'capture' || !this.audioJournal.hasAudio(id)) this.audioJournal.write(id, prepared.samples, SAMPLE_RATE, { mode: this.modeOf(id) });
      // The session file still says `recording`; with the WAV journaled, recovery transcribes that WAV.
      this.removeRecordingFile(id);
      const res = await this.ports.asr.transcribe({ id, pcm: prepared.samples, signal: ac.signal });
      const asr = { text: res.text.trim(), language: res.language, sttModel: this.ports.asr.modelName(), duration: Math.round((prepared.samples.length / SAMPLE_RATE) * 10) / 10 };
      this.last = { ...this.last, sessionId: id, asrText: asr.text, text: asr.text };
      this.emit({ kind: 'asr', sessionId: id, text: asr.text, language: asr.language });
      this.dispatch({ type: 'asr-done', id, asr });
    } catch (err) {
      const message = String((err as Error)?.message ?? err);
      const entry = this.audioJournal.get(id);
      if (entry && entry.status !== 'failed') this.audioJournal.markFailed(id, message);
      this.sessions.remove(id);
      this.dispatch({ type: 'asr-failed', id, error: message });
    } finally {
      this.aborts.delete(id);
    }
  }

  private async enhance(id: string, text: string, mode: string): Promise<void> {
    this.aborts.get(id)?.abort();
    const hit = this.cache.get(id, text, mode);
    if (hit !== null) {
      // This session already ran this mode: show that answer again, no second model call.
      this.finishEnhance(id, hit.result, { thinking: hit.thinking, usage: hit.usage, elapsedMs: 0, cached: true });
      return;
    }
    const ac = new AbortController();
    this.aborts.set(id, ac);
    const started = this.clock.now();
    let thinking = '';
    let result;
    try {
      result = await this.ports.enhance.enhance({
        text,
        mode,
        signal: ac.signal,
        onDelta: (stream, delta) => {
          if (ac.signal.aborted) return;
          if (stream === 'thinking') thinking += delta;
          else if (stream === 'reset') thinking = '';
          this.emit({ kind: 'delta', sessionId: id, stream, text: delta });
        },
      });
    } catch (err) {
      result = { status: 'fallback' as const, text, enhanced: null, reason: String((err as Error)?.message ?? err), mode, model: '', historyMode: mode, usage: null };
    } finally {
      if (this.aborts.get(id) === ac) this.aborts.delete(id);
    }
    if (ac.signal.aborted) return; // superseded (mode switch, cancel, confirm): its answer is not wanted
    const elapsedMs = this.clock.now() - started;
    this.cache.put(id, text, mode, { result, thinking, usage: result.usage, elapsedMs });
    this.finishEnhance(id, result, { thinking, usage: result.usage, elapsedMs, cached: false });
  }

  private finishEnhance(id: string, result: EnhanceOutcome, extra: Pick<DictationSnapshot, 'thinking' | 'usage' | 'elapsedMs' | 'cached'>): void {
    this.last = { ...this.last, sessionId: id, text: result.text, enhancedText: result.enhanced, enhanceStatus: result.status, enhanceReason: result.reason, model: result.model, ...extra };
    this.results += 1;
    this.emit({ kind: 'result', sessionId: id, snapshot: { ...this.snapshot(), mode: result.mode } });
    this.dispatch({ type: 'enhance-done', id, result });
  }

  private async output(id: string, text: string, action: 'paste' | 'copy'): Promise<void> {
    const suffix = this.config().output.append_newline ? '\n' : '';
    let r: { ok: boolean; message?: string };
    try {
      r = await this.ports.output.deliver(text + suffix, action);
    } catch (err) {
      r = { ok: false, message: String((err as Error)?.message ?? err) };
    }
    this.dispatch({ type: 'output-done', id, ok: r.ok, ...(r.message !== undefined ? { message: r.message } : {}) });
  }

  private async logRecord(intent: LogIntent): Promise<void> {
    const { asr, enh } = intent;
    if (enh.historyMode === null) return; // chain modes write no history (seed rule)
    const record: NewHistoryRecord = {
      asr_text: asr.text,
      enhanced_text: enh.enhanced,
      final_text: intent.finalText,
      enhance_mode: enh.historyMode,
      preview_enabled: intent.previewEnabled,
      stt_model: asr.sttModel,
      llm_model: enh.model,
      user_corrected: intent.outcome !== 'cancelled' && intent.finalText !== enh.text,
      audio_duration: Math.round(asr.duration * 10) / 10,
      language: asr.language,
      source: intent.source,
      outcome: intent.outcome,
      ...(enh.usage ? { usage: enh.usage } : {}),
      ...(enh.status === 'fallback' || enh.status === 'guarded' ? { enhance_error: (enh.reason ?? enh.status).slice(0, 500) } : {}),
    };
    try {
      await this.ports.history.log(record);
      if (intent.outcome === 'confirmed' || intent.outcome === 'copied') {
        this.ports.vocabulary?.recordOutcome({ asrText: asr.text, enhancedText: enh.enhanced, finalText: intent.finalText, asrModel: asr.sttModel, llmModel: enh.model });
      }
    } catch (err) {
      this.ports.log?.('error', 'history log failed', { error: String(err) });
      this.emit({ kind: 'notice', sessionId: null, level: 'error', message: `The dictation could not be saved to history: ${String((err as Error)?.message ?? err)}` });
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  private track(p: Promise<void>): void {
    const tracked = p.catch((err: unknown) => this.ports.log?.('error', 'dictation task failed', { error: String(err) })).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private takeBuffer(id: string): SessionBuffer | null {
    const b = this.buffer;
    if (b === null || b.id !== id) return null;
    this.buffer = null;
    return b;
  }

  private removeRecordingFile(id: string): void {
    fs.rmSync(recordingFile(this.sessions.dir, id), { force: true });
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private emit(e: DictationEvent): void {
    this.ports.ui.emit(e);
    for (const l of this.listeners) l(e);
  }

  private config(): Config {
    return this.ports.config();
  }

  private modeOf(id: string): string {
    return this.m.state !== 'idle' && this.m.s.id === id ? this.m.s.mode : this.config().ai_enhance.mode;
  }

  private newSession(id?: string, mode?: string): NewSession {
    const config = this.config();
    return { id: id ?? this.ports.newId?.() ?? newRecordId(this.clock.now()), mode: mode ?? config.ai_enhance.mode, options: optionsFromConfig(config) };
  }

  private emptySnapshot(): DictationSnapshot {
    return {
      sessionId: null, state: 'idle', mode: this.ports.config().ai_enhance.mode, asrText: '', enhancedText: null, text: '', enhanceStatus: null, enhanceReason: null,
      model: '', usage: null, elapsedMs: null, thinking: '', cached: false,
    };
  }
}
