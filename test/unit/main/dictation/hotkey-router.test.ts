import { describe, expect, it } from 'vitest';
import { acceleratorFor, FN_KEY_CODE, heldModifiersOf, parseKeyName } from '../../../../src/main/dictation/hotkey-keys.ts';
import { bindingsFromConfig, HotkeyRouter } from '../../../../src/main/dictation/hotkey-router.ts';
import type { RawKeyEvent } from '../../../../src/main/ports/raw-key-event.ts';

const ev = (keycode: number, time = 0, mods: Partial<RawKeyEvent> = {}): RawKeyEvent => ({ keycode, time, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
const config = (over: { hotkeys?: Record<string, boolean>; mode?: 'hold' | 'toggle' } = {}) => ({
  hotkeys: over.hotkeys ?? { alt_r: true },
  recording: { mode: over.mode ?? ('hold' as const), prev_mode_key: 'left', next_mode_key: 'right' },
  feedback: { cancel_key: 'space', restart_key: 'cmd' },
});
const ALT_R = 3640;
const SPACE = 57;

describe('key names → uiohook codes', () => {
  it.each([
    ['alt_r', [3640], []],
    ['alt', [56, 3640], []],
    ['cmd', [3675, 3676], []],
    ['ctrl_l', [29], []],
    ['f13', [91], []],
    ['f12', [88], []],
    ['f1', [59], []],
    ['space', [57], []],
    ['esc', [1], []],
    ['left', [57419], []],
    ['ctrl+cmd+1', [2], ['ctrl', 'meta']],
    ['Shift+A', [30], ['shift']],
  ])('%s', (name, codes, mods) => {
    expect(parseKeyName(name)).toMatchObject({ ok: true, key: { codes, mods } });
  });

  it('explains names it does not know', () => {
    expect(parseKeyName('hyper')).toMatchObject({ ok: false, error: "unknown key 'hyper'" });
    expect(parseKeyName('a+b')).toMatchObject({ ok: false, error: expect.stringMatching(/not a modifier/) });
    expect(parseKeyName('ctrl+')).toMatchObject({ ok: false });
  });

  it('bindingsFromConfig reports bad keys with their role and skips disabled ones; Escape still cancels', () => {
    const r = bindingsFromConfig({ ...config({ hotkeys: { fn: true, f13: true, alt_r: false } }), feedback: { cancel_key: 'nope', restart_key: 'cmd' } });
    expect(r.bindings.talk.map((k) => k.name)).toEqual(['f13']);
    expect(r.problems.map((p) => [p.key, p.role])).toEqual([
      ['fn', 'dictation key'],
      ['nope', 'cancel key'],
    ]);
    expect(r.problems[0]?.error).toMatch(/fn\/Globe.*only.*macOS.*alt_r/);
    expect(r.bindings.cancel.map((k) => k.name)).toEqual(['esc']);
  });

  it('fn/Globe parses to its own code and is accepted where its watcher runs (macOS)', () => {
    expect(parseKeyName('fn')).toMatchObject({ ok: true, key: { codes: [FN_KEY_CODE], accelerator: null } });
    expect(parseKeyName('globe')).toMatchObject({ ok: true, key: { codes: [FN_KEY_CODE] } });
    const mac = bindingsFromConfig(config({ hotkeys: { fn: true } }), { fn: null });
    expect(mac.problems).toEqual([]);
    expect(mac.bindings.talk.map((k) => k.name)).toEqual(['fn']);
    const refused = bindingsFromConfig(config({ hotkeys: { fn: true } }), { fn: 'no permission' });
    expect(refused.problems).toEqual([{ key: 'fn', role: 'dictation key', error: 'no permission' }]);
  });

  it('empty recording keys mean none; a configured Escape is not doubled', () => {
    const b = bindingsFromConfig({ ...config(), feedback: { cancel_key: 'esc', restart_key: '' } }).bindings;
    expect(b.restart).toBeNull();
    expect(b.cancel.map((k) => k.name)).toEqual(['esc']);
    expect(bindingsFromConfig(config()).bindings.cancel.map((k) => k.name)).toEqual(['space', 'esc']);
  });

  it.each([
    ['space', [], 'linux', 'Space'],
    ['space', ['alt'], 'linux', 'Alt+Space'],
    ['left', ['alt'], 'win32', 'Alt+Left'],
    ['esc', [], 'darwin', 'Escape'],
    ['ctrl+cmd+1', [], 'darwin', 'Control+Command+1'],
    ['ctrl+cmd+1', ['alt'], 'linux', 'Control+Alt+Super+1'],
    ['f13', ['shift'], 'linux', 'Shift+F13'],
    ['backspace', [], 'linux', 'Backspace'],
    ['page_up', [], 'linux', 'PageUp'],
    ['a', [], 'linux', 'A'],
  ] as const)('%s with %j held on %s → Electron accelerator %s', (name, held, platform, acc) => {
    const p = parseKeyName(name);
    if (!p.ok) throw new Error(p.error);
    expect(acceleratorFor(p.key, held, platform)).toBe(acc);
  });

  it('keys Electron cannot register have no accelerator (they act through the hook only)', () => {
    for (const name of ['alt_r', 'cmd', 'shift', 'fn', 'pause', 'menu']) {
      const p = parseKeyName(name);
      expect(p.ok && acceleratorFor(p.key, [], 'linux')).toBe(null);
    }
  });

  it('the modifiers held with a talk key: its combo modifiers plus itself when it is one', () => {
    const held = (n: string): readonly string[] => {
      const p = parseKeyName(n);
      return p.ok ? heldModifiersOf(p.key) : [];
    };
    expect(held('alt_r')).toEqual(['alt']);
    expect(held('cmd_r')).toEqual(['meta']);
    expect(held('f13')).toEqual([]);
    expect(held('ctrl+cmd+1')).toEqual(['ctrl', 'meta']);
  });
});

describe('HotkeyRouter', () => {
  it('hold: key-down starts, auto-repeat is ignored, key-up stops with the hold time', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    expect(r.keydown(ev(ALT_R, 1000), false)).toEqual([{ type: 'hold-down', key: 'alt_r' }]);
    expect(r.keydown(ev(ALT_R, 1030), true)).toEqual([]);
    expect(r.keydown(ev(ALT_R, 1060), true)).toEqual([]);
    expect(r.keyup(ev(ALT_R, 1700))).toEqual([{ type: 'hold-up', key: 'alt_r', heldMs: 700 }]);
  });

  it('other keys do nothing when idle; the left Alt is not the right one', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    expect(r.keydown(ev(56), false)).toEqual([]);
    expect(r.keydown(ev(SPACE), false)).toEqual([]);
    expect(r.keyup(ev(56))).toEqual([]);
  });

  it('while recording: cancel, restart and mode keys act; the talk key itself never counts as restart', () => {
    const r = new HotkeyRouter(bindingsFromConfig({ ...config({ hotkeys: { cmd_r: true } }) }).bindings);
    expect(r.keydown(ev(3676, 0), false)).toEqual([{ type: 'hold-down', key: 'cmd_r' }]);
    expect(r.keydown(ev(57421, 10), true)).toEqual([{ type: 'mode', delta: 1 }]);
    expect(r.keydown(ev(57419, 20), true)).toEqual([{ type: 'mode', delta: -1 }]);
    expect(r.keydown(ev(3675, 30), true)).toEqual([{ type: 'restart' }]);
    expect(r.keydown(ev(SPACE, 40), true)).toEqual([{ type: 'cancel' }]);
    // The same keys when not recording pass through untouched.
    const idle = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    expect(idle.keydown(ev(SPACE), false)).toEqual([]);
  });

  it('the hold ends on the hold key’s own key-up even after other keys', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    r.keydown(ev(ALT_R, 0), false);
    r.keydown(ev(30, 5), true);
    expect(r.keyup(ev(30, 6))).toEqual([]);
    expect(r.keyup(ev(ALT_R, 500))).toEqual([{ type: 'hold-up', key: 'alt_r', heldMs: 500 }]);
  });

  it('combos need their modifiers held', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config({ hotkeys: { 'ctrl+cmd+1': true } })).bindings);
    expect(r.keydown(ev(2, 0), false)).toEqual([]);
    r.keyup(ev(2, 1));
    expect(r.keydown(ev(2, 2, { ctrlKey: true, metaKey: true }), false)).toEqual([{ type: 'hold-down', key: 'ctrl+cmd+1' }]);
  });

  it('toggle mode: each press toggles, key-up does nothing', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config({ mode: 'toggle' })).bindings);
    expect(r.keydown(ev(ALT_R, 0), false)).toEqual([{ type: 'toggle', key: 'alt_r' }]);
    expect(r.keyup(ev(ALT_R, 100))).toEqual([]);
    expect(r.keydown(ev(ALT_R, 200), true)).toEqual([{ type: 'toggle', key: 'alt_r' }]);
  });

  it('while recording, Escape cancels too, whatever the configured cancel key', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    r.keydown(ev(ALT_R, 0), false);
    expect(r.keydown(ev(1, 10, { altKey: true }), true)).toEqual([{ type: 'cancel' }]);
  });

  it('recording keys match their exact modifiers plus the held talk key’s: the toggle shortcut Ctrl+Shift+Space is not "Space = cancel"', () => {
    const toggle = new HotkeyRouter(bindingsFromConfig(config({ mode: 'toggle' })).bindings);
    expect(toggle.keydown(ev(SPACE, 0, { ctrlKey: true, shiftKey: true }), true)).toEqual([]);
    toggle.keyup(ev(SPACE, 1));
    expect(toggle.keydown(ev(SPACE, 2), true)).toEqual([{ type: 'cancel' }]);
    // Hold Right Alt: Alt+Space cancels (Alt is the held key's), Ctrl+Alt+Space does not.
    const hold = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    hold.keydown(ev(ALT_R, 0), false);
    expect(hold.keydown(ev(SPACE, 5, { altKey: true, ctrlKey: true }), true)).toEqual([]);
    hold.keyup(ev(SPACE, 6));
    expect(hold.keydown(ev(SPACE, 7, { altKey: true }), true)).toEqual([{ type: 'cancel' }]);
    expect(hold.keydown(ev(57419, 8, { altKey: true }), true)).toEqual([{ type: 'mode', delta: -1 }]);
  });

  it('roles whose consuming shortcut acts are left to it (no press acts twice)', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    r.keydown(ev(ALT_R, 0), false);
    const elsewhere = new Set(['cancel', 'next-mode'] as const);
    expect(r.keydown(ev(SPACE, 1, { altKey: true }), true, elsewhere)).toEqual([]);
    expect(r.keydown(ev(57421, 2, { altKey: true }), true, elsewhere)).toEqual([]);
    expect(r.keydown(ev(57419, 3, { altKey: true }), true, elsewhere)).toEqual([{ type: 'mode', delta: -1 }]);
  });

  it('fn/Globe holds like any other key (the macOS watcher reports it under its own code)', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config({ hotkeys: { fn: true } }), { fn: null }).bindings);
    expect(r.keydown(ev(FN_KEY_CODE, 0), false)).toEqual([{ type: 'hold-down', key: 'fn' }]);
    expect(r.keyup(ev(FN_KEY_CODE, 900))).toEqual([{ type: 'hold-up', key: 'fn', heldMs: 900 }]);
  });

  it('reset releases an active hold (hook restart, bindings replaced)', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    r.keydown(ev(ALT_R, 0), false);
    expect(r.reset(250)).toEqual([{ type: 'hold-up', key: 'alt_r', heldMs: 250 }]);
    expect(r.reset(300)).toEqual([]);
  });
});
