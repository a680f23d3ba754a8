/**
 * The dictation controller: feeds hotkey, capture, service and UI events into the pure session machine
 * and runs the effects it returns with the injected ports. Order that keeps dictations safe: frames are
 * appended to disk while recording; at key-up the audio is journaled (WAV, fsynced) and the session
 * state written before the ASR call; the transcript is written before the LLM call; the history record
 * is journaled before the text is handed out, and the journal is completed only once that record is on
 * disk (a crash in between logs it at the next start, `logJournaledRecords`). The effects with I/O live in session-io.ts
 * (capture and journals), enhance-step.ts (enhancement + per-mode cache) and delivery.ts (output and
 * history); this file is the loop and the public API.
 */
import { newRecordId } from '../../shared/history/record.ts';
import type { DictationEvent, DictationSnapshot, RecoverableSession } from '../../shared/ipc/dictation-types.ts';
import { AudioJournal } from '../audio/journal.ts';
import { inputContextLine } from '../enhance/input-context-line.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { errorText, journalBestEffort, type ControllerContext } from './controller-context.ts';
import { deliverAgain, journalRecord, logJournaledRecords, LoggedRecords, logRecord, runOutput } from './delivery.ts';
import { runEnhance } from './enhance-step.ts';
import { ContextReads } from './context-reads.ts';
import { LiveFeed } from './live-feed.ts';
import { systemClock, type ClockPort, type DictationPorts } from './ports.ts';
import { PreviewCache } from './preview-cache.ts';
import { SessionBuffer } from './session-buffer.ts';
import { discardCapture, recoverAudio, removeRecordingFile, transcribe } from './session-io.ts';
import { SessionJournal } from './session-journal.ts';
import { IDLE, transition } from './session-machine.ts';
import type { Effect, MachineEvent, MachineState, NewSession, SessionOptions, Trigger } from './session-types.ts';

