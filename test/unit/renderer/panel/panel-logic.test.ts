import { describe, expect, it } from 'vitest';
import { panelKeyAction, type PanelKeyInput } from '../../../../src/renderer/lib/panel-keys.ts';
import { secondsText, usageParts } from '../../../../src/renderer/lib/panel-format.ts';
import { diffParts, vocabularyPair } from '../../../../src/renderer/lib/preview-diff.ts';
import { initialPanelState, panelReducer, type PanelState } from '../../../../src/renderer/panel/panel-state.ts';
import type { DictationEvent, DictationSnapshot } from '../../../../src/shared/ipc/dictation-types.ts';

const k = (key: string, code: string, over: Partial<PanelKeyInput> = {}): PanelKeyInput => ({ key, code, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, isComposing: false, keyCode: 0, ...over });

describe('panel keys', () => {
  it('Enter pastes, Ctrl+Enter (⌘Enter on macOS) copies, Esc cancels, Ctrl/⌘+1–9 picks a mode', () => {
    expect(panelKeyAction(k('Enter', 'Enter'), false)).toEqual({ kind: 'confirm' });
    expect(panelKeyAction(k('Enter', 'Enter', { ctrlKey: true }), false)).toEqual({ kind: 'copy' });
    expect(panelKeyAction(k('Enter', 'Enter', { metaKey: true }), true)).toEqual({ kind: 'copy' });
    expect(panelKeyAction(k('Escape', 'Escape'), false)).toEqual({ kind: 'cancel' });
    expect(panelKeyAction(k('3', 'Digit3', { ctrlKey: true }), false)).toEqual({ kind: 'mode', index: 2 });
    expect(panelKeyAction(k('&', 'Digit1', { metaKey: true }), true)).toEqual({ kind: 'mode', index: 0 }); // AZERTY: by physical key
  });

  it('leaves typing, Shift+Enter, Ctrl+0 and other-modifier combinations to the text area', () => {
    expect(panelKeyAction(k('Enter', 'Enter', { shiftKey: true }), false)).toBeNull();
    expect(panelKeyAction(k('a', 'KeyA'), false)).toBeNull();
    expect(panelKeyAction(k('0', 'Digit0', { ctrlKey: true }), false)).toBeNull();
    expect(panelKeyAction(k('1', 'Digit1', { metaKey: true }), false)).toBeNull(); // Super+1 is not the primary key off macOS
    expect(panelKeyAction(k('Enter', 'Enter', { ctrlKey: true }), true)).toBeNull(); // Ctrl+Enter on macOS
  });

  it('ignores every key while an IME is composing (isComposing or keyCode 229)', () => {
    expect(panelKeyAction(k('Enter', 'Enter', { isComposing: true }), false)).toBeNull();
    expect(panelKeyAction(k('Escape', 'Escape', { isComposing: true }), false)).toBeNull();
    expect(panelKeyAction(k('Process', 'Enter', { keyCode: 229 }), false)).toBeNull();
    expect(panelKeyAction(k('1', 'Digit1', { ctrlKey: true, keyCode: 229 }), false)).toBeNull();
  });
});

