import { describe, expect, it } from 'vitest';
import { IDLE, transition } from '../../../../src/main/dictation/session-machine.ts';
import type { AsrOutcome, EnhanceOutcome, MachineEvent, MachineState, NewSession, Session, SessionOptions } from '../../../../src/main/dictation/session-types.ts';
import { DICTATION_STATES } from '../../../../src/shared/ipc/dictation-types.ts';

const timeouts = { recording: 120_000, transcribing: 180_000, enhancing: 12_000, preview: 1_800_000, output: 10_000 };
const opts = (over: Partial<SessionOptions> = {}): SessionOptions => ({ preview: true, enhance: true, method: 'paste', timeouts, ...over });
const next = (id = 'S2', o: Partial<SessionOptions> = {}): NewSession => ({ id, mode: 'proofread', options: opts(o) });
const s = (o: Partial<SessionOptions> = {}, trigger: 'hold' | 'toggle' = 'hold'): Session => ({ id: 'S1', mode: 'proofread', trigger, options: opts(o), source: 'voice' });
const asr: AsrOutcome = { text: '你好 world', language: 'zh', sttModel: 'whisper-base', duration: 2.1 };
const enh = (status: EnhanceOutcome['status'] = 'enhanced'): EnhanceOutcome => ({
  status, text: status === 'enhanced' ? '你好，world。' : asr.text, enhanced: status === 'enhanced' ? '你好，world。' : null, reason: status === 'fallback' ? 'timeout' : null,
  mode: 'proofread', model: 'm', historyMode: 'proofread', usage: null,
});

const states = (o: Partial<SessionOptions> = {}, trigger: 'hold' | 'toggle' = 'hold'): Record<MachineState['state'], MachineState> => ({
  idle: IDLE,
  recording: { state: 'recording', s: s(o, trigger) },
  transcribing: { state: 'transcribing', s: s(o, trigger) },
  enhancing: { state: 'enhancing', s: s(o, trigger), asr },
  preview: { state: 'preview', s: s(o, trigger), asr, enh: enh() },
  output: { state: 'output', s: s(o, trigger), asr, enh: enh(), text: 'x', action: 'paste', confirmed: true },
});
const kinds = (effects: readonly { kind: string }[]) => effects.map((e) => e.kind);

