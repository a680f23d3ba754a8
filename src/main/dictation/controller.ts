/**
 * The dictation controller: feeds hotkey, capture, service and UI events into the pure session machine
 * and runs the effects it returns with the injected ports. Order that keeps dictations safe: frames are
 * appended to disk while recording; at key-up the audio is journaled (WAV, fsynced) and the session
 * state written before the ASR call; the transcript is written before the LLM call; the history record
 * is journaled before the text is handed out, and the journal is completed only once that record is on
 * disk (a crash in between logs it at the next start, `logJournaledRecords`). The effects with I/O live in
 * session-io.ts (capture, ASR), enhance-step.ts (enhancement + per-mode cache) and delivery.ts (output and
 * history); each resolves to the machine event it produced, which this loop dispatches. The journals
 * have one writer (session-journals.ts); this file is the loop and the public API.
 */
import { newRecordId } from '../../shared/history/record.ts';
import type { DictationEvent, DictationSnapshot, RecoverableSession } from '../../shared/ipc/dictation-types.ts';
import type { Config } from '../../shared/config/config-schema.ts';
import { errorText, type ControllerContext } from './controller-context.ts';
import { CurrentRecording } from './current-recording.ts';
import { deliverAgain, journalRecord, logJournaledRecords, LoggedRecords, logRecord, runOutput } from './delivery.ts';
import { cachedEnhance, runEnhance } from './enhance-step.ts';
import { AppRuleChoices } from './app-rule-choices.ts';
import { InFlight } from './in-flight.ts';
import type { ClockPort, DictationPorts } from '../ports/dictation-ports.ts';
import { systemClock } from './system-clock.ts';
import { PanelView } from './panel-view.ts';
import { PreviewCache } from './preview-cache.ts';
import { discardCapture, recoverAudio, transcribe } from './session-io.ts';
import { SessionJournals, type AudioJournalReader, type SessionJournalReader } from './session-journals.ts';
import { IDLE, sessionIdOf, transition } from './session-machine.ts';
import { optionsFromConfig } from './session-options.ts';
import type { Effect, MachineEvent, MachineState, NewSession, Trigger } from './session-types.ts';

export { optionsFromConfig } from './session-options.ts'; // its home is session-options.ts

/** One runner per effect kind (the type makes the table exhaustive). */
type EffectHandlers = { readonly [K in Effect['kind']]: (e: Extract<Effect, { readonly kind: K }>) => void };

/** Drives dictations end to end. */
export class DictationController {
  private m: MachineState = IDLE;
  private readonly ports: DictationPorts;
  private readonly clock: ClockPort;
  /** The one writer of the session and audio journals. */
  private readonly journals: SessionJournals;
  /** The current recording's capture buffer and live transcription. */
  private readonly recording: CurrentRecording;
  private timer: unknown = null;
  private readonly inFlight = new InFlight();
  private readonly pending = new Set<Promise<void>>();
  private queue: MachineEvent[] = [];
  private running = false;
  private readonly view: PanelView;
  private readonly listeners = new Set<(e: DictationEvent) => void>();
  private readonly cache = new PreviewCache();
  private readonly logged = new LoggedRecords();
  /** The input context read at each recent session's start, and the app rule it matched (app-rule-choices.ts). */
  private readonly rules: AppRuleChoices;
  /** Result events so far (setMode tells whether its switch produced one). */
  private results = 0;
  /** What the effect runners see of this controller. */
  private readonly ctx: ControllerContext;
  /**
   * How each effect runs. The runners with I/O resolve to the machine event they produced, dispatched
   * when it comes (`follow`). The order of a transition's effects is the machine's: `journal-record`
   * follows `output` in the same turn, so the record is on disk before the paste keystroke.
   */
  private readonly effects: EffectHandlers = {
    'capture-start': (e) => this.startCapture(e.id),
    'capture-discard': (e) => this.track(discardCapture(this.ctx, e.id, e.journal)),
    transcribe: (e) => this.follow(this.inFlight.run(e.id, (signal) => transcribe(this.ctx, e.id, e.from, signal))),
    enhance: (e) => this.enhance(e.id, e.text, e.mode),
    abort: (e) => this.inFlight.abort(e.id),
    panel: (e) => this.ports.ui.panel(e.show),
    output: (e) => this.follow(runOutput(this.ctx, e.id, e.text, e.action)),
    'journal-record': (e) => journalRecord(this.ctx, e.id, e.intent),
    log: (e) => this.track(logRecord(this.ctx, this.logged, e.id, e.intent, e.settle)),
    'journal-stage': (e) => this.journals.stage(e.id, { stage: e.stage, asr: e.asr, mode: this.modeOf(e.id), status: 'active' }),
    'journal-finish': (e) => this.journals.complete(e.id),
    'journal-cancel': (e) => this.journals.markCancelled(e.id),
    timer: (e) => {
      this.clearTimer();
      this.timer = this.clock.setTimeout(() => this.dispatch({ type: 'timeout', id: e.id, step: e.step }), e.ms);
    },
    'clear-timer': () => this.clearTimer(),
    notice: (e) => this.emit({ kind: 'notice', sessionId: sessionIdOf(this.m), level: e.level, notice: e.notice }),
    sound: (e) => this.ports.ui.sound(e.which),
    done: (e) => this.emit({ kind: 'done', sessionId: e.id, outcome: e.outcome }),
  };

