/**
 * Which accelerators consume the recording keys, and the register/unregister lifecycle over a fake
 * globalShortcut (a recorder with Electron's contract: register answers true/false or throws for a name
 * it cannot parse). The real X key grabs are proven in test/app/keys.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { bindingsFromConfig } from '../../../../src/main/dictation/hotkey-router.ts';
import { heldModifierSets, RecordingKeyGrabs, recordingShortcuts, shortcutsAct, type ShortcutRegistry } from '../../../../src/main/dictation/recording-keys.ts';

const config = (over: { hotkeys?: Record<string, boolean>; mode?: 'hold' | 'toggle'; cancel?: string; restart?: string } = {}) => ({
  hotkeys: over.hotkeys ?? { alt_r: true },
  recording: { mode: over.mode ?? ('hold' as const), prev_mode_key: 'left', next_mode_key: 'right' },
  feedback: { cancel_key: over.cancel ?? 'space', restart_key: over.restart ?? '' },
});
const accs = (c: ReturnType<typeof config>, platform: NodeJS.Platform = 'linux'): string[] => recordingShortcuts(bindingsFromConfig(c).bindings, platform).map((s) => s.accelerator);

/** A fake globalShortcut: what is registered, in order; `taken` are held by "another app"; `bad` throw. */
function fakeRegistry(opts: { taken?: string[]; bad?: string[] } = {}) {
  const registered = new Map<string, () => void>();
  const calls: string[] = [];
  const registry: ShortcutRegistry = {
    register(acc, cb) {
      calls.push(`+${acc}`);
      if (opts.bad?.includes(acc)) throw new TypeError(`conversion failure from ${acc}`);
      if (opts.taken?.includes(acc) || registered.has(acc)) return false;
      registered.set(acc, cb);
      return true;
    },
    unregister(acc) {
      calls.push(`-${acc}`);
      registered.delete(acc);
    },
  };
  return { registry, registered, calls, press: (acc: string) => registered.get(acc)?.() };
}

describe('recordingShortcuts: every recording key in every modifier state it can be pressed in', () => {
  it('hold Right Alt: each key bare and with Alt (X grabs match the exact modifier state), Escape included', () => {
    expect(accs(config())).toEqual(['Space', 'Alt+Space', 'Escape', 'Alt+Escape', 'Left', 'Alt+Left', 'Right', 'Alt+Right']);
    expect(recordingShortcuts(bindingsFromConfig(config()).bindings, 'linux').map((s) => s.role)).toEqual(['cancel', 'cancel', 'cancel', 'cancel', 'prev-mode', 'prev-mode', 'next-mode', 'next-mode']);
  });

  it('toggle mode: nothing is held, so only the bare keys', () => {
    expect(accs(config({ mode: 'toggle' }))).toEqual(['Space', 'Escape', 'Left', 'Right']);
  });

  it('Windows: a Right Alt that is AltGr arrives as Ctrl+Alt, so that form is consumed too', () => {
    expect(heldModifierSets(bindingsFromConfig(config()).bindings, 'win32')).toEqual([[], ['alt'], ['ctrl', 'alt']]);
    expect(accs(config(), 'win32')).toContain('Control+Alt+Left');
  });

  it('macOS names ⌘ Command; a restart key that is a modifier alone (cmd) cannot be registered and is skipped', () => {
    expect(accs(config({ hotkeys: { cmd_r: true }, restart: 'cmd' }), 'darwin')).toEqual(['Space', 'Command+Space', 'Escape', 'Command+Escape', 'Left', 'Command+Left', 'Right', 'Command+Right']);
  });

  it('a combo restart key gets the held modifier added; the talk key itself is never registered', () => {
    expect(accs(config({ restart: 'ctrl+r' }))).toEqual(expect.arrayContaining(['Control+R', 'Control+Alt+R']));
    expect(accs(config({ hotkeys: { f13: true }, cancel: 'f13' }))).toEqual(['Escape', 'Left', 'Right']);
  });

  it('a key used by two roles is registered once (the first role wins)', () => {
    const list = recordingShortcuts(bindingsFromConfig(config({ mode: 'toggle', restart: 'space' })).bindings, 'linux');
    expect(list.filter((s) => s.accelerator === 'Space')).toEqual([{ accelerator: 'Space', role: 'cancel', key: 'space' }]);
  });

  it('one source acts per press: the hook on X11/Windows, the shortcut on macOS or without a hook', () => {
    expect(shortcutsAct('linux', true)).toBe(false);
    expect(shortcutsAct('win32', true)).toBe(false);
    expect(shortcutsAct('darwin', true)).toBe(true);
    expect(shortcutsAct('linux', false)).toBe(true);
  });
});