describe('session machine: the happy paths', () => {
  it('hold: idle → recording → transcribing → enhancing → preview → output → idle, with the right effects', () => {
    let t = transition(IDLE, { type: 'press', trigger: 'hold', next: next('S1') });
    expect(t.next.state).toBe('recording');
    expect(kinds(t.effects)).toEqual(['sound', 'capture-start', 'timer']);
    t = transition(t.next, { type: 'release' });
    expect(t.next.state).toBe('transcribing');
    expect(kinds(t.effects)).toEqual(['sound', 'panel', 'transcribe', 'timer']);
    t = transition(t.next, { type: 'asr-done', id: 'S1', asr });
    expect(t.next.state).toBe('enhancing');
    expect(kinds(t.effects)).toEqual(['journal-stage', 'enhance', 'timer']);
    t = transition(t.next, { type: 'enhance-done', id: 'S1', result: enh() });
    expect(t.next.state).toBe('preview');
    t = transition(t.next, { type: 'confirm', id: 'S1', text: '你好，World。', action: 'paste' });
    expect(t.next.state).toBe('output');
    expect(t.effects).toContainEqual({ kind: 'output', id: 'S1', text: '你好，World。', action: 'paste' });
    // The record is journaled as the output starts (same turn, before the keystroke), so a crash after the paste logs it at the next start.
    expect(kinds(t.effects)).toEqual(['panel', 'output', 'journal-record', 'timer']);
    expect(t.effects[2]).toMatchObject({ intent: { outcome: 'confirmed', finalText: '你好，World。' } });
    t = transition(t.next, { type: 'output-done', id: 'S1', ok: true });
    expect(t.next).toBe(IDLE);
    const log = t.effects.find((e) => e.kind === 'log');
    expect(log).toMatchObject({ intent: { previewEnabled: true, outcome: 'confirmed', finalText: '你好，World。' }, settle: 'finish' });
    // No separate journal-finish: the log finishes the journal once the record is on disk.
    expect(kinds(t.effects)).toEqual(['clear-timer', 'log', 'done']);
  });

  it('direct mode skips preview and logs preview_enabled false, outcome direct', () => {
    const t1 = transition({ state: 'enhancing', s: s({ preview: false }), asr }, { type: 'enhance-done', id: 'S1', result: enh() });
    expect(t1.next.state).toBe('output');
    expect(kinds(t1.effects)).not.toContain('panel');
    const t2 = transition(t1.next, { type: 'output-done', id: 'S1', ok: true });
    expect(t2.effects.find((e) => e.kind === 'log')).toMatchObject({ intent: { previewEnabled: false, outcome: 'direct' } });
  });

  it('enhancement off (or mode off) goes from ASR straight to preview/output, logged under mode off', () => {
    const t = transition({ state: 'transcribing', s: s({ enhance: false, preview: false }) }, { type: 'asr-done', id: 'S1', asr });
    expect(t.next).toMatchObject({ state: 'output', text: asr.text, enh: { status: 'off', historyMode: 'off' } });
    const t2 = transition({ state: 'transcribing', s: { ...s(), mode: 'off' } }, { type: 'asr-done', id: 'S1', asr });
    expect(t2.next.state).toBe('preview');
  });

  it('toggle: first press records, second press stops', () => {
    const t = transition(IDLE, { type: 'press', trigger: 'toggle', next: next('S1') });
    expect(transition(t.next, { type: 'release' }).next.state).toBe('recording');
    expect(transition(t.next, { type: 'press', trigger: 'toggle', next: next('S3') }).next.state).toBe('transcribing');
  });

  it('copy from the preview logs outcome copied; a failed paste says the text is on the clipboard', () => {
    const out = transition(states().preview, { type: 'confirm', id: 'S1', text: 'x', action: 'copy' });
    const done = transition(out.next, { type: 'output-done', id: 'S1', ok: true });
    expect(done.effects.find((e) => e.kind === 'log')).toMatchObject({ intent: { outcome: 'copied' } });
    const why = { code: 'paste-failed', reason: 'xdotool missing', app: 'xterm' } as const;
    const failed = transition(states().output, { type: 'output-done', id: 'S1', ok: false, notice: why });
    expect(failed.effects).toContainEqual({ kind: 'notice', level: 'error', notice: why });
    expect(failed.effects.find((e) => e.kind === 'done')).toMatchObject({ outcome: 'copied' });
  });

  it('an LLM failure delivers the raw text with a warning', () => {
    const t = transition(states({ preview: false }).enhancing, { type: 'enhance-done', id: 'S1', result: enh('fallback') });
    expect(t.next).toMatchObject({ state: 'output', text: asr.text });
    expect(kinds(t.effects)).toContain('notice');
  });

  it('clipboard text and retries enter at the right step', () => {
    const text = transition(IDLE, { type: 'text', next: next('S9'), source: 'clipboard', asr });
    expect(text.next).toMatchObject({ state: 'enhancing', s: { source: 'clipboard', id: 'S9' } });
    const retry = transition(IDLE, { type: 'retry', next: next('S9') });
    expect(retry.next.state).toBe('transcribing');
    expect(retry.effects).toContainEqual({ kind: 'transcribe', id: 'S9', from: 'journal' });
  });
});