/** Session options from the config (snapshotted at each session's start). */
export function optionsFromConfig(config: Config): SessionOptions {
  return {
    preview: config.output.preview,
    enhance: config.ai_enhance.enabled,
    method: config.output.method,
    previewOnFailure: config.output.preview_on_failure,
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
  /** The current recording's transcription-while-speaking, if its engine does that. */
  private readonly live: LiveFeed;
  private timer: unknown = null;
  private readonly aborts = new Map<string, AbortController>();
  private readonly pending = new Set<Promise<void>>();
  private queue: MachineEvent[] = [];
  private running = false;
  private last: DictationSnapshot;
  private readonly listeners = new Set<(e: DictationEvent) => void>();
  private readonly cache = new PreviewCache();
  private readonly logged = new LoggedRecords();
  /** The input context read at each recent session's start (ai_enhance.input_context). */
  private readonly contexts: ContextReads;
  /** Result events so far (setMode tells whether its switch produced one). */
  private results = 0;
  /** What the effect runners see of this controller. */
  private readonly ctx: ControllerContext;

  constructor(ports: DictationPorts) {
    this.ports = ports;
    this.clock = ports.clock ?? systemClock;
    this.audioJournal = new AudioJournal(ports.dataDir);
    this.live = new LiveFeed(ports);
    this.contexts = new ContextReads(ports);
    this.sessions = new SessionJournal(ports.dataDir);
    this.last = this.emptySnapshot();
    this.ctx = {
      ports: this.ports,
      clock: this.clock,
      audioJournal: this.audioJournal,
      sessions: this.sessions,
      aborts: this.aborts,
      config: () => this.config(),
      modeOf: (id) => this.modeOf(id),
      dispatch: (e) => this.dispatch(e),
      emit: (e) => this.emit(e),
      patchSnapshot: (fields) => (this.last = { ...this.last, ...fields }),
      snapshot: () => this.snapshot(),
      takeBuffer: (id) => this.takeBuffer(id),
      takeLive: (id) => this.live.take(id),
      inputContext: (id) => this.contexts.of(id),
    };
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
    const next = this.newSession();
    // Key-down of a new dictation: the app being dictated into is frontmost now (a second toggle press stops instead).
    if (this.m.state === 'idle') this.captureContext(next.id);
    this.dispatch({ type: 'press', trigger, next });
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
    const next = this.newSession();
    if (this.m.state !== 'idle') this.captureContext(next.id);
    this.dispatch({ type: 'restart', next });
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
  /**
   * Panel: paste or copy a reopened earlier preview (of session `sessionId`, whose history record is
   * updated when the text was changed). Refused while a dictation is under way (it owns the target app).
   */
  async deliver(text: string, action: 'paste' | 'copy', sessionId?: string): Promise<void> {
    if (this.m.state !== 'idle') throw new Error('finish or cancel the current dictation first');
    await deliverAgain(this.ctx, this.logged, text, action, sessionId);
  }
  /** Panel: hide the panel (Esc when no dictation is under way; a running session is cancelled instead). */
  hidePanel(): void {
    if (this.m.state === 'idle') this.ports.ui.panel(false);
  }
  /** Panel Confirm (paste) or Copy. */
  confirm(id: string, text: string, action: 'paste' | 'copy'): void {
    this.dispatch({ type: 'confirm', id, text, action });
  }
  /** Enhance selected text (tray): the text goes through enhancement, preview and output. */
  enhanceText(text: string): void {
    const next = this.newSession();
    if (this.m.state === 'idle') this.captureContext(next.id);
    this.dispatch({ type: 'text', next, source: 'clipboard', asr: { text, language: '', sttModel: '', duration: 0 } });
  }
  /**
   * A batch of PCM from the capture window. Accepted until the session's buffer is taken, not only while
   * `recording`: key-up leaves `recording` before the window flushes its last batch (the end of the last
   * word), and the stop waits for it. Cancel and discard take the buffer first, so their late batches
   * are dropped; the buffer itself enforces the max length.
   */
  frames(sessionId: string, seq: number, sampleRate: number, pcm: Float32Array): void {
    const b = this.buffer;
    if (b === null || b.id !== sessionId) return;
    const level = b.push(seq, sampleRate, pcm);
    // The meter belongs to recording; the flushed tail only completes the audio.
    if (level !== null && this.m.state === 'recording') this.emit({ kind: 'level', sessionId, level });
  }

  /** Batches received for session `id` (CaptureLink's stop check); infinite once nothing is buffered for it. */
  receivedBatches(id: string): number {
    const b = this.buffer;
    return b !== null && b.id === id ? b.batches : Number.POSITIVE_INFINITY;
  }

  /**
   * At start, before offering recovery: logs the history records that sessions left in the journal when
   * the app crashed or quit after handing their text out but before the record was on disk. Resolves
   * to how many were written.
   */
  logJournaledRecords(): Promise<number> {
    return logJournaledRecords(this.ctx, this.m.state === 'idle' ? null : this.m.s.id);
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
      removeRecordingFile(this.ctx, id);
      return;
    }
    const next = this.newSession(id, rec?.mode);
    if (rec?.asr) {
      this.dispatch({ type: 'text', next, source: rec.source, asr: rec.asr });
      return;
    }
    // Recording crashed before key-up: the raw frames on disk become the journaled WAV.
    if (recoverAudio(this.ctx, id)) this.dispatch({ type: 'retry', next });
  }

  /** Retries the last failed/cancelled dictation from its journaled audio. */
  retryLast(): boolean {
    const id = this.lastRetryable();
    if (id === null) return false;
    this.dispatch({ type: 'retry', next: this.newSession(id, this.sessions.get(id)?.mode) });
    return true;
  }

  /**
   * Panel Retry of session `id`: a failed enhancement (the preview shows the raw text) runs again in the
   * same mode; a failed transcription (the panel shows the error, the audio is journaled) is transcribed
   * again — through the preview, since the user is looking at the panel. False when there is nothing to retry.
   */
  retry(id: string): boolean {
    const m = this.m;
    if (m.state === 'preview' && m.s.id === id) {
      if (m.enh.status !== 'fallback') return false;
      this.dispatch({ type: 'mode', mode: m.s.mode });
      return true;
    }
    if (m.state !== 'idle' || !this.audioJournal.hasAudio(id)) return false;
    const meta = this.audioJournal.get(id)?.meta;
    const mode = this.sessions.get(id)?.mode ?? (typeof meta?.mode === 'string' ? meta.mode : undefined);
    const next = this.newSession(id, mode);
    this.dispatch({ type: 'retry', next: { ...next, options: { ...next.options, preview: true } } });
    return true;
  }

  /**
   * History Browser "Re-run in mode…": `text` (a record's transcript) goes through enhancement in `mode`
   * and into the preview panel, whatever the preview and enhancement settings (the user asked for this
   * mode's text and looks at it before using it). Refused while a dictation is under way.
   */
  rerun(text: string, mode: string, sttModel = ''): void {
    if (this.m.state !== 'idle') throw new Error('finish or cancel the current dictation first');
    const next = this.newSession(undefined, mode);
    this.dispatch({ type: 'text', source: 'voice', next: { ...next, options: { ...next.options, preview: true, enhance: true } }, asr: { text, language: '', sttModel, duration: 0 } });
  }

  /** Session `id`'s input context as the prompt line it was sent with ('' when off or not read). */
  async inputContextLine(id: string): Promise<string> {
    const level = this.config().ai_enhance.input_context;
    return level === 'off' ? '' : inputContextLine(await this.contexts.of(id), level);
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
      this.emit({ kind: 'notice', sessionId: null, level: 'error', notice: { code: 'step-failed', reason: errorText(err) } });
    }
  }

  private runEffect(effect: Effect): void {
    switch (effect.kind) {
      case 'capture-start': {
        this.last = { ...this.emptySnapshot(), sessionId: effect.id };
        this.buffer = new SessionBuffer(effect.id, {
          maxSeconds: this.config().audio.max_recording_seconds,
          sessionsDir: this.sessions.dir,
          onAudio: (kept, rate) => this.live.feed(effect.id, kept, rate),
        });
        if (this.buffer.fileError !== null) this.ports.log?.('warn', 'raw recording file not written; recording in memory only', { error: this.buffer.fileError });
        // The journals are crash safety: a disk that refuses them (read-only, full) must not stop the recording.
        journalBestEffort(this.ports, 'the session journal', () => this.sessions.put(effect.id, { stage: 'recording', mode: this.modeOf(effect.id), status: 'active' }));
        this.ports.capture.start(effect.id);
        // After the capture window was told to start: the first batch comes 100 ms later at the earliest.
        this.live.start(effect.id, (text) => this.partial(effect.id, text));
        return;
      }
      case 'capture-discard':
        this.track(discardCapture(this.ctx, effect.id, effect.journal));
        return;
      case 'transcribe':
        this.track(transcribe(this.ctx, effect.id, effect.from));
        return;
      case 'enhance':
        this.track(runEnhance(this.ctx, this.cache, effect.id, effect.text, effect.mode));
        return;
      case 'abort':
        this.aborts.get(effect.id)?.abort();
        this.aborts.delete(effect.id);
        return;
      case 'panel':
        this.ports.ui.panel(effect.show);
        return;
      case 'output':
        this.track(runOutput(this.ctx, effect.id, effect.text, effect.action));
        return;
      case 'journal-record':
        journalRecord(this.ctx, effect.id, effect.intent);
        return;
      case 'log':
        this.track(logRecord(this.ctx, this.logged, effect.id, effect.intent, effect.settle));
        return;
      case 'journal-stage':
        journalBestEffort(this.ports, 'the session journal', () => this.sessions.put(effect.id, { stage: effect.stage, asr: effect.asr, mode: this.modeOf(effect.id), status: 'active' }));
        return;
      case 'journal-finish':
        journalBestEffort(this.ports, 'the session journal', () => this.sessions.remove(effect.id));
        if (this.audioJournal.get(effect.id)) journalBestEffort(this.ports, 'the audio journal', () => this.audioJournal.complete(effect.id, this.config().audio.retention_days));
        return;
      case 'journal-cancel':
        if (this.sessions.get(effect.id)) journalBestEffort(this.ports, 'the session journal', () => this.sessions.put(effect.id, { status: 'cancelled' }));
        return;
      case 'timer':
        this.clearTimer();
        this.timer = this.clock.setTimeout(() => this.dispatch({ type: 'timeout', id: effect.id, step: effect.step }), effect.ms);
        return;
      case 'clear-timer':
        this.clearTimer();
        return;
      case 'notice':
        this.emit({ kind: 'notice', sessionId: this.m.state === 'idle' ? null : this.m.s.id, level: effect.level, notice: effect.notice });
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

  /** The text decoded so far of session `id`, while it is still recording or transcribing (the indicator's live text). */
  private partial(id: string, text: string): void {
    const m = this.m;
    if (m.state !== 'idle' && m.s.id === id && (m.state === 'recording' || m.state === 'transcribing')) this.emit({ kind: 'partial', sessionId: id, text });
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private emit(e: DictationEvent): void {
    if (e.kind === 'result') this.results += 1;
    this.ports.ui.emit(e);
    for (const l of this.listeners) l(e);
  }

  private config(): Config {
    return this.ports.config();
  }

  private modeOf(id: string): string {
    return this.m.state !== 'idle' && this.m.s.id === id ? this.m.s.mode : this.config().ai_enhance.mode;
  }

  /** Starts reading the frontmost app for session `id` (nothing when input_context is off or unsupported). */
  private captureContext(id: string): void {
    this.contexts.capture(id, this.config().ai_enhance.input_context);
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