describe('RecordingKeyGrabs: registered at recording start, released at the end', () => {
  const list = recordingShortcuts(bindingsFromConfig(config()).bindings, 'linux');

  it('engage registers every accelerator; presses reach onPress with their role; release unregisters them all', () => {
    const f = fakeRegistry();
    const pressed: string[] = [];
    const g = new RecordingKeyGrabs({ registry: f.registry, onPress: (s) => pressed.push(`${s.role}:${s.accelerator}`) });
    expect(g.engage(list)).toEqual([]);
    expect([...f.registered.keys()]).toEqual(list.map((s) => s.accelerator));
    expect([...g.consumedRoles()].sort()).toEqual(['cancel', 'next-mode', 'prev-mode']);
    f.press('Alt+Left');
    f.press('Space');
    expect(pressed).toEqual(['prev-mode:Alt+Left', 'cancel:Space']);
    g.release();
    expect(f.registered.size).toBe(0);
    expect(g.accelerators()).toEqual([]);
    expect(g.consumedRoles().size).toBe(0);
  });

  it('engaging again (a restart stays recording) keeps the grabs: no unregister, no gap', () => {
    const f = fakeRegistry();
    const g = new RecordingKeyGrabs({ registry: f.registry, onPress: () => undefined });
    g.engage(list);
    const before = f.calls.length;
    expect(g.engage(list)).toEqual([]);
    expect(f.calls.length).toBe(before);
  });

  it('new bindings while recording: dropped keys are unregistered, new ones registered, kept ones untouched', () => {
    const f = fakeRegistry();
    const g = new RecordingKeyGrabs({ registry: f.registry, onPress: () => undefined });
    g.engage(list);
    f.calls.length = 0;
    g.engage(recordingShortcuts(bindingsFromConfig(config({ cancel: 'backspace' })).bindings, 'linux'));
    expect(f.calls).toEqual(['-Space', '-Alt+Space', '+Backspace', '+Alt+Backspace']);
  });

  it('a shortcut another app holds, or a name Electron refuses, is reported and not kept; the rest still register', () => {
    const f = fakeRegistry({ taken: ['Alt+Space'], bad: ['Alt+Left'] });
    const g = new RecordingKeyGrabs({ registry: f.registry, onPress: () => undefined });
    const failed = g.engage(list);
    expect(failed).toEqual([
      { accelerator: 'Alt+Space', reason: 'already used by another app or by the system' },
      { accelerator: 'Alt+Left', reason: 'conversion failure from Alt+Left' },
    ]);
    expect(g.accelerators()).toEqual(['Space', 'Escape', 'Alt+Escape', 'Left', 'Right', 'Alt+Right']);
    g.release();
    expect(f.calls.filter((c) => c.startsWith('-'))).toEqual(['-Space', '-Escape', '-Alt+Escape', '-Left', '-Right', '-Alt+Right']);
  });

  it('a press delivered after the release is not acted on', () => {
    const f = fakeRegistry();
    const pressed: string[] = [];
    const g = new RecordingKeyGrabs({ registry: f.registry, onPress: (s) => pressed.push(s.accelerator) });
    g.engage(list);
    const late = f.registered.get('Space');
    g.release();
    late?.();
    expect(pressed).toEqual([]);
  });
});