describe('session machine: cancel, restart, double presses from every state', () => {
  const all = states();
  it.each(DICTATION_STATES)('cancel from %s', (name) => {
    const t = transition(all[name], { type: 'cancel' });
    if (name === 'idle' || name === 'output') {
      expect(t.next).toBe(all[name]);
      expect(t.effects).toEqual([]);
      return;
    }
    expect(t.next).toBe(IDLE);
    expect(t.effects.at(-1)).toEqual({ kind: 'done', id: 'S1', outcome: 'cancelled' });
    if (name === 'recording') expect(t.effects).toContainEqual({ kind: 'capture-discard', id: 'S1', journal: true });
    else {
      expect(t.effects).toContainEqual({ kind: 'abort', id: 'S1' });
      expect(t.effects).toContainEqual({ kind: 'journal-cancel', id: 'S1' });
    }
    // Only a cancelled preview had text to log; it is logged as cancelled (never injected).
    expect(t.effects.some((e) => e.kind === 'log')).toBe(name === 'preview');
  });

  it.each(DICTATION_STATES)('restart from %s', (name) => {
    const t = transition(all[name], { type: 'restart', next: next('S2') });
    if (name === 'idle' || name === 'output') return expect(t.next).toBe(all[name]);
    expect(t.next).toMatchObject({ state: 'recording', s: { id: 'S2' } });
    expect(t.effects).toContainEqual({ kind: 'capture-start', id: 'S2' });
    expect(t.effects.some((e) => e.kind === 'done' && e.id === 'S1')).toBe(true);
  });

  it.each(DICTATION_STATES)('a second hold press in %s', (name) => {
    const t = transition(all[name], { type: 'press', trigger: 'hold', next: next('S2') });
    if (name === 'idle') return expect(t.next.state).toBe('recording');
    if (name === 'recording') return expect(t).toEqual({ next: all.recording, effects: [] }); // key auto-repeat
    expect(t.next).toBe(all[name]); // busy: nothing is lost, the user is told
    expect(kinds(t.effects)).toEqual(['notice']);
  });

  it.each(DICTATION_STATES)('release in %s only stops a hold recording', (name) => {
    const t = transition(all[name], { type: 'release' });
    expect(t.next.state).toBe(name === 'recording' ? 'transcribing' : name);
    const toggled = states({}, 'toggle')[name];
    expect(transition(toggled, { type: 'release' }).next.state).toBe(name);
  });

  it('mode keys change the recording mode, and re-enhance from enhancing/preview', () => {
    expect(transition(all.recording, { type: 'mode', mode: 'translate_en' }).next).toMatchObject({ s: { mode: 'translate_en' } });
    const t = transition(all.preview, { type: 'mode', mode: 'translate_en' });
    expect(t.next.state).toBe('enhancing');
    expect(kinds(t.effects)).toEqual(['abort', 'enhance', 'timer']);
    expect(transition(all.preview, { type: 'mode', mode: 'off' }).next).toMatchObject({ state: 'preview', enh: { status: 'off' } });
    for (const name of ['idle', 'transcribing', 'output'] as const) expect(transition(all[name], { type: 'mode', mode: 'x' }).next).toBe(all[name]);
  });

  it('confirm before the model finished delivers the user text and aborts the request', () => {
    const t = transition(all.enhancing, { type: 'confirm', id: 'S1', text: 'mine', action: 'paste' });
    expect(t.next).toMatchObject({ state: 'output', text: 'mine' });
    expect(kinds(t.effects)).toContain('abort');
    expect(transition(states({ preview: false }).enhancing, { type: 'confirm', id: 'S1', text: 'x', action: 'paste' }).next.state).toBe('enhancing');
  });
});