  constructor(ports: DictationPorts) {
    this.ports = ports;
    this.clock = ports.clock ?? systemClock;
    this.journals = new SessionJournals(ports);
    this.recording = new CurrentRecording(ports);
    this.rules = new AppRuleChoices(ports);
    this.view = new PanelView(() => this.config().ai_enhance.mode);
    this.ctx = {
      ports: this.ports,
      clock: this.clock,
      journals: this.journals,
      modeOf: (id) => this.modeOf(id),
      emit: (e) => this.emit(e),
      show: (fields) => {
        this.view.merge(fields);
        return this.snapshot();
      },
      inputContext: (id) => this.rules.context(id),
      submitKey: (id) => this.rules.submitFor(id),
      takeRecording: (id) => this.recording.take(id),
    };
  }

  /** The session states (to read: tests and the tray). */
  get sessions(): SessionJournalReader {
    return this.journals.sessions;
  }

  /** The journaled audio (to read: tests and the tray). */
  get audioJournal(): AudioJournalReader {
    return this.journals.audio;
  }

  /** The machine state (for tests and the tray). */
  get state(): MachineState {
    return this.m;
  }

  /** What the panel shows now. */
  snapshot(): DictationSnapshot {
    return this.view.of(this.m);
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
      this.view.merge({ text: m.enh.text, enhancedText: m.enh.enhanced, enhanceStatus: m.enh.status, enhanceReason: m.enh.reason, model: m.enh.model, usage: null, elapsedMs: null, thinking: '', cached: false });
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
    const level = this.recording.push(sessionId, seq, sampleRate, pcm);
    // The meter belongs to recording; the flushed tail only completes the audio.
    if (level !== null && this.m.state === 'recording') this.emit({ kind: 'level', sessionId, level });
  }

  /** Batches received for session `id` (CaptureLink's stop check); infinite once nothing is buffered for it. */
  receivedBatches(id: string): number {
    return this.recording.batches(id);
  }

  /**
   * At start, before offering recovery: logs the history records that sessions left in the journal when
   * the app crashed or quit after handing their text out but before the record was on disk. Resolves
   * to how many were written.
   */
  logJournaledRecords(): Promise<number> {
    return logJournaledRecords(this.ctx, sessionIdOf(this.m));
  }

  /** Journaled sessions a crash left behind. */
  recoverable(): RecoverableSession[] {
    return this.journals.recoverable(sessionIdOf(this.m));
  }

  /** The most recent failed or cancelled session with audio (tray: "Retry last dictation"). */
  lastRetryable(): string | null {
    return this.journals.lastRetryable();
  }

