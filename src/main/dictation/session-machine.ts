/**
 * The dictation session as a pure function: (state, event) → (next state, effects). No clocks, no I/O,
 * no ids generated here, so every transition is a table row in the tests. Rules worth knowing:
 * - async results carry the session id; a result for another (cancelled, restarted) session is ignored;
 * - a second hotkey press while transcribing, enhancing, previewing or pasting never loses anything: it
 *   is refused with a notice (hold keys auto-repeat while held, so repeats during recording are ignored);
 * - every step arms a timer; a timeout never drops text (recording stops and transcribes, enhancement
 *   falls back to the raw text, an unanswered preview is cancelled into the journal, a stuck paste
 *   leaves the text on the clipboard).
 */
import type { DictationState } from '../../shared/ipc/dictation-types.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import type {
  AsrOutcome,
  Effect,
  EnhanceOutcome,
  LogIntent,
  MachineEvent,
  MachineState,
  NewSession,
  Session,
  Transition,
  Trigger,
} from './session-types.ts';

/** The idle state. */
export const IDLE: MachineState = { state: 'idle' };

const stay = (m: MachineState, effects: readonly Effect[] = []): Transition => ({ next: m, effects });

function timer(s: Session, step: DictationState): Effect[] {
  const ms = step === 'idle' ? 0 : s.options.timeouts[step];
  return ms > 0 ? [{ kind: 'timer', id: s.id, step, ms }] : [{ kind: 'clear-timer' }];
}

function session(next: NewSession, trigger: Trigger, source: 'voice' | 'clipboard'): Session {
  return { id: next.id, mode: next.mode, trigger, options: next.options, source };
}

function startRecording(next: NewSession, trigger: Trigger, before: readonly Effect[] = []): Transition {
  const s = session(next, trigger, 'voice');
  return {
    next: { state: 'recording', s },
    effects: [...before, { kind: 'sound', which: 'start' }, { kind: 'capture-start', id: s.id }, ...timer(s, 'recording')],
  };
}

function stopRecording(s: Session, reason?: Notice): Transition {
  const effects: Effect[] = [{ kind: 'sound', which: 'stop' }];
  if (reason) effects.push({ kind: 'notice', level: 'info', notice: reason });
  if (s.options.preview) effects.push({ kind: 'panel', show: true });
  effects.push({ kind: 'transcribe', id: s.id, from: 'capture' }, ...timer(s, 'transcribing'));
  return { next: { state: 'transcribing', s }, effects };
}

/** The enhancement that did not happen (enhancement off, or mode `off`). */
export function notEnhanced(asr: AsrOutcome, mode: string): EnhanceOutcome {
  return { status: 'off', text: asr.text, enhanced: null, reason: null, mode, model: '', historyMode: mode, usage: null };
}

function afterAsr(s: Session, asr: AsrOutcome): Transition {
  const enabled = s.options.enhance && s.mode !== 'off';
  if (!enabled) return afterEnhance(s, asr, notEnhanced(asr, 'off'), [{ kind: 'journal-stage', id: s.id, stage: 'enhancing', asr }]);
  return {
    next: { state: 'enhancing', s, asr },
    effects: [
      // The transcript is on disk before the LLM call: a crash from here on loses no words.
      { kind: 'journal-stage', id: s.id, stage: 'enhancing', asr },
      { kind: 'enhance', id: s.id, text: asr.text, mode: s.mode, enabled: true },
      ...timer(s, 'enhancing'),
    ],
  };
}

/** Whether a failure of this session is shown in the panel (always with preview; in direct mode when opted in). */
function panelOnFailure(s: Session): boolean {
  return s.options.preview || s.options.previewOnFailure === true;
}

function afterEnhance(s: Session, asr: AsrOutcome, enh: EnhanceOutcome, before: readonly Effect[] = []): Transition {
  const effects: Effect[] = [...before];
  const failed = enh.status === 'fallback' || enh.status === 'guarded';
  if (failed) {
    const notice: Notice = enh.status === 'guarded' ? { code: 'llm-guarded', reason: enh.reason } : { code: 'llm-fallback', reason: enh.reason, refusal: enh.refusal ?? null };
    effects.push({ kind: 'notice', level: 'warning', notice });
  }
  // A failed enhancement in direct mode goes to the panel (raw text + Retry) when the user opted in.
  if (s.options.preview || (failed && panelOnFailure(s))) {
    effects.push({ kind: 'panel', show: true }, { kind: 'journal-stage', id: s.id, stage: 'preview', asr }, ...timer(s, 'preview'));
    return { next: { state: 'preview', s, asr, enh }, effects };
  }
  return toOutput(s, asr, enh, enh.text, s.options.method, false, effects);
}