describe('panel diff', () => {
  it('compares Chinese by character and English by word, yielding vocabulary pairs', () => {
    const parts = diffParts('今天平平来了', '今天萍萍来了');
    expect(parts).toEqual([{ kind: 'same', text: '今天' }, { kind: 'change', from: '平平', to: '萍萍' }, { kind: 'same', text: '来了' }]);
    expect(vocabularyPair(parts[1] ?? { kind: 'same', text: '' })).toEqual({ wrong: '平平', right: '萍萍' });
    const en = diffParts('push to get hub now', 'push to GitHub now');
    expect(en.filter((p) => p.kind === 'change').map(vocabularyPair)).toEqual([{ wrong: 'get hub', right: 'GitHub' }]);
    expect(vocabularyPair({ kind: 'change', from: '', to: 'added' })).toBeNull();
    expect(diffParts('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
  });

  it('joins the parts back into both texts', () => {
    const a = 'hello world, this is 一个 test';
    const b = 'Hello world: this is 一段 test!';
    const parts = diffParts(a, b);
    expect(parts.map((p) => (p.kind === 'same' ? p.text : p.from)).join('')).toBe(a);
    expect(parts.map((p) => (p.kind === 'same' ? p.text : p.to)).join('')).toBe(b);
  });
});

const snap = (over: Partial<DictationSnapshot>): DictationSnapshot => ({
  sessionId: 'S1', state: 'preview', mode: 'proofread', asrText: 'raw', enhancedText: 'Raw.', text: 'Raw.', enhanceStatus: 'enhanced', enhanceReason: null,
  model: 'm', usage: null, elapsedMs: 10, thinking: '', cached: false, ...over,
});
const run = (events: readonly DictationEvent[], from: PanelState = initialPanelState): PanelState => events.reduce((s, event) => panelReducer(s, { type: 'event', event, now: 1 }), from);

describe('panel state', () => {
  const start: DictationEvent[] = [
    { kind: 'state', sessionId: 'S1', state: 'recording', previous: 'idle', mode: 'proofread' },
    { kind: 'asr', sessionId: 'S1', text: 'raw', language: 'en' },
    { kind: 'delta', sessionId: 'S1', stream: 'answer', text: 'Ra' },
  ];

  it('streams deltas into the draft until the user edits; a late result then keeps the edit', () => {
    let s = run(start);
    expect(s.draft).toBe('Ra');
    s = panelReducer(s, { type: 'edit', text: 'mine' });
    s = run([{ kind: 'delta', sessionId: 'S1', stream: 'answer', text: 'w.' }, { kind: 'result', sessionId: 'S1', snapshot: snap({}) }], s);
    expect(s).toMatchObject({ draft: 'mine', edited: true, result: { text: 'Raw.' }, cachedModes: ['proofread'] });
    // An explicit mode switch asks for new text.
    s = panelReducer(s, { type: 'mode-requested', mode: 'translate_en' });
    s = run([{ kind: 'result', sessionId: 'S1', snapshot: snap({ mode: 'translate_en', text: 'Raw!', enhancedText: 'Raw!' }) }], s);
    expect(s).toMatchObject({ draft: 'Raw!', edited: false, mode: 'translate_en', cachedModes: ['proofread', 'translate_en'] });
  });

  it('ignores events of other sessions, starts fresh on a new one, and keeps finished previews (max 10)', () => {
    let s = run([...start, { kind: 'result', sessionId: 'S1', snapshot: snap({}) }, { kind: 'asr', sessionId: 'OLD', text: 'stale', language: '' }]);
    expect(s.asrText).toBe('raw');
    s = run([{ kind: 'done', sessionId: 'S1', outcome: 'pasted' }], s);
    expect(s.recent).toMatchObject([{ sessionId: 'S1', text: 'Raw.', outcome: 'pasted' }]);
    s = run([{ kind: 'state', sessionId: 'S2', state: 'recording', previous: 'idle', mode: 'proofread' }], s);
    expect(s).toMatchObject({ sessionId: 'S2', asrText: '', draft: '', cachedModes: [] });
    expect(s.recent).toHaveLength(1);
    for (let i = 0; i < 12; i++) {
      s = run([{ kind: 'state', sessionId: `N${i}`, state: 'recording', previous: 'idle', mode: 'm' }, { kind: 'asr', sessionId: `N${i}`, text: `t${i}`, language: '' }, { kind: 'done', sessionId: `N${i}`, outcome: 'cancelled' }], s);
    }
    expect(s.recent).toHaveLength(10);
    expect(s.recent[0]?.sessionId).toBe('N11');
    s = panelReducer(s, { type: 'reopen', sessionId: 'N5' });
    expect(s.reopened?.text).toBe('t5');
  });
});

describe('panel info line', () => {
  it('formats usage with the cached share and timing', () => {
    expect(usageParts({ prompt_tokens: 2048, completion_tokens: 12, cached_tokens: 1024 }, 'en')).toEqual({ total: '2,060', prompt: '2,048', cached: '1,024', share: '50', completion: '12' });
    expect(usageParts({ prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0 }, 'en')).toBeNull();
    expect(usageParts(null, 'en')).toBeNull();
    expect(secondsText(1234)).toBe('1.2');
    expect(secondsText(null)).toBeNull();
  });
});