  /** Finishes (ASR/enhance/preview from where it stopped) or discards a journaled session. */
  recover(id: string, action: 'finish' | 'discard'): void {
    const rec = this.journals.sessions.get(id);
    if (action === 'discard') {
      this.journals.discard(id);
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
    this.dispatch({ type: 'retry', next: this.newSession(id, this.journals.sessions.get(id)?.mode) });
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
    if (m.state !== 'idle' || !this.journals.audio.hasAudio(id)) return false;
    const next = this.newSession(id, this.journals.modeOf(id));
    this.dispatch({ type: 'retry', next: { ...next, options: { ...next.options, preview: true } } });
    return true;
  }

  /**
   * History Browser "Re-run in mode…": `text` (a record's transcript) goes through enhancement in `mode`
   * and into the preview panel, whatever the preview and enhancement settings (the user asked for this
   * mode's text and looks at it before using it). Refused while a dictation is under way.
   */
  rerun(text: string, mode: string, sttModel = '', id?: string): void {
    if (this.m.state !== 'idle') throw new Error('finish or cancel the current dictation first');
    const next = this.newSession(id, mode); // `id`: Reopen last preview's own session (its cached mode results)
    this.dispatch({ type: 'text', source: 'voice', next: { ...next, options: { ...next.options, preview: true, enhance: true } }, asr: { text, language: '', sttModel, duration: 0 } });
  }

  /** Session `id`'s input context as the prompt line it was sent with ('' when off or not read). */
  inputContextLine(id: string): Promise<string> {
    return this.rules.promptLine(id);
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
        const prevId = sessionIdOf(prev);
        const nextId = sessionIdOf(next);
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
      (this.effects[effect.kind] as (e: Effect) => void)(effect);
    } catch (err) {
      // An effect that throws (disk full…) must not wedge the machine: report it and carry on.
      this.ports.log?.('error', 'dictation effect failed', { effect: effect.kind, error: String(err) });
      this.emit({ kind: 'notice', sessionId: null, level: 'error', notice: { code: 'step-failed', reason: errorText(err) } });
    }
  }

  /** Opens session `id`'s recording: buffer, journal, capture window, then the live transcription. */
  private startCapture(id: string): void {
    this.view.open(id);
    this.recording.open(id, this.config().audio.max_recording_seconds, this.journals.sessions.dir);
    // The journals are crash safety: a disk that refuses them (read-only, full) must not stop the recording.
    this.journals.stage(id, { stage: 'recording', mode: this.modeOf(id), status: 'active' });
    this.ports.capture.start(id);
    // After the capture window was told to start: the first batch comes 100 ms later at the earliest.
    this.recording.startLiveTranscription(id, (text) => this.partial(id, text));
    this.ports.enhance.prewarm?.(this.modeOf(id)); // the mode's prompt prefix is evaluated while the user speaks
  }

  /** A mode this session already ran answers at once (within this dispatch); otherwise the model is asked. */
  private enhance(id: string, text: string, mode: string): void {
    this.inFlight.abort(id);
    const cached = cachedEnhance(this.ctx, this.cache, id, text, mode);
    if (cached !== null) this.dispatch(cached);
    else this.follow(this.inFlight.run(id, (signal) => runEnhance(this.ctx, this.cache, id, text, mode, signal)));
  }

  /** Tracks a runner and dispatches the machine event it resolves to (none when superseded). */
  private follow(work: Promise<MachineEvent | null>): void {
    this.track(work.then((e) => (e === null ? undefined : this.dispatch(e))));
  }

  private track(p: Promise<void>): void {
    const tracked = p.catch((err: unknown) => this.ports.log?.('error', 'dictation task failed', { error: String(err) })).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
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

  /** Starts reading the frontmost app for session `id`; a matching app rule then sets its mode and output. */
  private captureContext(id: string): void {
    this.rules.start(id, () => (this.m.state === 'idle' ? null : this.m.s), (e) => this.dispatch(e));
  }

  private newSession(id?: string, mode?: string): NewSession {
    const config = this.config();
    return { id: id ?? this.ports.newId?.() ?? newRecordId(this.clock.now()), mode: mode ?? config.ai_enhance.mode, options: optionsFromConfig(config) };
  }
}