describe('session machine: stale results and timeouts', () => {
  const all = states();
  const stale: MachineEvent[] = [
    { type: 'asr-done', id: 'OLD', asr },
    { type: 'asr-silent', id: 'OLD', reason: 'x' },
    { type: 'asr-failed', id: 'OLD', error: 'x' },
    { type: 'enhance-done', id: 'OLD', result: enh() },
    { type: 'confirm', id: 'OLD', text: 'x', action: 'paste' },
    { type: 'output-done', id: 'OLD', ok: true },
    { type: 'timeout', id: 'OLD', step: 'recording' },
  ];
  it.each(DICTATION_STATES)('results of another session are ignored in %s', (name) => {
    for (const e of stale) expect(transition(all[name], e)).toEqual({ next: all[name], effects: [] });
  });

  it('results in the wrong step are ignored', () => {
    expect(transition(all.recording, { type: 'asr-done', id: 'S1', asr }).next).toBe(all.recording);
    expect(transition(all.preview, { type: 'enhance-done', id: 'S1', result: enh() }).next).toBe(all.preview);
    expect(transition(all.recording, { type: 'timeout', id: 'S1', step: 'enhancing' }).next).toBe(all.recording);
  });

  it('silence and empty transcripts end quietly with a notice; ASR failure keeps the audio', () => {
    expect(transition(all.transcribing, { type: 'asr-silent', id: 'S1', reason: 'below-threshold' }).next).toBe(IDLE);
    const empty = transition(all.transcribing, { type: 'asr-done', id: 'S1', asr: { ...asr, text: '  ' } });
    expect(empty.next).toBe(IDLE);
    expect(kinds(empty.effects)).toContain('journal-finish');
    const failed = transition(all.transcribing, { type: 'asr-failed', id: 'S1', error: 'HTTP 500' });
    expect(failed.next).toBe(IDLE);
    expect(kinds(failed.effects)).not.toContain('journal-finish');
    expect(failed.effects.find((e) => e.kind === 'notice')).toMatchObject({ level: 'error', notice: { code: 'asr-failed', reason: 'HTTP 500' } });
    // No model installed: the notice says which one to download (not a raw "file not found"); audio kept.
    const missing = transition(all.transcribing, { type: 'asr-failed', id: 'S1', error: 'model file not found', missingModel: 'base' });
    expect(kinds(missing.effects)).not.toContain('journal-finish');
    expect(missing.effects.find((e) => e.kind === 'notice')).toMatchObject({ level: 'error', notice: { code: 'speech-model-missing', model: 'base' } });
  });

  it('every step arms its timer', () => {
    expect(transition(IDLE, { type: 'press', trigger: 'hold', next: next('S1') }).effects).toContainEqual({ kind: 'timer', id: 'S1', step: 'recording', ms: 120_000 });
    expect(transition(all.recording, { type: 'release' }).effects).toContainEqual({ kind: 'timer', id: 'S1', step: 'transcribing', ms: 180_000 });
    expect(transition(all.transcribing, { type: 'asr-done', id: 'S1', asr }).effects).toContainEqual({ kind: 'timer', id: 'S1', step: 'enhancing', ms: 12_000 });
    expect(transition(all.enhancing, { type: 'enhance-done', id: 'S1', result: enh() }).effects).toContainEqual({ kind: 'timer', id: 'S1', step: 'preview', ms: 1_800_000 });
    expect(transition(all.preview, { type: 'confirm', id: 'S1', text: 'x', action: 'paste' }).effects).toContainEqual({ kind: 'timer', id: 'S1', step: 'output', ms: 10_000 });
    const noLimit = transition({ state: 'recording', s: s({ timeouts: { ...timeouts, transcribing: 0 } }) }, { type: 'release' });
    expect(noLimit.effects).toContainEqual({ kind: 'clear-timer' });
  });

  it('timeouts: recording stops and transcribes, transcribing fails, enhancing falls back, preview cancels, output leaves the clipboard', () => {
    expect(transition(all.recording, { type: 'timeout', id: 'S1', step: 'recording' }).next.state).toBe('transcribing');
    const tr = transition(all.transcribing, { type: 'timeout', id: 'S1', step: 'transcribing' });
    expect(tr.next).toBe(IDLE);
    expect(kinds(tr.effects)).toContain('abort');
    const en = transition(all.enhancing, { type: 'timeout', id: 'S1', step: 'enhancing' });
    expect(en.next).toMatchObject({ state: 'preview', enh: { status: 'fallback', reason: 'timeout', text: asr.text } });
    const pv = transition(all.preview, { type: 'timeout', id: 'S1', step: 'preview' });
    expect(pv.next).toBe(IDLE);
    expect(kinds(pv.effects)).toContain('journal-cancel');
    const out = transition(all.output, { type: 'timeout', id: 'S1', step: 'output' });
    expect(out.next).toBe(IDLE);
    expect(out.effects.find((e) => e.kind === 'notice')).toMatchObject({ level: 'error' });
    expect(kinds(out.effects)).toContain('log');
  });

  it('busy states refuse retries and clipboard text without losing the session', () => {
    for (const name of ['recording', 'transcribing', 'enhancing', 'preview', 'output'] as const) {
      expect(transition(all[name], { type: 'retry', next: next() }).next).toBe(all[name]);
      expect(transition(all[name], { type: 'text', next: next(), asr, source: 'clipboard' }).next).toBe(all[name]);
    }
  });
});