function toOutput(
  s: Session,
  asr: AsrOutcome,
  enh: EnhanceOutcome,
  text: string,
  action: 'paste' | 'copy',
  confirmed: boolean,
  before: readonly Effect[] = [],
): Transition {
  return {
    next: { state: 'output', s, asr, enh, text, action, confirmed },
    effects: [
      ...before,
      ...(confirmed ? [{ kind: 'panel', show: false } as const] : []),
      // The record is journaled right after the output starts, in the same turn of the event loop: the
      // output port only queues its work (the paste's first step, reading the clipboard, runs in another
      // process meanwhile), so the record is on disk before the paste keystroke, off the user's wait.
      { kind: 'output', id: s.id, text, action },
      { kind: 'journal-record', id: s.id, intent: logIntent({ s, asr, enh, text, action, confirmed }) },
      ...timer(s, 'output'),
    ],
  };
}

function logIntent(m: Omit<Extract<MachineState, { state: 'output' }>, 'state'>): LogIntent {
  const outcome = !m.confirmed ? 'direct' : m.action === 'copy' ? 'copied' : 'confirmed';
  return { asr: m.asr, enh: m.enh, finalText: m.text, previewEnabled: m.confirmed, outcome, source: m.s.source };
}

/** Ends a session that has not produced output: abort work, keep the audio journaled as cancelled. */
function cancelBusy(m: Extract<MachineState, { state: 'transcribing' | 'enhancing' | 'preview' }>, why: 'cancelled' | 'timeout'): Effect[] {
  const { s } = m;
  const effects: Effect[] = [{ kind: 'clear-timer' }, { kind: 'abort', id: s.id }, { kind: 'panel', show: false }];
  if (m.state === 'preview') {
    // A cancelled preview is still a finished session: logged (never injected), journaled for reopening.
    const intent: LogIntent = { asr: m.asr, enh: m.enh, finalText: m.enh.text, previewEnabled: true, outcome: 'cancelled', source: s.source };
    effects.push({ kind: 'journal-record', id: s.id, intent }, { kind: 'log', id: s.id, intent, settle: 'keep' });
  }
  effects.push({ kind: 'journal-cancel', id: s.id });
  if (why === 'timeout') effects.push({ kind: 'notice', level: 'warning', notice: { code: 'preview-timeout' } });
  effects.push({ kind: 'done', id: s.id, outcome: 'cancelled' });
  return effects;
}

const busyNotice: Effect = { kind: 'notice', level: 'info', notice: { code: 'busy' } };

/** Event `T` of the machine. */
type Ev<T extends MachineEvent['type']> = Extract<MachineEvent, { readonly type: T }>;
/** A state with a session. */
type Busy = Exclude<MachineState, { readonly state: 'idle' }>;

/** The state, when it is session `id`'s in `state` (async results of other sessions are ignored). */
function stateOf<S extends Busy['state']>(m: MachineState, state: S, id: string): Extract<Busy, { readonly state: S }> | null {
  return m.state === state && m.s.id === id ? (m as Extract<Busy, { readonly state: S }>) : null;
}

/** One step of the machine. Unknown combinations leave the state unchanged with no effects. */
export function transition(m: MachineState, e: MachineEvent): Transition {
  switch (e.type) {
    case 'press':
      return onPress(m, e);
    case 'release':
      return m.state === 'recording' && m.s.trigger === 'hold' ? stopRecording(m.s) : stay(m);
    case 'cancel':
      return onCancel(m);
    case 'restart':
      return onRestart(m, e);
    case 'mode':
      return onMode(m, e);
    case 'asr-done':
      return onAsrDone(m, e);
    case 'asr-silent':
      return onAsrSilent(m, e);
    case 'asr-failed':
      return onAsrFailed(m, e);
    case 'enhance-done': {
      const at = stateOf(m, 'enhancing', e.id);
      return at === null ? stay(m) : afterEnhance(at.s, at.asr, e.result);
    }
    case 'confirm':
      return onConfirm(m, e);
    case 'output-done':
      return onOutputDone(m, e);
    case 'timeout':
      return onTimeout(m, e.id, e.step);
    case 'retry':
      return onRetry(m, e);
    case 'text':
      return m.state === 'idle' ? afterAsr(session(e.next, 'toggle', e.source), e.asr) : stay(m, [busyNotice]);
    default:
      return exhaustive(e);
  }
}

