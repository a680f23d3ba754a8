import { describe, expect, it } from 'vitest';
import { parseKeyName } from '../../../../src/main/dictation/hotkey-keys.ts';
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

  it('explains names it cannot watch or does not know', () => {
    expect(parseKeyName('fn')).toMatchObject({ ok: false, error: expect.stringMatching(/fn\/Globe.*alt_r/) });
    expect(parseKeyName('hyper')).toMatchObject({ ok: false, error: "unknown key 'hyper'" });
    expect(parseKeyName('a+b')).toMatchObject({ ok: false, error: expect.stringMatching(/not a modifier/) });
    expect(parseKeyName('ctrl+')).toMatchObject({ ok: false });
  });

  it('bindingsFromConfig reports bad keys with their role and skips disabled ones', () => {
    const r = bindingsFromConfig({ ...config({ hotkeys: { fn: true, f13: true, alt_r: false } }), feedback: { cancel_key: 'nope', restart_key: 'cmd' } });
    expect(r.bindings.talk.map((k) => k.name)).toEqual(['f13']);
    expect(r.problems.map((p) => [p.key, p.role])).toEqual([
      ['fn', 'dictation key'],
      ['nope', 'cancel key'],
    ]);
    expect(r.bindings.cancel).toBeNull();
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

  it('reset releases an active hold (hook restart, bindings replaced)', () => {
    const r = new HotkeyRouter(bindingsFromConfig(config()).bindings);
    r.keydown(ev(ALT_R, 0), false);
    expect(r.reset(250)).toEqual([{ type: 'hold-up', key: 'alt_r', heldMs: 250 }]);
    expect(r.reset(300)).toEqual([]);
  });
});