function onPress(m: MachineState, e: Ev<'press'>): Transition {
  switch (m.state) {
    case 'idle':
      return startRecording(e.next, e.trigger);
    case 'recording':
      // Toggle presses stop; a hold key's auto-repeat (or a second hold key) does nothing.
      return e.trigger === 'toggle' || m.s.trigger === 'toggle' ? stopRecording(m.s) : stay(m);
    case 'transcribing':
    case 'enhancing':
    case 'preview':
    case 'output':
      return stay(m, [busyNotice]);
    default:
      return exhaustive(m);
  }
}

function onCancel(m: MachineState): Transition {
  switch (m.state) {
    case 'recording': {
      const { s } = m;
      return {
        next: IDLE,
        effects: [
          { kind: 'clear-timer' },
          { kind: 'sound', which: 'stop' },
          { kind: 'capture-discard', id: s.id, journal: true },
          { kind: 'done', id: s.id, outcome: 'cancelled' },
        ],
      };
    }
    case 'transcribing':
    case 'enhancing':
    case 'preview':
      return { next: IDLE, effects: cancelBusy(m, 'cancelled') };
    case 'idle':
    case 'output': // the paste is under way: too late to take it back
      return stay(m);
    default:
      return exhaustive(m);
  }
}

function onRestart(m: MachineState, e: Ev<'restart'>): Transition {
  switch (m.state) {
    case 'recording': {
      const { s } = m;
      return startRecording(e.next, s.trigger, [{ kind: 'capture-discard', id: s.id, journal: false }, { kind: 'done', id: s.id, outcome: 'discarded' }]);
    }
    case 'transcribing':
    case 'enhancing':
    case 'preview':
      return startRecording(e.next, 'toggle', cancelBusy(m, 'cancelled'));
    case 'idle':
    case 'output':
      return stay(m);
    default:
      return exhaustive(m);
  }
}

/** Session `s` in mode `e.mode`, with the output method an app rule set. */
function ruled(s: Session, e: Ev<'mode'>): Session {
  return { ...s, mode: e.mode, ...(e.method !== undefined ? { options: { ...s.options, method: e.method } } : {}) };
}

function onMode(m: MachineState, e: Ev<'mode'>): Transition {
  switch (m.state) {
    case 'recording':
      return stay({ ...m, s: ruled(m.s, e) }, [{ kind: 'notice', level: 'info', notice: e.rule === undefined ? { code: 'mode-changed', mode: e.mode } : { code: 'mode-by-rule', rule: e.rule, mode: e.mode, ...(e.label !== undefined ? { label: e.label } : {}) } }]);
    case 'transcribing':
      // An app rule read late (a slow input-context read) still sets the mode the text is enhanced in.
      return e.rule === undefined ? stay(m) : stay({ ...m, s: ruled(m.s, e) }, [{ kind: 'notice', level: 'info', notice: { code: 'mode-by-rule', rule: e.rule, mode: e.mode, ...(e.label !== undefined ? { label: e.label } : {}) } }]);
    case 'enhancing':
    case 'preview': {
      // Switching mode re-runs the enhancement of the same transcript; the old request is aborted.
      const { asr } = m;
      const s = { ...m.s, mode: e.mode };
      if (!s.options.enhance || e.mode === 'off') return afterEnhance(s, asr, notEnhanced(asr, 'off'), [{ kind: 'abort', id: s.id }]);
      return {
        next: { state: 'enhancing', s, asr },
        effects: [{ kind: 'abort', id: s.id }, { kind: 'enhance', id: s.id, text: asr.text, mode: e.mode, enabled: true }, ...timer(s, 'enhancing')],
      };
    }
    default:
      return stay(m);
  }
}

function onAsrDone(m: MachineState, e: Ev<'asr-done'>): Transition {
  const at = stateOf(m, 'transcribing', e.id);
  if (at === null) return stay(m);
  const { s } = at;
  if (e.asr.text.trim() === '') {
    return {
      next: IDLE,
      effects: [{ kind: 'clear-timer' }, { kind: 'panel', show: false }, { kind: 'notice', level: 'info', notice: { code: 'nothing-recognized' } }, { kind: 'journal-finish', id: s.id }, { kind: 'done', id: s.id, outcome: 'discarded' }],
    };
  }
  return afterAsr(s, e.asr);
}

function onAsrSilent(m: MachineState, e: Ev<'asr-silent'>): Transition {
  const at = stateOf(m, 'transcribing', e.id);
  if (at === null) return stay(m);
  return {
    next: IDLE,
    effects: [{ kind: 'clear-timer' }, { kind: 'panel', show: false }, { kind: 'notice', level: 'info', notice: { code: 'silence-discarded', reason: e.reason } }, { kind: 'done', id: at.s.id, outcome: 'discarded' }],
  };
}

function onAsrFailed(m: MachineState, e: Ev<'asr-failed'>): Transition {
  const at = stateOf(m, 'transcribing', e.id);
  if (at === null) return stay(m);
  const { s } = at;
  return {
    next: IDLE,
    effects: [
      { kind: 'clear-timer' },
      // The panel stays (or opens, in direct mode when opted in) with the error and a Retry button:
      // the audio is journaled, so a retry transcribes it again.
      { kind: 'panel', show: panelOnFailure(s) },
      { kind: 'notice', level: 'error', notice: e.missingModel === undefined ? { code: 'asr-failed', reason: e.error } : { code: 'speech-model-missing', model: e.missingModel } },
      { kind: 'done', id: s.id, outcome: 'failed' },
    ],
  };
}

function onConfirm(m: MachineState, e: Ev<'confirm'>): Transition {
  if (m.state === 'idle' || m.s.id !== e.id) return stay(m);
  if (m.state === 'preview') return toOutput(m.s, m.asr, m.enh, e.text, e.action, true);
  if (m.state === 'enhancing' && m.s.options.preview) {
    const { s, asr } = m;
    // Confirmed before the model finished: the user's text wins, the request is aborted (saves tokens).
    return toOutput(s, asr, notEnhanced(asr, s.mode), e.text, e.action, true, [{ kind: 'abort', id: s.id }]);
  }
  return stay(m);
}

function onOutputDone(m: MachineState, e: Ev<'output-done'>): Transition {
  const at = stateOf(m, 'output', e.id);
  if (at === null) return stay(m);
  const { s } = at;
  const effects: Effect[] = [{ kind: 'clear-timer' }];
  if (!e.ok) effects.push({ kind: 'notice', level: 'error', notice: e.notice ?? { code: 'paste-failed', reason: null, app: null } });
  // The journal is finished by the log, once the record is on disk (it was journaled before the output).
  effects.push({ kind: 'log', id: s.id, intent: logIntent(at), settle: 'finish' });
  effects.push({ kind: 'done', id: s.id, outcome: at.action === 'copy' || !e.ok ? 'copied' : 'pasted' });
  return { next: IDLE, effects };
}

function onRetry(m: MachineState, e: Ev<'retry'>): Transition {
  if (m.state !== 'idle') return stay(m, [busyNotice]);
  const s = session(e.next, 'toggle', 'voice');
  return {
    next: { state: 'transcribing', s },
    effects: [...(s.options.preview ? [{ kind: 'panel', show: true } as const] : []), { kind: 'transcribe', id: s.id, from: 'journal' }, ...timer(s, 'transcribing')],
  };
}

function onTimeout(m: MachineState, id: string, step: DictationState): Transition {
  if (m.state === 'idle' || m.s.id !== id || m.state !== step) return stay(m);
  const { s } = m;
  switch (m.state) {
    case 'recording':
      return stopRecording(s, { code: 'max-recording' });
    case 'transcribing':
      return {
        next: IDLE,
        effects: [
          { kind: 'abort', id: s.id },
          { kind: 'panel', show: panelOnFailure(s) },
          { kind: 'notice', level: 'error', notice: { code: 'asr-timeout' } },
          { kind: 'done', id: s.id, outcome: 'failed' },
        ],
      };
    case 'enhancing': {
      const enh: EnhanceOutcome = { ...notEnhanced(m.asr, s.mode), status: 'fallback', reason: 'timeout', historyMode: s.mode };
      return afterEnhance(s, m.asr, enh, [{ kind: 'abort', id: s.id }]);
    }
    case 'preview':
      return { next: IDLE, effects: cancelBusy(m, 'timeout') };
    case 'output':
      return onOutputDone(m, { type: 'output-done', id, ok: false, notice: { code: 'paste-timeout' } });
    default:
      return exhaustive(m);
  }
}

function exhaustive(x: never): never {
  throw new Error(`unhandled dictation case ${JSON.stringify(x)}`);
}

/** The session id of a state (null when idle). */
export function sessionIdOf(m: MachineState): string | null {
  return m.state === 'idle' ? null : m.s.id;
}
